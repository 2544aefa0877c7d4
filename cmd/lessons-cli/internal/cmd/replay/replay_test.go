package replay

import (
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/clitest"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

func TestReplayFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	var got *Options
	run := func(args string) error {
		got = nil
		return clitest.Run(NewCmdReplay(f, func(o *Options) error { got = o; return nil }), args)
	}
	if err := run("--path logs --since 7d --learn=tags --max-noise 0.1 --scope global a b"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Paths, []string{"logs"}) || got.Since.Hours() != 168 || got.Learn != LearnTags ||
		got.MaxNoise != 0.1 || got.Scope != "global" || !slices.Equal(got.Slugs, []string{"a", "b"}) {
		t.Errorf("replay flags = %+v", got)
	}
	if err := run("--learn"); err != nil || got.Learn != LearnAll || got.MaxNoise >= 0 {
		t.Errorf("replay --learn: %v, learn %q, max noise %g (want all, and no gate)", err, got.Learn, got.MaxNoise)
	}
	for args, want := range map[string]string{
		"--learn=everything": "--learn=everything",
		"--max-noise 1.5":    "between 0 and 1",
		"--since yesterday":  "--since yesterday",
	} {
		if err := run(args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("replay %s: %v, want an error naming %q", args, err, want)
		}
	}
}
