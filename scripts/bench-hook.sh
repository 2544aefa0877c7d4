#!/usr/bin/env bash
# bench-hook.sh times `lessons hook` as a whole process (stdin to stdout)
# on a PreToolUse call against a 1,000-lesson manifest, next to a
# hello-world Go binary timed in the same run, and reports the median,
# p99 and peak RSS. scripts/hooktime execs each binary directly, stdin
# from the payload file, round after round so all see the same noise.
# Targets: median <= 1.5x hello world (issue 3 began at 2x), p99 <= 10 ms,
# RSS <= 20 MiB.
# Then the outcome event (issue 9): a PostToolUse for a success with no
# failure on record, next to a PreToolUse that matches no lesson, in the
# same rounds: it must cost no more. And a PostToolUseFailure no lesson's
# error matches (issue 18), which may open the manifest. With
# LESSONS_BENCH_ERRORS=N the manifest also holds N lessons on an error.
# The PostToolUse runs in a session of its own, with no failure on
# record; the failure in another, followed in each round by the same
# command's success (hook-PostFix), which reads and removes its record,
# so that every failure is its family's first.
# Both binaries are built with the release's flags (.goreleaser.yaml:
# -trimpath, -s -w); `go install` users get the symbol tables too, about
# 0.1 ms more a call (set LESSONS_BENCH_LDFLAGS= to time that build).
# Each binary is timed as installed, not as the linker left it: the Go
# linker writes its output through a shared mapping, and while those
# pages stay in the page cache every exec of the file runs about 0.3 ms
# slower (1,000 lessons, a 3.7 MB binary; 0.1 ms for hello world) than a
# copy written with write(2), as tar, a package manager or go install's
# copy across file systems write it. install_copy replaces each built
# binary by such a copy. LESSONS_BENCH_LINKED=1 times the linker's files.
# LESSONS_BENCH_BASE=REV (a commit, branch or tag) times that revision's
# hook too, built with the same flags from `git archive`, on a manifest
# its own code writes (a project of its own, so the two formats may
# differ), in the same rounds, each of its rows (base-…) after the
# checkout's: a before and after taken at one moment of a shared machine.
#
# Usage: scripts/bench-hook.sh [runs]
set -euo pipefail

runs=${1:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
shm=$(mktemp -d -p /dev/shm 2>/dev/null) && [ "$(stat -f -c %T "$shm")" = tmpfs ] || shm=
trap '[ -n "${KEEP:-}" ] || rm -rf "$work" ${shm:+"$shm"}' EXIT

project=$work/proj
mkdir -p "$project/.lessons"
cache=$work/cache

ldflags=${LESSONS_BENCH_LDFLAGS--s -w}
# install_copy FILE: replace FILE by a copy written with write(2) (see above).
install_copy() {
	[ -z "${LESSONS_BENCH_LINKED:-}" ] || return 0
	cat "$1" >"$1.copy" && chmod 755 "$1.copy" && mv "$1.copy" "$1"
}
cd "$root"
go build -trimpath -ldflags="$ldflags" -o "$work/lessons" ./cmd/lessons
install_copy "$work/lessons"
mkdir -p "$work/hello"
cat >"$work/hello/main.go" <<'GO'
package main

import "os"

func main() { os.Stdout.WriteString("{}\n") }
GO
(cd "$work/hello" && cat >go.mod <<'MOD'
module hello

go 1.26
MOD
go build -trimpath -ldflags="$ldflags" -o "$work/hello-world" .)
install_copy "$work/hello-world"

# The test writes the manifest where the hook will look for it.
XDG_CACHE_HOME=$cache LESSONS_BENCH_PROJECT=$project LESSONS_BENCH_ERRORS=${LESSONS_BENCH_ERRORS:-0} \
	go test ./engine -run '^TestWriteBenchManifest$' -count=1 -v | grep 'wrote' || true
ls "$cache"/lessons/manifests/*.manifest >/dev/null
base=${LESSONS_BENCH_BASE:-}
if [ -n "$base" ]; then
	mkdir -p "$work/base-src" "$work/proj-base/.lessons"
	git archive "$base" | tar -x -C "$work/base-src"
	(cd "$work/base-src" && go build -trimpath -ldflags="$ldflags" -o "$work/lessons-base" ./cmd/lessons &&
		XDG_CACHE_HOME=$cache LESSONS_BENCH_PROJECT=$work/proj-base LESSONS_BENCH_ERRORS=${LESSONS_BENCH_ERRORS:-0} \
			go test ./engine -run '^TestWriteBenchManifest$' -count=1 >/dev/null)
	install_copy "$work/lessons-base"
fi

# From here on the hook sees only the temporary directories.
export HOME=$work XDG_CACHE_HOME=$cache XDG_STATE_HOME=$work/state XDG_DATA_HOME=$work/data
export LESSONS_CLI=$work/no-lessons-cli # never rebuild: the manifest is fresh

bash_payload=$work/bash.json
edit_payload=$work/edit.json
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin feature-branch && npm run build -- --watch=false"}}' "$project" >"$bash_payload"
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"%s/src/api/handlers.py","old_string":"x","new_string":"result = await client.fetch(url)\\nmock.patch(\\"app.db\\")\\n"}}' "$project" "$project" >"$edit_payload"
nomatch_payload=$work/nomatch.json
post_payload=$work/post.json
nomatch_cmd='go test ./internal/... -run TestParse -count 1'
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' "$project" "$nomatch_cmd" >"$nomatch_payload"
post_out=$(printf 'ok  \\texample.com/app/internal/parse\\t0.%03ds\\n' $(seq 1 40))
printf '{"session_id":"bench-post","cwd":"%s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"tool_response":{"stdout":"%s","stderr":"","interrupted":false},"tool_use_id":"toolu_bench"}' \
	"$project" "$nomatch_cmd" "$post_out" >"$post_payload"
fix_payload=$work/fix.json
printf '{"session_id":"bench-fail","cwd":"%s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"tool_response":{"stdout":"%s","stderr":"","interrupted":false},"tool_use_id":"toolu_bench"}' \
	"$project" "$nomatch_cmd" "$post_out" >"$fix_payload"
fail_payload=$work/fail.json
printf '{"session_id":"bench-fail","cwd":"%s","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"%s"},"error":"Exit code 1\\n--- FAIL: TestParse (0.00s)\\n    parse_test.go:12: got 1, want 2\\nFAIL","tool_use_id":"toolu_bench"}' \
	"$project" "$nomatch_cmd" >"$fail_payload"
"$work/lessons" hook <"$bash_payload" >/dev/null
for p in "$nomatch_payload" "$post_payload" "$fail_payload" "$fix_payload"; do
	if [ "$("$work/lessons" hook <"$p")" != "{}" ]; then
		echo "$p: the hook had something to say; the comparison needs a call no lesson matches" >&2
		exit 1
	fi
done

hook_log=$XDG_STATE_HOME/lessons/hook.log
go build -o "$work/hooktime" ./scripts/hooktime
# hooks FILE NAME[@FILE]...: a hooktime argument per row, the base
# revision's after each, fed the same payload naming its own project.
hooks() {
	local input=$1 name file
	shift
	for name; do
		echo "$name=$work/lessons hook"
		[ -n "$base" ] || continue
		file=$input
		case $name in *@*) file=${name#*@} name=${name%%@*} ;; esac
		sed "s#$project#$work/proj-base#g; s#\"session_id\":\"bench#\"session_id\":\"base#" "$file" >"$file.base"
		echo "base-$name@$file.base=$work/lessons-base hook"
	done
}
# timed FILE NAME[@FILE]...: hello world and the rows, in rounds; the
# header and hello world's row are printed once.
first=1
timed() {
	mapfile -t rows < <(hooks "$@")
	local input=$1
	"$work/hooktime" -runs "$runs" -input "$input" hello-world="$work/hello-world" "${rows[@]}" |
		if [ "$first" = 1 ]; then cat; else tail -n +3; fi
	first=0
}
timed "$bash_payload" hook-Bash
timed "$edit_payload" hook-Edit
timed "$nomatch_payload" hook-Pre-nomatch "hook-Post@$post_payload" "hook-PostFail@$fail_payload" "hook-PostFix@$fix_payload"
# The prompt path (issue 22) on a 4 KB bug report: a request, then a
# traceback, a code block and an environment section, with prompt-time
# lessons on so the hook reads, strips and scores it.
prompt_payload=$work/prompt.json
{
	printf '{"session_id":"bench-prompt","cwd":"%s","hook_event_name":"UserPromptSubmit","prompt":"' "$project"
	printf 'the docker build is slow and pytest hangs in CI, can you shrink the build context?\\n\\n## Traceback\\n'
	for i in $(seq 1 40); do printf '  File /app/src/module%d.py, line %d, in handler: raise RuntimeError(npm install failed)\\n' "$i" "$i"; done
	printf '\\n## Environment\\n'
	for i in $(seq 1 12); do printf 'package-%d==1.%d.0 pip freeze git stash kubectl apply\\n' "$i" "$i"; done
	printf '"}'
} >"$prompt_payload"
LESSONS_PROMPT_LESSONS=on timed "$prompt_payload" hook-Prompt-4KB
# The failure row above times the file system as much as the hook: each
# round creates the failure's record and removes it, and a thousand
# rounds of that in one directory make ext4 search past its recently
# freed inodes on every create (perf: find_inode_bit, recently_deleted),
# which an agent's pace does not. Two rows tell the two apart: the same
# calls with the session state on tmpfs (no inode search, though a
# create there has costs of its own; an agent's state is on the user's
# disk), and on disk paced as calls come,
# 0.3 s apart, 60 rounds (a noisier median, each process colder; its p99
# is the slowest call).
failrows() { # failrows PREFIX [VAR=VALUE]: the failure and its fix, and the base's
	local prefix=$1 set=${2:-} sep=
	[ -z "$set" ] || sep=' '
	echo "hook-PostFail$prefix@$fail_payload=$set$sep$work/lessons hook"
	echo "hook-PostFix$prefix@$fix_payload=$set$sep$work/lessons hook"
	[ -n "$base" ] || return 0
	echo "base-hook-PostFail$prefix@$fail_payload.base=$set$sep$work/lessons-base hook"
	echo "base-hook-PostFix$prefix@$fix_payload.base=$set$sep$work/lessons-base hook"
}
if [ -n "$shm" ]; then
	mapfile -t rows < <(failrows -tmpfs "XDG_STATE_HOME=$shm/state")
	"$work/hooktime" -runs "$runs" -input "$nomatch_payload" hello-world="$work/hello-world" "${rows[@]}" | tail -n +3
else
	echo "no tmpfs at /dev/shm: the failure's tmpfs rows are left out"
fi
mapfile -t rows < <(failrows -paced)
"$work/hooktime" -pace 300ms -warmup 2 -runs 60 -input "$nomatch_payload" hello-world-paced="$work/hello-world" "${rows[@]}" | tail -n +2
rss() { /usr/bin/time -f '%M KiB, %R faults' "$@" 2>&1 >/dev/null | tail -1; }
echo "peak RSS, minor page faults: hello-world $(rss "$work/hello-world" <"$bash_payload")," \
	"hook Bash $(rss "$work/lessons" hook <"$bash_payload"), hook Edit $(rss "$work/lessons" hook <"$edit_payload")," \
	"hook PostToolUse $(rss "$work/lessons" hook <"$post_payload"), hook PostToolUseFailure $(rss "$work/lessons" hook <"$fail_payload")"
if [ -s "$hook_log" ]; then
	echo "hook.log is not empty:" >&2
	cat "$hook_log" >&2
	exit 1
fi
