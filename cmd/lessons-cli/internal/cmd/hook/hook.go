// Package hook implements `lessons hook`, the command agents run before
// every tool call. The small lessons binary serves it too, faster; this
// one rebuilds a stale manifest in-process.
package hook

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/engine"
)

// NewCmdHook returns the hook command.
func NewCmdHook(f *cmdutil.Factory) *cobra.Command {
	var platform, event string
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "Answer an agent's hook event (run by the agent, not by people)",
		Long: `Read one hook payload (JSON) on standard input and answer with one JSON
object on standard output: lesson text to add to the agent's context, a
decision to deny or ask about the call, or {} when no lesson applies. On
the events that say how a call ended (PostToolUse, PostToolUseFailure,
AfterTool) it keeps the session's failed shell calls and, when a later
call fixes one or the user rejects a call with a reason, asks the agent
for a #lesson block (see captureNudges). It never fails the agent:
problems go to hook.log in the state directory.`,
		Example: `  echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force"},"cwd":"'$PWD'"}' | lessons hook`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			engine.SetTimeoutCheckPeriod()
			p, unknown := engine.ChoosePlatform(platform, f.Getenv)
			h := &engine.Hook{
				Platform: p,
				Event:    event,
				Getenv:   f.Getenv,
				Now:      f.Now,
				Rebuild: func(dir string) error {
					_, err := cmdutil.Build(f.Dirs(), dir, f.Loader)
					return err
				},
			}
			if unknown != "" {
				// A hook must not break the agent: answer anyway.
				fmt.Fprintf(f.IOStreams.ErrOut, "lessons hook: unknown platform %q (known: %s)\n", unknown, engine.PlatformNames)
			}
			h.Run(f.IOStreams.In, f.IOStreams.Out)
			return nil
		},
	}
	cmd.Flags().StringVar(&platform, "platform", "", "answer in the `agent`'s format: "+engine.PlatformNames+
		" (default: $"+engine.PlatformEnv+", else recognised from the payload)")
	cmd.Flags().StringVar(&event, "event", "", "the hook `event`, for agents whose payload does not name it (Antigravity CLI)")
	return cmd
}
