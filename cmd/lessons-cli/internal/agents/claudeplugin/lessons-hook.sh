#!/bin/sh
# The lessons plugin's hook for Claude Code: runs `lessons hook` with the
# arguments it was given when lessons is installed. Without it, the hook
# must not break the session: it answers {}, and at the first session start
# tells the user how to install lessons.
#
# The hook decides what the agent may run, so the lessons it runs is the
# one beside this script, else the first in a directory of PATH that is
# absolute and outside the project: never ., an empty or a relative entry,
# nor the project's own bin directories (node_modules/.bin, a venv), where
# a file named lessons could become the hook and allow anything.
lessons=
here=${0%/*}
case $here in
/*) [ -f "$here/lessons" ] && [ -x "$here/lessons" ] && lessons=$here/lessons ;;
esac
if [ -z "$lessons" ]; then
	project=${CLAUDE_PROJECT_DIR:-$PWD}
	set -f
	saved_ifs=$IFS
	IFS=:
	for dir in $PATH; do
		case $dir in
		/*) ;;
		*) continue ;;
		esac
		inside=
		for root in "$project" "$PWD"; do
			# / or a home directory as the project would leave no directory
			# to run from, and gives nothing: the agent can write there anyway.
			case $root in / | "$HOME" | "$HOME"/) continue ;; esac
			case $dir/ in "$root"/*) inside=1 ;; esac
		done
		[ -n "$inside" ] && continue
		if [ -f "$dir/lessons" ] && [ -x "$dir/lessons" ]; then
			lessons=$dir/lessons
			break
		fi
	done
	IFS=$saved_ifs
	set +f
fi
if [ -n "$lessons" ]; then
	exec "$lessons" "$@"
fi
payload=$(cat)
case $payload in
*SessionStart*)
	mark="${CLAUDE_PLUGIN_DATA:-${XDG_STATE_HOME:-$HOME/.local/state}/lessons}/install-hint-shown"
	if [ ! -e "$mark" ]; then
		mkdir -p "$(dirname "$mark")" 2>/dev/null && : >"$mark" 2>/dev/null
		printf '%s\n' '{"systemMessage":"The lessons plugin needs the lessons binaries in an absolute directory of PATH outside the project (it never runs a lessons found through ., an empty or a relative PATH entry, or inside the project): brew install lessons-dev/tap/lessons, scoop install lessons, or go install github.com/lessons-dev/lessons/cmd/...@latest (see https://github.com/lessons-dev/lessons#install). Until then it does nothing."}'
		exit 0
	fi
	;;
esac
printf '{}\n'
