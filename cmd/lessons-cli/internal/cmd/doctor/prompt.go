package doctor

import (
	lessons "github.com/lessons-dev/lessons"
)

// promptLessonsLine says whether lessons come up at a prompt, and why
// they are off unless asked for: on real prompts they rarely bore on the
// work (README, "Lessons at a prompt").
func promptLessonsLine(cfg lessons.Config, getenv func(string) string) string {
	name := lessons.EnvName("promptLessons")
	set := ""
	if getenv != nil && getenv(name) != "" {
		set = " (" + name + ")"
		if withEnv, err := cfg.ApplyEnv(getenv); err == nil {
			cfg = withEnv
		}
	}
	if cfg.PromptLessonsOn() {
		return "lessons at a prompt: on" + set + "; they come up only when the request names their subject"
	}
	return "lessons at a prompt: off" + set + "; on real prompts few bore on the work (promptLessons: on turns them on)"
}
