package doctor

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/builtinreport"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/replay"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// The pack gate replays only the user's recent sessions, and for a
// bounded time, so that doctor stays quick on a large history.
const (
	packGateSince = 14 * 24 * time.Hour
	packGateTime  = 5 * time.Second
)

// packGate warns about each lesson of a subscribed pack that would fail
// the built-ins' gate (docs/builtins.md) on the user's own sessions of the
// last two weeks: a pitfall that fires often before calls that went fine
// costs every one of those calls context and prevents nothing.
func (c *checkup) packGate(cwd string, getenv func(string) string) {
	mg := scope.Merge(c.dirs, cwd, c.loader)
	mg.Active = slices.DeleteFunc(mg.Active, func(r scope.Resolved) bool { return r.Scope.Pack() == "" })
	if len(mg.Active) == 0 {
		return
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	ctx, cancel := context.WithTimeout(context.Background(), packGateTime)
	defer cancel()
	rep, err := replay.Run(ctx, replay.Job{Merged: mg, Weights: scanner.DefaultWeights(),
		Read: scanner.ReadOptions{Paths: replay.Paths(nil, mg.Config, getenv), Since: packGateSince}})
	if rep == nil {
		if err != nil {
			c.add(SeverityWarning, "", 0, 0, "", "replaying recent sessions for the pack gate: "+err.Error(), "run lessons replay --scope pack:NAME to see why")
		}
		return
	}
	partial := ""
	if err != nil {
		partial = fmt.Sprintf(" (in the first %v of the replay)", packGateTime)
	}
	ms := []builtinreport.Measured{{History: builtinreport.History{Name: "your last 14 days"}, Report: rep}}
	for _, v := range builtinreport.DefaultGate.Lessons(ms, builtinreport.Kinds(mg.Active)) {
		i := slices.IndexFunc(mg.Active, func(r scope.Resolved) bool { return r.Slug == v.Slug })
		if i < 0 {
			continue
		}
		r := mg.Active[i]
		c.add(SeverityWarning, r.Path, 0, 0, "", fmt.Sprintf("%s lesson fails the built-ins' gate on %s%s", r.Scope, v.Line, partial),
			fmt.Sprintf("lessons disable %s, or ask the pack's maintainers to narrow its trigger (lessons replay --scope %s shows its figures)", r.Slug, r.Scope))
	}
}
