package candidates

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scanner"
)

// ReviewOptions are review's dependencies.
type ReviewOptions struct {
	IO       *iostreams.IOStreams
	Promoter func() (*Promoter, error)
}

// NewCmdReview returns the review command; runF replaces reviewRun in
// tests.
func NewCmdReview(f *cmdutil.Factory, runF func(*ReviewOptions) error) *cobra.Command {
	opts := &ReviewOptions{IO: f.IOStreams, Promoter: func() (*Promoter, error) { return NewPromoter(f) }}
	return &cobra.Command{
		Use:   "review",
		Short: "Go through the candidates one at a time",
		Long: `Show each candidate waiting for review with its evidence (what went wrong,
the fix, the trigger and examples it would get, its signals, and where it
was seen), and ask what to do: promote it where the evidence points, to
the global store or to the project, edit it in $EDITOR then promote it,
reject it, skip it, or quit. A promotion passes the checks of lessons add.

When standard input or error is not a terminal, print the list instead,
like lessons candidates.`,
		Example: `  lessons review
  EDITOR="code --wait" lessons review`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return reviewRun(opts)
		},
	}
}

func reviewRun(opts *ReviewOptions) error {
	p, err := opts.Promoter()
	if err != nil {
		return err
	}
	cs, err := p.Store.List(scanner.ListOptions{})
	if err != nil {
		return err
	}
	if !opts.IO.CanPrompt() || len(cs) == 0 {
		return printList(opts.IO, cs, false, nil)
	}
	ask := cmdutil.NewPrompter(opts.IO)
	var promoted, rejected int
	defer func() {
		fmt.Fprintf(opts.IO.ErrOut, "promoted %d, rejected %d, %d left\n", promoted, rejected, len(cs)-promoted-rejected)
	}()
	for i, c := range cs {
		def, project := scanner.DefaultScope(c)
		dflt := "the global store"
		if def == lessons.ScopeProject {
			dflt = project
		}
		fmt.Fprintf(opts.IO.Out, "\n[%d/%d] ", i+1, len(cs))
		describe(opts.IO.Out, c)
		fmt.Fprintf(opts.IO.Out, "Goes to:    %s\n", dflt)
		for done := false; !done; {
			a, err := ask.Ask("[y] promote  [g]lobal  [p]roject  [e]dit  [r]eject  [s]kip  [q]uit", validAnswer)
			if err != nil {
				return err
			}
			done = true
			switch a {
			case "q":
				return nil
			case "", "s":
			case "r":
				if err := p.Store.Reject(c.ID); err != nil {
					return err
				}
				rejected++
			default:
				dest := map[string]Dest{"y": DestDefault, "e": DestDefault, "g": DestGlobal, "p": DestProject}[a]
				pr, err := p.Promote(c, dest, a == "e")
				if err != nil {
					fmt.Fprintf(opts.IO.ErrOut, "%v\n", err)
					var hint *cmdutil.HintError
					if errors.As(err, &hint) {
						fmt.Fprintf(opts.IO.ErrOut, "Try: %s\n", hint.Hint)
					}
					done = false
					continue
				}
				report(opts.IO, pr, true)
				promoted++
			}
		}
	}
	return nil
}

func validAnswer(a string) error {
	if len(a) <= 1 && strings.Contains("ygperqs", a) {
		return nil
	}
	return errors.New("answer y, g, p, e, r, s or q")
}

// describe prints a candidate with its evidence.
func describe(w io.Writer, c scanner.Candidate) {
	w = iostreams.NewEscaper(w)
	fmt.Fprintf(w, "%s  %s  confidence %.2f  priority %d  seen %d× in %d session(s), %d project(s)",
		c.ID, kind(c), c.Confidence, c.Priority, c.Occurrences, len(c.Sessions), len(c.Projects))
	if c.FailedIn > len(c.Sessions) {
		// its failure came back, got past another way or not at all
		fmt.Fprintf(w, "; its failure in %d", c.FailedIn)
	}
	fmt.Fprintln(w)
	field := func(name, value string) {
		for i, line := range strings.Split(strings.TrimSpace(value), "\n") {
			switch {
			case i == 0 && line != "":
				fmt.Fprintf(w, "%-11s %s\n", name+":", line)
			case i > 0:
				fmt.Fprintln(w, strings.TrimRight("            "+line, " "))
			}
		}
	}
	field("Summary", c.Summary)
	field("Problem", c.Problem)
	field("Solution", c.Solution)
	field("Trigger", trigger(c.Triggers))
	field("Example", calls(c.Examples.Match))
	field("Not for", calls(c.Examples.NoMatch))
	field("Signals", signals(c.Signals))
	for i, p := range c.Provenance {
		if i == 3 {
			fmt.Fprintf(w, "            … and %d more\n", c.Occurrences-3)
			break
		}
		name := "Seen in"
		if i > 0 {
			name = ""
		}
		fmt.Fprintf(w, "%-11s %s:%d (%s, session %s, %s)\n", name+":", p.File, p.Line, p.Agent, p.SessionID, p.Project)
	}
}

func trigger(t lessons.Trigger) string {
	var parts []string
	add := func(name string, v []string) {
		if len(v) > 0 {
			parts = append(parts, name+" "+strings.Join(v, ", "))
		}
	}
	add("tools", t.Tools)
	add("commands", t.Commands)
	add("unless", t.Unless)
	add("paths", t.Paths)
	add("content", t.Content)
	return strings.Join(parts, "; ")
}

func calls(cs []lessons.ToolCall) string {
	var out []string
	for _, c := range cs {
		switch {
		case c.IsPlainCommand():
			out = append(out, c.Command)
		default:
			out = append(out, strings.TrimSpace(c.EffectiveTool()+" "+c.Path+" "+c.Command))
		}
	}
	return strings.Join(out, "\n")
}

func signals(s scanner.Signals) string {
	var out []string
	for _, f := range []struct {
		on   bool
		name string
	}{
		{s.SelfReported, "reported by the agent"}, {s.UserCorrection, "user correction"},
		{s.FixConfirmed, "fix confirmed by a retry"}, {s.Retries > 0, fmt.Sprintf("%d retries", s.Retries)},
		{s.Hang, "hang or timeout"}, {s.DataLoss, "data loss"}, {s.Causal, "causal language"},
		{s.Question, "the reason is only a question"}, {s.Feedback, "the reason is feedback, not an instruction"},
		{s.OneOff, "names one task's paths, lines or hashes: held until seen in another session"},
		{s.Broad, "its trigger fires on most calls of the command"},
		{s.Works, "its path worked in later sessions"},
	} {
		if f.on {
			out = append(out, f.name)
		}
	}
	return strings.Join(out, ", ")
}
