package engine

import (
	"slices"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// Replayed prompts bring what the hook brings, with the same bytes and
// once-per-session claims, with promptLessons on; nothing with it off.
func TestReplayPromptsMatchHook(t *testing.T) {
	rs := builtinsForTest(t)
	prompts := []string{
		"start the dev server",
		"start the dev server again", // claimed: nothing the second time
		"why does argparse say invalid choice when I put a nargs='*' positional before the subparsers?",
		"the docker build is slow, shrink the build context",
		"Implement the following plan:\n\n# Plan: run npm audit fix --force",
		"commit",
	}
	for _, on := range []string{"on", "off"} {
		send := builtinHookText(t, rs, map[string]string{"LESSONS_PROMPT_LESSONS": on})
		cfg := lessons.DefaultConfig()
		cfg.PromptLessons = on
		m, err := Compile(scope.Merged{Config: cfg, Active: rs}, scope.Stamp{})
		if err != nil {
			t.Fatal(err)
		}
		rp := &Replay{Manifest: m, Config: m.Config}
		sess := rp.Session()
		for i, p := range prompts {
			hookSlugs, text := send("replay-"+on, p)
			ans, err := sess.Prompt(i, p)
			if err != nil {
				t.Fatal(err)
			}
			var slugs []string
			for _, f := range ans.Fires {
				slugs = append(slugs, f.Slug)
			}
			if !slices.Equal(slugs, hookSlugs) || ans.Bytes != len(text) {
				t.Errorf("promptLessons %s, prompt %q: replay %v (%d bytes), hook %v (%d bytes)", on, p, slugs, ans.Bytes, hookSlugs, len(text))
			}
			if on == "off" && len(slugs) > 0 {
				t.Errorf("promptLessons off, prompt %q brought %v", p, slugs)
			}
		}
	}
}
