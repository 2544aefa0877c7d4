package packcmd

import (
	"fmt"
	"os"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo/pack"
	"github.com/lessons-dev/lessons/scope"
)

// SubmitOptions are submit's flags and dependencies.
type SubmitOptions struct {
	IO     *iostreams.IOStreams
	Env    func() (*env, error)
	Merge  func() (scope.Merged, error)
	Getenv func(string) string

	Slug        string
	Pack        string
	Message     string
	AuthorName  string
	AuthorEmail string
}

// NewCmdSubmit returns `lessons submit`; runF replaces submitRun in tests.
func NewCmdSubmit(f *cmdutil.Factory, runF func(*SubmitOptions) error) *cobra.Command {
	opts := &SubmitOptions{IO: f.IOStreams, Env: func() (*env, error) { return newEnv(f) }, Merge: f.Merge, Getenv: f.Getenv}
	cmd := &cobra.Command{
		Use:   "submit SLUG --pack NAME",
		Short: "Propose a lesson to a team pack as a pull request",
		Long: `Take a lesson from the project or global store and propose it to a
subscribed pack: check that its examples behave as declared and that a sync
would accept it, create branch lesson/<slug> in the pack's cached clone from
the remote's default branch, add lessons/<slug>.yaml in one commit, push the
branch, and print the link that opens the pull request on GitHub, GitLab or
Bitbucket (elsewhere, the branch name).

The author is --author-name/--author-email, else GIT_AUTHOR_NAME and
GIT_AUTHOR_EMAIL, else user.name and user.email from your git config.`,
		Example: `  lessons submit pytest-hangs-waiting-on-a-tty-k3x9 --pack acme
  lessons submit docker-context-too-big-x1y2 --pack acme --message "Add the .dockerignore lesson from the API incident"`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cmdutil.CompleteSlugs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Slug = args[0]
			if opts.Pack == "" {
				return cmdutil.FlagErrorf("--pack is required: the name of a subscribed pack (lessons pack list)")
			}
			if runF != nil {
				return runF(opts)
			}
			return submitRun(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Pack, "pack", "", "the subscribed pack to propose the lesson to")
	cmd.Flags().StringVarP(&opts.Message, "message", "m", "", "commit message (default: \"Add lesson <slug>\")")
	cmd.Flags().StringVar(&opts.AuthorName, "author-name", "", "commit author's name")
	cmd.Flags().StringVar(&opts.AuthorEmail, "author-email", "", "commit author's email")
	_ = cmd.RegisterFlagCompletionFunc("pack", completePacks(f))
	return cmd
}

func submitRun(cmd *cobra.Command, opts *SubmitOptions) error {
	e, err := opts.Env()
	if err != nil {
		return err
	}
	m, err := opts.Merge()
	if err != nil {
		return err
	}
	r, _, err := cmdutil.Find(m, opts.Slug)
	if err != nil {
		return err
	}
	if r.Scope != lessons.ScopeProject && r.Scope != lessons.ScopeGlobal {
		return fmt.Errorf("%s is a %s lesson: only project and global lessons can be submitted", r.Slug, r.Scope.Kind())
	}
	if _, fails := cmdutil.CheckExamples(&r.Lesson); len(fails) > 0 {
		for _, fail := range fails {
			fmt.Fprintf(opts.IO.ErrOut, "%s: %s\n", r.Path, fail)
		}
		return cmdutil.Hintf("lessons edit "+r.Slug+", then lessons test "+r.Slug,
			"%s has examples that fail: not submitting it", r.Slug)
	}
	data, err := os.ReadFile(r.Path)
	if err != nil {
		return err
	}
	configs, err := e.configs()
	if err != nil {
		return err
	}
	subs, _ := pack.Subscriptions(configs...)
	i := slices.IndexFunc(subs, func(s pack.Subscription) bool { return s.Name == opts.Pack })
	if i < 0 {
		return cmdutil.Hintf("lessons pack list, or lessons pack add URL --name "+opts.Pack,
			"no subscribed pack is named %q", opts.Pack)
	}
	author := pack.GitAuthor(opts.Getenv)
	if opts.AuthorName != "" {
		author.Name = opts.AuthorName
	}
	if opts.AuthorEmail != "" {
		author.Email = opts.AuthorEmail
	}
	if author.Name == "" || author.Email == "" {
		return cmdutil.Hintf("git config --global user.name \"Your Name\"; git config --global user.email you@example.com (or --author-name/--author-email)",
			"no commit author: git config has no user.name or user.email")
	}
	out, err := e.syncer.Submit(ctx(cmd), subs[i], pack.Submission{
		Slug: r.Slug, File: data, Message: opts.Message, Author: object.Signature{Name: author.Name, Email: author.Email},
	})
	if err != nil {
		return err
	}
	verb := "add"
	if out.Replaced {
		verb = "update"
	}
	fmt.Fprintf(opts.IO.Out, "pushed %s to %s: one commit to %s lessons/%s.yaml\n", out.Branch, pack.Redact(subs[i].URL), verb, r.Slug)
	if out.PullRequestURL != "" {
		fmt.Fprintf(opts.IO.Out, "open the pull request: %s\n", out.PullRequestURL)
	} else {
		fmt.Fprintf(opts.IO.Out, "open a pull request from branch %s into %s\n", out.Branch, out.Base)
	}
	return nil
}
