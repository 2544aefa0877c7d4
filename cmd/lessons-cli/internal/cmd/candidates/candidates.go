// Package candidates implements `lessons candidates`, `review`, `promote`
// and `reject`: what a scan of session logs proposes, and turning it into
// lessons.
package candidates

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// Options are candidates' flags and dependencies.
type Options struct {
	IO    *iostreams.IOStreams
	Store func() *scanner.Store
	// Config is the configuration that decides which candidates the hook
	// says as reminders; nil marks none.
	Config func() (lessons.Config, error)

	All  bool
	JSON bool
}

// NewCmdCandidates returns the candidates command; runF replaces
// candidatesRun in tests.
func NewCmdCandidates(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Store: func() *scanner.Store { return scanner.OpenStore(f.Dirs().State) },
		Config: func() (lessons.Config, error) {
			cfg, _, err := f.Config()
			return cfg, err
		}}
	cmd := &cobra.Command{
		Use:   "candidates",
		Short: "List the lessons scans of session logs propose",
		Long: `List the candidates lessons scan found in agents' session logs, most
important first: the agent's own #lesson reports, and mistakes found by
heuristics (a failure then a different retry that worked, a user's
correction, a tool call the user rejected with a reason). Rejections whose
reason is only a question or feedback come last. Secrets are redacted.

Without --all, only those waiting for review; promote them with lessons
promote or lessons review, or drop them with lessons reject.

A candidate that comes after its error comes so before anyone reviews
it, in the project it was seen in, as a reminder: a lesson on an error
(kind error or known), and a fix seen in one session (a retry, a
precondition, a wrong path) until another session gets past the same
failure the same way, when it is proposed. A reminder never comes
before a call, and needs only the config's minErrorConfidence (default
0.4). The table marks such a kind with *; lessons reject stops one.`,
		Example: `  lessons candidates
  lessons candidates --all --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return candidatesRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.All, "all", false, "include rejected and promoted candidates")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print every field of each candidate as JSON")
	return cmd
}

func candidatesRun(opts *Options) error {
	cs, err := opts.Store().List(scanner.ListOptions{All: opts.All})
	if err != nil {
		return err
	}
	if opts.JSON {
		if cs == nil {
			cs = []scanner.Candidate{}
		}
		return cmdutil.PrintJSON(opts.IO.Out, cs)
	}
	var reminds func(scanner.Candidate) bool
	if opts.Config != nil {
		if cfg, err := opts.Config(); err == nil {
			reminds = func(c scanner.Candidate) bool { return c.Reminder(cfg) }
		}
	}
	return printList(opts.IO, cs, opts.All, reminds)
}

// printList prints candidates as a table: a header and aligned columns on
// a terminal, tab-separated fields otherwise. A candidate reminds says
// (nil: none) has its kind marked with *, and a note on standard error
// says what the mark means.
func printList(ios *iostreams.IOStreams, cs []scanner.Candidate, status bool, reminds func(scanner.Candidate) bool) error {
	if len(cs) == 0 {
		fmt.Fprintln(ios.ErrOut, "no candidates; lessons scan looks for new ones")
		return nil
	}
	t := ios.NewTable()
	if ios.IsStdoutTTY() {
		header := []string{"ID", "KIND", "CONFIDENCE", "PRIORITY", "SEEN", "SUMMARY"}
		if status {
			header = append(header[:2:2], append([]string{"STATUS"}, header[2:]...)...)
		}
		t.Row(header...)
	}
	marked := 0
	for _, c := range cs {
		k := kind(c)
		if reminds != nil && reminds(c) {
			k += "*"
			marked++
		}
		row := []string{c.ID, k, strconv.FormatFloat(c.Confidence, 'f', 2, 64), strconv.Itoa(c.Priority),
			strconv.Itoa(c.Occurrences), c.Summary}
		if status {
			row = append(row[:2:2], append([]string{string(c.Status)}, row[2:]...)...)
		}
		t.Row(row...)
	}
	if err := t.Flush(); err != nil {
		return err
	}
	if marked > 0 {
		fmt.Fprintf(ios.ErrOut, "* %d the hook already says after the same error, in the project they were seen in, as reminders; lessons reject ID stops one\n", marked)
	}
	return nil
}

// kind is the candidate's kind, marked when its evidence is weak.
func kind(c scanner.Candidate) string {
	switch {
	case c.Signals.Question:
		return c.Kind + "?"
	case c.Signals.Feedback:
		return c.Kind + "~"
	}
	return c.Kind
}

// NewPromoter returns the Promoter of the factory's directories, editing
// in $VISUAL or $EDITOR.
func NewPromoter(f *cmdutil.Factory) (*Promoter, error) {
	cwd, err := f.WorkingDir()
	if err != nil {
		return nil, err
	}
	d := f.Dirs()
	p := &Promoter{
		Dirs: d, Store: scanner.OpenStore(d.State), Cwd: cwd, Now: f.Now,
		MergeAt: func(dir string) scope.Merged { return scope.Merge(d, dir, f.Loader) },
	}
	p.Edit = func(name string, data []byte) ([]byte, error) {
		return cmdutil.RunEditor(f.IOStreams, f.Getenv, name, data)
	}
	return p, nil
}
