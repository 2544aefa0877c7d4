#!/bin/sh
# The lessons plugin's hook for Claude Code: runs `lessons hook` with the
# arguments it was given when lessons is installed. Without it, the hook
# must not break the session: it answers {}, and at the first session start
# tells the user how to install lessons.
if command -v lessons >/dev/null 2>&1; then
	exec lessons "$@"
fi
payload=$(cat)
case $payload in
*SessionStart*)
	mark="${CLAUDE_PLUGIN_DATA:-${XDG_STATE_HOME:-$HOME/.local/state}/lessons}/install-hint-shown"
	if [ ! -e "$mark" ]; then
		mkdir -p "$(dirname "$mark")" 2>/dev/null && : >"$mark" 2>/dev/null
		printf '%s\n' '{"systemMessage":"The lessons plugin needs the lessons binaries on PATH: brew install lessons-dev/tap/lessons, scoop install lessons, or go install github.com/lessons-dev/lessons/cmd/...@latest (see https://github.com/lessons-dev/lessons#install). Until then it does nothing."}'
		exit 0
	fi
	;;
esac
printf '{}\n'
