// Package add implements `lessons add`.
package add

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"time"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/replay"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// Options are add's flags and dependencies.
type Options struct {
	IO         *iostreams.IOStreams
	Dirs       scope.Dirs
	WorkingDir func() (string, error)
	Merge      func() (scope.Merged, error)
	Now        func() time.Time
	// Replay replays a new lesson over the last week's logs and returns
	// a warning when it would be noisy, or "" (replay.Preview).
	Replay func(lessons.Lesson, lessons.Config) string

	Fields   Fields
	File     string
	Project  bool
	Global   bool
	Force    bool
	JSON     bool
	NoReplay bool
}

// Fields are the lesson's fields given as flags.
type Fields struct {
	Summary, Problem, Solution, Injection   string
	Tools, Commands, Unless, Paths, Content []string
	Errors, Keywords, Tags                  []string
	Priority                                int
	Confidence                              float64
	Block                                   bool
	BlockReason, Decision                   string
	Match, NoMatch                          []string
	// ExampleError is what a failed call printed: the error of every
	// example that gives none, or a match example of its own.
	ExampleError string
	SessionStart bool
}

// NewCmdAdd returns the add command; runF replaces addRun in tests.
func NewCmdAdd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, WorkingDir: f.WorkingDir, Merge: f.Merge, Now: f.Now,
		Replay: func(l lessons.Lesson, cfg lessons.Config) string {
			return replay.Preview(context.Background(), l, cfg, f.Getenv)
		}}
	cmd := &cobra.Command{
		Use:   "add",
		Short: "Add a lesson",
		Long: `Add a lesson from flags, from a file (--file), or by answering prompts for
what the flags leave out when standard input is a terminal. It goes to the
project's .lessons when the current directory is inside a project that has
one, else to the global store (one git commit); --project and --global
choose. Print the new lesson's slug.

Nothing is written when the lesson is invalid (a regex that does not
compile, a field too short, a template placeholder, a summary ending in
"..."), when its examples do not behave as declared, or when it repeats a
lesson that exists (the same content, or half its words or more; --force
adds it anyway).

When session logs of the last 7 days are there, the new trigger is
replayed over them (for at most 2 seconds; --no-replay skips it) and a
warning gives the figures when it would have fired more often before
calls that went fine than before failures.

--match and --no-match take a Bash command, or a JSON object with tool,
command, path, content and error for other tools.

--error makes a lesson on the error itself: it comes right after a failed
call whose output its regex finds (and whose command, paths or content
match the other triggers given), never before a call. --example-error
gives what such a call printed: it becomes the error of every --match and
--no-match example that has none, or, with no --match, a match example of
its own, so that the regex is checked on real output before it is written.`,
		Example: `  lessons add \
    --summary "git push --force overwrites teammates' commits; use --force-with-lease" \
    --problem "A plain --force push replaces the remote branch and drops commits pushed meanwhile." \
    --solution "Use git push --force-with-lease, which refuses when the remote moved." \
    --command '\bgit\s+push\b.*(--force|\s-f\b)' --unless 'force-with-lease' \
    --match 'git push --force origin main' --no-match 'git push --force-with-lease' \
    --tag tool:git --priority 8
  lessons add \
    --summary "No module named X: the virtualenv is not active; run through uv run" \
    --problem "The system python has none of the project's dependencies installed." \
    --solution "Run the command through uv run (or activate .venv) instead of bare python." \
    --error "ModuleNotFoundError: No module named" --command '^python3?\s' \
    --match 'python app.py' --example-error "ModuleNotFoundError: No module named 'yaml'"
  lessons add --file lesson.yaml --global
  lessons add   # prompts for each field`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dirs = f.Dirs()
			if opts.File != "" && cmd.Flags().NFlag() > countSet(cmd, "file", "project", "global", "force", "json") {
				return cmdutil.FlagErrorf("--file cannot be combined with lesson fields: put them in the file")
			}
			if runF != nil {
				return runF(opts)
			}
			return addRun(opts)
		},
	}
	fl, v := cmd.Flags(), &opts.Fields
	fl.StringVar(&v.Summary, "summary", "", "one line saying the whole lesson (20-120 characters)")
	fl.StringVar(&v.Problem, "problem", "", "what went wrong and why")
	fl.StringVar(&v.Solution, "solution", "", "what to do instead")
	fl.StringVar(&v.Injection, "injection", "", "text given to the agent instead of summary, problem and fix")
	fl.StringArrayVar(&v.Tools, "tool", nil, "tool the lesson applies to (Bash, Edit, mcp__github__*, …); repeatable")
	fl.StringArrayVar(&v.Commands, "command", nil, "regex (ECMAScript) on the shell command; repeatable")
	fl.StringArrayVar(&v.Unless, "unless", nil, "regex on the command or written text that vetoes the lesson; repeatable")
	fl.StringArrayVar(&v.Paths, "path", nil, "glob on the file path (** spans directories); repeatable")
	fl.StringArrayVar(&v.Content, "content", nil, "regex on the text an Edit or Write writes; repeatable")
	fl.StringArrayVar(&v.Errors, "error", nil, "regex on what a failed call printed: the lesson comes after such a failure, never before a call; repeatable")
	fl.StringVar(&v.ExampleError, "example-error", "", "what a failed call printed: the error of the --match and --no-match examples")
	fl.StringArrayVar(&v.Keywords, "keyword", nil, "word that makes the lesson relevant to a prompt; repeatable")
	fl.StringArrayVar(&v.Tags, "tag", nil, "category:value tag (lang:python, tool:git, …); repeatable")
	fl.IntVar(&v.Priority, "priority", 0, "importance from 1 to 10 (default 5)")
	fl.Float64Var(&v.Confidence, "confidence", 0, "certainty from 0 to 1 (default 1)")
	fl.BoolVar(&v.Block, "block", false, "refuse the matching tool call (needs --block-reason)")
	fl.StringVar(&v.BlockReason, "block-reason", "", "why the call is refused; {command} is replaced by the command")
	fl.StringVar(&v.Decision, "decision", "", "what a blocking lesson does: deny (default) or ask")
	fl.StringArrayVar(&v.Match, "match", nil, "example call the lesson must match; repeatable")
	fl.StringArrayVar(&v.NoMatch, "no-match", nil, "example call the lesson must not match; repeatable")
	fl.BoolVar(&v.SessionStart, "session-start", false, "inject the lesson when a session starts")
	fl.StringVar(&opts.File, "file", "", "read the lesson from a YAML `file`")
	fl.BoolVar(&opts.Project, "project", false, "add to the project's .lessons")
	fl.BoolVar(&opts.Global, "global", false, "add to the global store")
	fl.BoolVar(&opts.Force, "force", false, "add even when a lesson says the same thing")
	fl.BoolVar(&opts.JSON, "json", false, "print the new lesson's id, slug, scope and path as JSON")
	fl.BoolVar(&opts.NoReplay, "no-replay", false, "do not replay the new trigger over the last 7 days of session logs")
	_ = cmd.RegisterFlagCompletionFunc("tool", cobra.FixedCompletions(lessons.CanonicalTools, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("decision", cobra.FixedCompletions([]string{"deny", "ask"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.MarkFlagFilename("file", "yaml", "yml")
	return cmd
}

// countSet counts how many of the named flags were set.
func countSet(cmd *cobra.Command, names ...string) int {
	n := 0
	for _, name := range names {
		if cmd.Flags().Changed(name) {
			n++
		}
	}
	return n
}

// Added is add's JSON output.
type Added struct {
	ID    string `json:"id"`
	Slug  string `json:"slug"`
	Scope string `json:"scope"`
	Path  string `json:"path"`
}

func addRun(opts *Options) error {
	cwd, err := opts.WorkingDir()
	if err != nil {
		return err
	}
	target, err := cmdutil.ChooseTarget(opts.Dirs, cwd, opts.Project, opts.Global)
	if err != nil {
		return err
	}
	l, err := opts.lesson()
	if err != nil {
		return err
	}
	cmdutil.CompleteLesson(l, opts.Now())
	warnings, err := check(l, opts.File)
	for _, w := range warnings {
		fmt.Fprintf(opts.IO.ErrOut, "warning: %s\n", w)
	}
	if err != nil {
		return err
	}
	m, err := opts.Merge()
	if err != nil {
		return err
	}
	notes, err := cmdutil.CheckNew(l, m, opts.Force)
	if err != nil {
		return err
	}
	path, err := target.Create(l, "add "+l.Slug+": "+l.Summary)
	if err != nil {
		return err
	}
	if opts.JSON {
		printNotes(opts.IO, notes)
		opts.warnNoisy(l, m.Config)
		return cmdutil.PrintJSON(opts.IO.Out, Added{ID: l.ID, Slug: l.Slug, Scope: string(target.Scope), Path: path})
	}
	fmt.Fprintln(opts.IO.Out, l.Slug)
	fmt.Fprintf(opts.IO.ErrOut, "added %s to %s\n", path, target.Where())
	printNotes(opts.IO, notes)
	opts.warnNoisy(l, m.Config)
	return nil
}

// printNotes prints CheckNew's notes on the error output.
func printNotes(ios *iostreams.IOStreams, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(ios.ErrOut, "note: %s\n", iostreams.EscapeLine(n))
	}
}

// warnNoisy warns when the new lesson would have fired more often
// before calls that went fine than before failures in the last week.
func (opts *Options) warnNoisy(l *lessons.Lesson, cfg lessons.Config) {
	if opts.NoReplay || opts.Replay == nil {
		return
	}
	if w := opts.Replay(*l, cfg); w != "" {
		fmt.Fprintf(opts.IO.ErrOut, "warning: %s\n", iostreams.EscapeLine(w))
	}
}

// lesson reads the lesson from the file, or from the flags and prompts.
func (opts *Options) lesson() (*lessons.Lesson, error) {
	if opts.File == "" {
		return opts.fromFlags()
	}
	data, err := os.ReadFile(opts.File)
	if err != nil {
		return nil, err
	}
	data, drafted := draft(data)
	l, err := repo.ParseLesson(opts.File, data)
	if err != nil {
		return nil, cmdutil.WithHint(err, "fix the file and run lessons add --file again; nothing was written")
	}
	if drafted {
		l.Slug = ""
	}
	return l, nil
}

// topKey finds a top-level key in a YAML file.
var topKey = regexp.MustCompile(`(?m)^(id|slug)\s*:`)

// draft lets a hand-written file leave out its id and slug: it appends a
// new id, and a stand-in slug that complete replaces (reporting true), at
// the end, so the lines of what the user wrote keep their numbers.
func draft(data []byte) ([]byte, bool) {
	has := map[string]bool{}
	for _, m := range topKey.FindAllSubmatch(data, -1) {
		has[string(m[1])] = true
	}
	out := bytes.TrimRight(data, "\n")
	if !has["id"] {
		out = append(out, "\nid: "+repo.NewID(time.Now())...)
	}
	if !has["slug"] {
		out = append(out, "\nslug: drafted"...)
	}
	return append(out, '\n'), !has["slug"]
}
