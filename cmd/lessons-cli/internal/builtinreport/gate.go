package builtinreport

import (
	"cmp"
	"fmt"
	"slices"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/replay"
	"github.com/lessons-dev/lessons/scope"
)

// Gate is what the built-ins must meet on every history to keep their
// place. See docs/builtins.md for why each figure is what it is.
type Gate struct {
	// MaxInjectionsPer100 caps, per history, the answers that added
	// lesson text per 100 calls: the context every user pays for.
	MaxInjectionsPer100 float64
	// MinPrecision is the least share of a pitfall's fires that must come
	// before a failure it addresses, once it has MinFires fires summed
	// over the histories (fewer say too little to judge).
	MinPrecision float64
	MinFires     int
	// MaxSessionShare is the largest share of a history's sessions (of at
	// least MinSessions) a pitfall under MinPrecision may fire in.
	MaxSessionShare float64
	MinSessions     int
}

// DefaultGate is the gate .ci/run applies.
var DefaultGate = Gate{MaxInjectionsPer100: 1, MinPrecision: 0.1, MinFires: 20, MaxSessionShare: 0.1, MinSessions: 5}

// Stat is one lesson's figures, on one history or summed over several.
type Stat struct {
	Slug string
	Kind lessons.Kind
	// Fires counts the times it reached the agent (its text before a call
	// or with a failure, or a refusal); Addressed those that address a
	// failure, as replay counts them (firesAddressing); After those that
	// came with a failure (on its error triggers), each addressing it.
	Fires, Addressed, After int
	// Blocks counts the calls it refused or asked about.
	Blocks int
	// Sessions counts the sessions it fired in.
	Sessions int
	// ToolCalls counts the calls of its tools.
	ToolCalls int
}

// Precision is Addressed / Fires, 0 for a lesson that never fired.
func (s Stat) Precision() float64 {
	if s.Fires == 0 {
		return 0
	}
	return float64(s.Addressed) / float64(s.Fires)
}

// stats are a report's per-lesson figures, by slug.
func stats(rep *replay.Report, kinds map[string]lessons.Kind) map[string]Stat {
	out := map[string]Stat{}
	for _, l := range rep.Lessons {
		out[l.Slug] = Stat{Slug: l.Slug, Kind: kinds[l.Slug], Fires: l.Fires, Addressed: l.FiresAddressing, After: l.FiresAfter,
			Blocks: l.Refused + l.Asked, Sessions: l.Sessions, ToolCalls: l.ToolCalls}
	}
	return out
}

// Caught counts the fires on m that address a failure, and of them those
// that came before the failed call rather than with it.
func (m Measured) Caught(kinds map[string]lessons.Kind) (caught, before int) {
	for _, s := range stats(m.Report, kinds) {
		caught += s.Addressed
		before += s.Addressed - s.After
	}
	return caught, before
}

// Pooled sums each lesson's figures over the histories, most fires first.
func Pooled(ms []Measured, kinds map[string]lessons.Kind) []Stat {
	sum := map[string]Stat{}
	for _, m := range ms {
		for slug, s := range stats(m.Report, kinds) {
			p := sum[slug]
			p.Slug, p.Kind = slug, s.Kind
			p.Fires += s.Fires
			p.Addressed += s.Addressed
			p.After += s.After
			p.Blocks += s.Blocks
			p.Sessions += s.Sessions
			p.ToolCalls += s.ToolCalls
			sum[slug] = p
		}
	}
	out := make([]Stat, 0, len(sum))
	for _, s := range sum {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Stat) int { return cmp.Or(cmp.Compare(b.Fires, a.Fires), cmp.Compare(a.Slug, b.Slug)) })
	return out
}

// Ranked returns, from pooled figures, the n most useful lessons (most
// fires before a failure they address, plus asks) and the n noisiest
// (most fires that did neither); a lesson with neither is in no list.
func Ranked(pooled []Stat, n int) (useful, noisy []Stat) {
	worth := func(s Stat) int { return s.Addressed + s.Blocks }
	waste := func(s Stat) int { return s.Fires - worth(s) }
	for _, s := range pooled {
		if worth(s) > 0 {
			useful = append(useful, s)
		}
		if waste(s) > 0 {
			noisy = append(noisy, s)
		}
	}
	slices.SortStableFunc(useful, func(a, b Stat) int { return cmp.Or(cmp.Compare(worth(b), worth(a)), cmp.Compare(a.Slug, b.Slug)) })
	slices.SortStableFunc(noisy, func(a, b Stat) int { return cmp.Or(cmp.Compare(waste(b), waste(a)), cmp.Compare(a.Slug, b.Slug)) })
	return useful[:min(n, len(useful))], noisy[:min(n, len(noisy))]
}

// Check lists what fails the gate, one line each, in a stable order.
func (g Gate) Check(ms []Measured, kinds map[string]lessons.Kind) []string {
	var out []string
	for _, m := range ms {
		if r := m.Report; r.InjectionsPer100 > g.MaxInjectionsPer100 {
			out = append(out, fmt.Sprintf("%s: %.2f built-in injections per 100 calls, over %g", m.History.Name, r.InjectionsPer100, g.MaxInjectionsPer100))
		}
	}
	for _, v := range g.Lessons(ms, kinds) {
		out = append(out, v.Line)
	}
	return out
}

// Verdict is one lesson failing the gate.
type Verdict struct {
	Slug string
	Line string // what fails, in a line that names the lesson
}

// Lessons lists the lessons that fail the gate on ms: the per-lesson half
// of Check, which doctor also applies to subscribed packs.
func (g Gate) Lessons(ms []Measured, kinds map[string]lessons.Kind) []Verdict {
	var out []Verdict
	for _, s := range Pooled(ms, kinds) {
		if s.Kind == lessons.KindPitfall && s.Fires >= g.MinFires && s.Precision() < g.MinPrecision {
			out = append(out, Verdict{s.Slug, fmt.Sprintf("%s: pitfall with %d fires and precision %.2f, under %g", s.Slug, s.Fires, s.Precision(), g.MinPrecision)})
		}
	}
	for _, m := range ms {
		if m.Report.Sessions < g.MinSessions {
			continue
		}
		per := stats(m.Report, kinds)
		for _, l := range m.Report.Lessons {
			s := per[l.Slug]
			share := float64(s.Sessions) / float64(m.Report.Sessions)
			if s.Kind == lessons.KindPitfall && share > g.MaxSessionShare && s.Precision() < g.MinPrecision {
				out = append(out, Verdict{s.Slug, fmt.Sprintf("%s: pitfall %s fires in %.0f%% of sessions with precision %.2f", m.History.Name, s.Slug, 100*share, s.Precision())})
			}
		}
	}
	return out
}

// Kinds maps the slugs of lessons to their effective kind.
func Kinds(rs []scope.Resolved) map[string]lessons.Kind {
	out := make(map[string]lessons.Kind, len(rs))
	for i := range rs {
		out[rs[i].Slug] = rs[i].EffectiveKind()
	}
	return out
}
