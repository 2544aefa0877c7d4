package replay

import (
	"fmt"
	"io"

	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
)

// PromptReport is what prompt-time lessons would have cost: the typed
// prompts replayed (Claude Code's logs tell them from injected text;
// other agents' prompts are not counted), the answers that added lesson
// text at a prompt and the bytes they added, and both per 100 prompts.
// With promptLessons off (the default) none come.
type PromptReport struct {
	Prompts                int     `json:"prompts"`
	PromptInjections       int     `json:"promptInjections"`
	PromptBytes            int64   `json:"promptBytes"`
	PromptInjectionsPer100 float64 `json:"promptInjectionsPer100Prompts"`
	PromptBytesPer100      float64 `json:"promptBytesPer100Prompts"`
}

// promptTally is one session's prompt-time figures.
type promptTally struct {
	prompts, injections int
	bytes               int64
}

// replayPrompts answers the session's prompts that came before call i
// (all that are left when i is past the last call), in order, counts
// what they brought and keeps each as the trace shows it.
func (r *sessionResult) replayPrompts(rs *engine.ReplaySession, s *scanner.LoggedSession, env simEnv, i int) {
	for r.nextPrompt < len(s.Prompts) && (s.Prompts[r.nextPrompt].Before <= i || i >= len(s.Calls)) {
		p := &s.Prompts[r.nextPrompt]
		tp := TracePrompt{Kind: traceKindPrompt, File: s.File, Session: s.ID, Project: s.Project, Agent: s.Agent,
			Index: r.nextPrompt, Line: p.Line, Before: p.Before, Bytes: len(p.Text), Fired: []TraceFire{}}
		r.nextPrompt++
		ans, err := rs.Prompt(i, p.Text)
		if err != nil {
			r.errs = append(r.errs, fmt.Sprintf("%s:%d: %v", s.File, p.Line, err))
		}
		r.promptTally.prompts++
		if len(ans.Fires) > 0 {
			r.promptTally.injections++
			r.promptTally.bytes += int64(ans.Bytes)
			tp.InjectedBytes = ans.Bytes
		}
		for _, f := range ans.Fires {
			tp.Fired = append(tp.Fired, env.fire(&f.Entry, "prompt", ""))
		}
		r.prompts = append(r.prompts, tp)
	}
}

// addPrompts adds a session's prompt figures to the report's.
func (p *PromptReport) addPrompts(t promptTally) {
	p.Prompts += t.prompts
	p.PromptInjections += t.injections
	p.PromptBytes += t.bytes
}

// finishPrompts computes the figures per 100 prompts.
func (p *PromptReport) finishPrompts() {
	if p.Prompts > 0 {
		p.PromptInjectionsPer100 = round2(float64(p.PromptInjections) * 100 / float64(p.Prompts))
		p.PromptBytesPer100 = round2(float64(p.PromptBytes) * 100 / float64(p.Prompts))
	}
}

// printPrompts prints the prompt-time line of the report.
func printPrompts(w io.Writer, p *PromptReport) {
	fmt.Fprintf(w, "prompt-time injections: %d (%.2f per 100 prompts), %d bytes of lesson text (%.0f per 100 prompts), %d prompts\n",
		p.PromptInjections, p.PromptInjectionsPer100, p.PromptBytes, p.PromptBytesPer100, p.Prompts)
}
