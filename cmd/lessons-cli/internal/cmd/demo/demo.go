// Package demo implements `lessons demo`: the hook on the built-in
// lessons, end to end, on a machine with no setup.
package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scope"
)

// Options are demo's flags and dependencies.
type Options struct {
	IO     *iostreams.IOStreams
	Loader scope.Loader

	Commands []string
}

// DefaultCommands are the sample Bash calls the demo feeds the hook: two
// that built-in lessons know, one that nothing applies to.
var DefaultCommands = []string{
	"pytest -s tests/",
	"git push --force origin main",
	"ls -la",
}

// NewCmdDemo returns the demo command; runF replaces demoRun in tests.
func NewCmdDemo(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Loader: f.Loader}
	cmd := &cobra.Command{
		Use:   "demo [COMMAND...]",
		Short: "Show the hook answering sample tool calls with the built-in lessons",
		Long: `Build a manifest of the built-in lessons in a temporary directory, then feed
the hook a PreToolUse payload for each sample Bash command, as Claude Code
would before running it, and print the payload and the hook's answer:
lesson text for the agent, a refusal, or {} when no lesson applies.
Nothing outside the temporary directory is read or written.`,
		Example: `  lessons demo
  lessons demo 'rm -rf "$BUILD_DIR/"' 'npm test -- --watch'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Commands = args
			if len(args) == 0 {
				opts.Commands = DefaultCommands
			}
			if runF != nil {
				return runF(opts)
			}
			return demoRun(opts)
		},
	}
	return cmd
}

func demoRun(opts *Options) error {
	tmp, err := os.MkdirTemp("", "lessons-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	env := map[string]string{
		"HOME":           tmp,
		"LESSONS_HOME":   filepath.Join(tmp, "store"),
		"XDG_CACHE_HOME": filepath.Join(tmp, "cache"),
		"XDG_STATE_HOME": filepath.Join(tmp, "state"),
		"XDG_DATA_HOME":  filepath.Join(tmp, "data"),
	}
	getenv := func(k string) string { return env[k] }
	work := filepath.Join(tmp, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	b, err := cmdutil.Build(scope.DefaultDirs(getenv), work, opts.Loader)
	if err != nil {
		return fmt.Errorf("building the demo manifest: %w", err)
	}
	fmt.Fprintf(opts.IO.Out, "Built a manifest of %d built-in lessons in %s.\n", b.Manifest.Len(), b.Path)
	fmt.Fprintln(opts.IO.Out, "Before each tool call the agent sends the hook a payload; the hook answers with one JSON object.")
	h := &engine.Hook{Getenv: getenv}
	for i, command := range opts.Commands {
		payload, err := json.Marshal(map[string]any{
			"session_id":      "demo-session",
			"cwd":             work,
			"hook_event_name": "PreToolUse",
			"tool_name":       "Bash",
			"tool_input":      map[string]string{"command": command},
			"tool_use_id":     fmt.Sprintf("demo-%d", i+1),
		})
		if err != nil {
			return err
		}
		var answer bytes.Buffer
		h.Run(bytes.NewReader(payload), &answer)
		fmt.Fprintf(opts.IO.Out, "\n$ %s\npayload: %s\nanswer:  %s\n", command, payload, indent(answer.Bytes()))
		fmt.Fprintf(opts.IO.Out, "  → %s\n", explain(answer.Bytes()))
	}
	return nil
}

func indent(data []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, bytes.TrimSpace(data), "         ", "  "); err != nil {
		return string(data)
	}
	return b.String()
}

// explain says in words what the hook's answer does.
func explain(data []byte) string {
	var out struct {
		Specific *struct {
			AdditionalContext  string `json:"additionalContext"`
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	_ = json.Unmarshal(data, &out)
	switch {
	case out.Specific == nil:
		return "no lesson applies: the call runs as usual"
	case out.Specific.PermissionDecision == "deny":
		return "a lesson blocks the call: the agent gets the reason instead"
	case out.Specific.PermissionDecision == "ask":
		return "a lesson asks the human to approve the call"
	}
	return "the agent reads the lesson before the call runs"
}
