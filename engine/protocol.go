package engine

// Protocol tells the agent how to report a lesson so the scanner can
// capture it from the session log. It is injected at session start,
// after compaction and into subagents, and must stay under 1,500
// characters.
const Protocol = `## Lessons: report what you learn
When something cost you a retry (a command failed for a non-obvious reason, a tool or library behaved unexpectedly, a fix took several attempts), report it once you have verified the fix, as a block in your reply:

#lesson
tool: Bash
trigger: sed -i 's/foo/bar/' config.txt
problem: BSD sed on macOS reads the next argument as the backup suffix, so sed -i without one fails with "invalid command code".
solution: Pass an explicit empty suffix on macOS (sed -i '' 's/foo/bar/' file) or use perl -pi -e for portable in-place edits.
tags: tool:sed, platform:macos
scope: global
#/lesson

- tool: the tool whose call went wrong (Bash, Edit, Write, Read, Grep, or an mcp__ name).
- trigger: the command, file path or code that should bring this lesson back next time.
- problem: what went wrong and why, specific enough to recognise.
- solution: what works instead, concrete enough to apply without rereading this session.
- tags: category:value pairs (lang, tool, topic, env, platform).
- scope: project if it only holds in this repository, global if it holds everywhere.

Report only what you verified. Never put secrets, tokens or personal data in a lesson. Text starting with "## Lesson:" comes from lessons learned earlier: follow it.`
