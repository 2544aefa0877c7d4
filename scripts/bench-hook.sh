#!/usr/bin/env bash
# bench-hook.sh times `lessons hook` as a whole process (stdin to stdout)
# on a PreToolUse call against a 1,000-lesson manifest, next to a
# hello-world Go binary timed in the same run, and reports the median,
# p99 and peak RSS. scripts/hooktime execs each binary directly, stdin
# from the payload file, round after round so all see the same noise.
# Targets (issue 3): median <= 2x hello world, p99 <= 10 ms, RSS <= 20 MiB.
# Then the outcome event (issue 9): a PostToolUse for a success with no
# failure on record, next to a PreToolUse that matches no lesson, in the
# same rounds: it must cost no more. And a PostToolUseFailure no lesson's
# error matches (issue 18), which may open the manifest. With
# LESSONS_BENCH_ERRORS=N the manifest also holds N lessons on an error.
#
# Usage: scripts/bench-hook.sh [runs]
set -euo pipefail

runs=${1:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

project=$work/proj
mkdir -p "$project/.lessons"
cache=$work/cache

cd "$root"
go build -trimpath -o "$work/lessons" ./cmd/lessons
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
go build -trimpath -o "$work/hello-world" .)

# The test writes the manifest where the hook will look for it.
XDG_CACHE_HOME=$cache LESSONS_BENCH_PROJECT=$project LESSONS_BENCH_ERRORS=${LESSONS_BENCH_ERRORS:-0} \
	go test ./engine -run '^TestWriteBenchManifest$' -count=1 -v | grep 'wrote' || true
ls "$cache"/lessons/manifests/*.manifest >/dev/null

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
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"tool_response":{"stdout":"%s","stderr":"","interrupted":false},"tool_use_id":"toolu_bench"}' \
	"$project" "$nomatch_cmd" "$(printf 'ok  \\texample.com/app/internal/parse\\t0.%03ds\\n' $(seq 1 40))" >"$post_payload"
fail_payload=$work/fail.json
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"%s"},"error":"Exit code 1\\n--- FAIL: TestParse (0.00s)\\n    parse_test.go:12: got 1, want 2\\nFAIL","tool_use_id":"toolu_bench"}' \
	"$project" "$nomatch_cmd" >"$fail_payload"
"$work/lessons" hook <"$bash_payload" >/dev/null
for p in "$nomatch_payload" "$post_payload" "$fail_payload"; do
	if [ "$("$work/lessons" hook <"$p")" != "{}" ]; then
		echo "$p: the hook had something to say; the comparison needs a call no lesson matches" >&2
		exit 1
	fi
done

hook_log=$XDG_STATE_HOME/lessons/hook.log
go build -o "$work/hooktime" ./scripts/hooktime
"$work/hooktime" -runs "$runs" -input "$bash_payload" \
	hello-world="$work/hello-world" "hook-Bash=$work/lessons hook"
"$work/hooktime" -runs "$runs" -input "$edit_payload" \
	hello-world="$work/hello-world" "hook-Edit=$work/lessons hook" | tail -1
"$work/hooktime" -runs "$runs" -input "$nomatch_payload" \
	hello-world="$work/hello-world" "hook-Pre-nomatch=$work/lessons hook" "hook-Post@$post_payload=$work/lessons hook" \
	"hook-PostFail@$fail_payload=$work/lessons hook" | tail -3
rss() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }
echo "peak RSS (KiB): hello-world $(rss "$work/hello-world" <"$bash_payload")," \
	"hook Bash $(rss "$work/lessons" hook <"$bash_payload"), hook Edit $(rss "$work/lessons" hook <"$edit_payload")," \
	"hook PostToolUse $(rss "$work/lessons" hook <"$post_payload")"
if [ -s "$hook_log" ]; then
	echo "hook.log is not empty:" >&2
	cat "$hook_log" >&2
	exit 1
fi
