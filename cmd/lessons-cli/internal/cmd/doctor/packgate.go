package doctor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
// costs every one of those calls context and prevents nothing. A pack the
// project subscribes to is judged on the project's sessions alone, where
// its lessons apply; one subscribed globally on all of them.
func (c *checkup) packGate(cwd string, getenv func(string) string) {
	mg := scope.Merge(c.dirs, cwd, c.loader)
	mg.Active = slices.DeleteFunc(mg.Active, func(r scope.Resolved) bool { return r.Scope.Pack() == "" })
	if len(mg.Active) == 0 {
		return
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	local := projectPacks(mg)
	var tally *projectTally
	job := replay.Job{Merged: mg, Weights: scanner.DefaultWeights(),
		Read: scanner.ReadOptions{Paths: replay.Paths(nil, mg.Config, getenv), Since: packGateSince}}
	if len(local) > 0 {
		tally = newProjectTally(mg.Project)
		job.Trace = tally
	}
	ctx, cancel := context.WithTimeout(context.Background(), packGateTime)
	defer cancel()
	rep, err := replay.Run(ctx, job)
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
	verdicts := gateOn(builtinreport.History{Name: "your last 14 days"}, rep, mg.Active, func(p string) bool { return !local[p] })
	if tally != nil {
		verdicts = append(verdicts, gateOn(builtinreport.History{Name: "this project's last 14 days"}, tally.report(), mg.Active, func(p string) bool { return local[p] })...)
	}
	for i, v := range verdicts {
		if slices.ContainsFunc(verdicts[:i], func(p packVerdict) bool { return p.Slug == v.Slug }) {
			continue // one finding a lesson, with every line it fails on
		}
		var lines []string
		for _, w := range verdicts[i:] {
			if w.Slug == v.Slug {
				lines = append(lines, w.Line)
			}
		}
		c.add(SeverityWarning, v.r.Path, 0, 0, "", fmt.Sprintf("%s lesson %s fails the built-ins' gate on %s%s: %s", v.r.Scope, v.Slug, v.history, partial, strings.Join(lines, "; ")),
			fmt.Sprintf("lessons disable %s, or ask the pack's maintainers to narrow its trigger (lessons replay --scope %s shows its figures)", v.r.Slug, v.r.Scope))
	}
}

// packVerdict is a pack lesson failing the gate.
type packVerdict struct {
	builtinreport.Verdict
	r       scope.Resolved
	history string // the sessions it was judged on
}

// gateOn applies the gate to the pack lessons of active measured by rep
// whose pack judge accepts.
func gateOn(h builtinreport.History, rep *replay.Report, active []scope.Resolved, judge func(pack string) bool) []packVerdict {
	ms := []builtinreport.Measured{{History: h, Report: rep}}
	var out []packVerdict
	for _, v := range builtinreport.DefaultGate.Lessons(ms, builtinreport.Kinds(active)) {
		i := slices.IndexFunc(active, func(r scope.Resolved) bool { return r.Slug == v.Slug })
		if i >= 0 && judge(active[i].Scope.Pack()) {
			out = append(out, packVerdict{v, active[i], h.Name})
		}
	}
	return out
}

// projectPacks names the packs the project's own config subscribes to.
func projectPacks(mg scope.Merged) map[string]bool {
	out := map[string]bool{}
	if mg.Project == "" {
		return out
	}
	dir := filepath.Dir(scope.ProjectConfig(mg.Project))
	for _, p := range mg.Config.Packs {
		if filepath.Clean(p.Store) == filepath.Clean(dir) {
			out[p.Name] = true
		}
	}
	return out
}
