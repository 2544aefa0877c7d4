#!/bin/bash
# Evaluate a lessons-cli binary on the rebuilt held-out sets.
# usage: eval.sh BIN SETS_DIR OUT [SET...]
#   per history: replay --learn --trace (OUT/SET/NAME.trace) and a full
#   scan's candidates (OUT/SET/NAME.cands.json), each with an empty HOME;
#   then score.py prints one line per set.
set -u
BIN=$1 SETS_DIR=$2 OUT=$3; shift 3
SETS=${*:-$(ls "$SETS_DIR")}
here=$(cd "$(dirname "$0")" && pwd)
# scan leaves alone what changed in the last 10 minutes (a running session):
# a history written just now would lose its candidates on errors
if [ -n "$(find "$SETS_DIR" -type f -mmin -11 -print -quit)" ]; then
  echo "eval.sh: files under $SETS_DIR changed in the last 10 minutes; scan would skip them (touch them older)" >&2; exit 1
fi
run() { # set name
  local d=$SETS_DIR/$1/$2 o=$OUT/$1 h
  mkdir -p "$o"
  h=$(mktemp -d); HOME=$h "$BIN" replay --learn --path "$d" --as-project "$2" --trace "$o/$2.trace" >/dev/null 2>&1; rm -rf "$h"
  h=$(mktemp -d); HOME=$h "$BIN" scan --full --path "$d" >/dev/null 2>&1
  HOME=$h "$BIN" candidates --json --all > "$o/$2.cands.json" 2>/dev/null; rm -rf "$h"
}
export -f run; export BIN SETS_DIR OUT
for s in $SETS; do for n in $(ls "$SETS_DIR/$s"); do echo "$s $n"; done; done | xargs -P 2 -n 2 bash -c 'run "$0" "$1"'
python3 "$here/score.py" "$OUT" $SETS
