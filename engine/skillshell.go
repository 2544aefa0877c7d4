package engine

// Claude Code 2.1.332 sends PreSkillShellCommand before a shell line of a
// skill or slash command (!`cmd`) runs: tool_name (Bash or PowerShell),
// tool_input.command as it will run, tool_use_id, command_name, and the
// usual session fields. It reads hookSpecificOutput.permissionDecision
// ("deny", "ask" and "defer" all keep the line from running; a skill
// cannot wait for an approval) with its reason, and takes no text to
// inject. Older releases skip the event with a logged error.

// skillShellEvent is the event's name, as Claude Code sends it.
const skillShellEvent = "PreSkillShellCommand"

// answerOwn answers PreSkillShellCommand; Claude Code's other events go
// the common way. Codex and opencode, which share the platform, never
// send it.
func (claudePlatform) answerOwn(r *run) (any, bool, error) {
	if r.p.HookEventName != skillShellEvent {
		return nil, false, nil
	}
	out, err := r.skillShellCommand()
	return out, true, err
}

// skillShellCommand refuses, or asks about, a skill's shell line as a
// Bash PreToolUse with the same command would be; the lessons it brings
// up are not claimed, since nothing can carry their text.
func (r *run) skillShellCommand() (any, error) {
	call, m, blocks, _, err := r.matchCall()
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if len(blocks) == 0 {
		return noOutput, nil
	}
	return r.skillShellBlock(blocks, call), nil
}

// skillShellBlock is the refusal of a skill's shell line, named for its
// event.
func (r *run) skillShellBlock(blocks []Candidate, call Call) any {
	out := r.block(blocks, call)
	if o, ok := out.(hookOutput); ok && o.Specific != nil {
		o.Specific.HookEventName = skillShellEvent
	}
	return out
}
