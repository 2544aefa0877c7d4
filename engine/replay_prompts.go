package engine

// Prompt answers a prompt of the replayed session as the hook does at
// UserPromptSubmit: the same prompt-time selection (see
// PromptCandidates; none with promptLessons off), at most promptTopK
// lessons, the session's claims and the same text, so Bytes is what the
// agent would have read. The fires name call, the index of the next
// call, since the prompt comes before it.
func (s *ReplaySession) Prompt(call int, text string) (Answer, error) {
	cfg := s.r.Config
	cfg.MaxLessonsPerInjection = min(max(cfg.MaxLessonsPerInjection, 1), promptTopK)
	cs, err := s.r.Manifest.PromptCandidates(text, cfg, func(slug string) bool {
		_, claimed := s.claims[slug]
		return claimed
	})
	if err != nil || len(cs) == 0 {
		return Answer{}, err
	}
	saved := s.r.Config
	s.r.Config = cfg
	defer func() { s.r.Config = saved }()
	fires, n, err := s.inject("relevant to this prompt", cs, nil, call)
	return Answer{Fires: fires, Bytes: n}, err
}
