package root

import (
	"errors"
	"fmt"
	lessons "github.com/lessons-dev/lessons"
	"testing"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

func TestEveryCommandHasExamples(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	root := NewCmdRoot(&cmdutil.Factory{IOStreams: ios})
	for _, c := range root.Commands() {
		if c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		if c.Example == "" && !c.HasSubCommands() {
			t.Errorf("lessons %s has no --help examples", c.Name())
		}
	}
	for _, name := range []string{"list", "search", "show", "test", "doctor", "build", "scan", "candidates", "stats"} {
		c, _, err := root.Find([]string{name})
		if err != nil || c.Flags().Lookup("json") == nil {
			t.Errorf("lessons %s has no --json flag", name)
		}
	}
}

func TestExitCode(t *testing.T) {
	cases := []struct {
		err  error
		code int
		out  string
	}{
		{nil, 0, ""},
		{cmdutil.ErrSilent, 1, ""},
		{fmt.Errorf("wrapped: %w", cmdutil.ErrSilent), 1, ""},
		{errors.New("it broke"), 1, "Error: it broke\n"},
		{cmdutil.Hintf("lessons init", "no store"), 1, "Error: no store\nTry: lessons init\n"},
		{&cmdutil.ExitError{Code: 2, Err: errors.New("nothing built")}, 2, "Error: nothing built\n"},
		{&cmdutil.ExitError{Code: 2, Err: cmdutil.Hintf("fix it", "nothing built")}, 2, "Error: nothing built\nTry: fix it\n"},
		{&cmdutil.ExitError{Code: 1}, 1, ""},
		// An error may quote a file name, a log or a server's words.
		{errors.New("open evil\x1b]0;pwned\a.yaml: bad"), 1, "Error: open evil\\x1b]0;pwned\\x07.yaml: bad\n"},
	}
	for _, c := range cases {
		ios, _, _, errOut := iostreams.Test()
		if code := exitCode(ios, nil, c.err); code != c.code || errOut.String() != c.out {
			t.Errorf("exitCode(%v) = %d, %q; want %d, %q", c.err, code, errOut, c.code, c.out)
		}
	}
}

func TestVersionNamesStampedCommit(t *testing.T) {
	old := lessons.Commit
	defer func() { lessons.Commit = old }()
	lessons.Commit = "0123456789ab"
	if got, want := version(), lessons.Version+" (commit 0123456789ab)"; got != want {
		t.Errorf("version() = %q, want %q", got, want)
	}
}
