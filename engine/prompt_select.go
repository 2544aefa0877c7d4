package engine

import lessons "github.com/lessons-dev/lessons"

// PromptCandidates is the prompt-time selection: the lessons relevant to
// a prompt (see Relevant), best first, without blocking lessons and
// hazards (they act at the call, where the command shows the harm) and
// without those claimed says were already injected in the session. None
// when cfg has prompt-time lessons off.
func (m *Manifest) PromptCandidates(prompt string, cfg lessons.Config, claimed func(slug string) bool) ([]Candidate, error) {
	if !cfg.PromptLessonsOn() {
		return nil, nil
	}
	scored, err := m.Relevant(prompt, cfg.PromptMinScore, 4*promptTopK)
	if err != nil {
		return nil, err
	}
	var cs []Candidate
	for _, s := range scored {
		e, err := m.Entry(s.Index)
		if err != nil {
			return nil, err
		}
		if e.Block || e.Kind == lessons.KindHazard || claimed(e.Slug) {
			continue
		}
		cs = append(cs, Candidate{Entry: e, Trigger: "prompt"})
	}
	return cs, nil
}
