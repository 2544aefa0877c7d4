// Package realagents is the end-to-end suite on the real agent CLIs:
// Claude Code, Codex CLI, Gemini CLI and opencode, at the versions pinned
// in versions.txt, each installed by scripts/install-agents.sh and driven
// by a fake model server on 127.0.0.1 that scripts its tool calls. The
// tests assert, from the requests the agent sent that server, what the
// model saw: the protocol at session start, a lesson after its call, a
// refused call's reason, nothing for an unrelated call, each lesson once a
// session, a subagent's own lessons, a resumed session, a project-level
// install, live capture's nudge after a fix, and (Codex) doctor's reading
// of the agent's hook trust against the agent's own.
//
// The suite runs when $LESSONS_REAL_AGENTS names the cache directory the
// install script printed (.ci/run sets it); without it every test skips.
// With $LESSONS_DEBUG set, the hook logs every event it answers to its
// hook.log, which a failing test prints.
package realagents
