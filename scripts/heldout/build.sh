#!/bin/bash
# Rebuild every held-out history named in the label files and rename its
# session files so that the labels join (solve.py).
# usage: build.sh SETS.tsv MIRROR OUT [SET]
#   SETS.tsv from sets.py; MIRROR/OWNER+NAME/repo is a git directory of
#   each repository (a bare snapshot); OUT/SET/NAME is written.
set -u
sets=$1 mirror=$2 out=$3 only=${4:-}
here=$(cd "$(dirname "$0")" && pwd); repo=$(cd "$here/../.." && pwd)
bin=$(mktemp -d)/lessons-cli
(cd "$repo" && go build -o "$bin" ./cmd/lessons-cli) || exit 1
while IFS=$'\t' read -r set name src; do
  [ -n "$only" ] && [ "$set" != "$only" ] && continue
  rev=${src#*@}
  git=$mirror/$(echo "${src%@*}" | tr / +)/repo
  d=$out/$set/$name
  [ -f "$d/.solved" ] && continue
  rm -rf "$d"
  if [[ $rev == refs-* ]]; then s=refs; else s=$(git --git-dir "$git" rev-parse --verify -q "$rev^{commit}") || { echo "$set $name: no commit $rev in $git"; continue; }; fi
  python3 "$here/build.py" "$git" "$s" "$d" "$name" >/dev/null || { echo "$set $name: build failed"; continue; }
  t=$(mktemp); h=$(mktemp -d)
  HOME=$h "$bin" replay --path "$d" --as-project "$name" --trace "$t" >/dev/null 2>&1
  r=$(python3 "$here/solve.py" "$repo/testdata/labelled/$set-repeats.tsv" "$name" "$d" "$t" --apply)
  echo "$set $r" | tr '\n' ' '; echo
  echo "$s $r" > "$d/.solved"
  # a scan reads only what went unmodified for 10 minutes (a session still
  # running): date the files as the sessions left them, before the revision
  when=$( [ "$s" = refs ] && echo '1 day ago' || git --git-dir "$git" log -1 --format=%cI "$s")
  find "$d" -exec touch -h -d "$when" {} +
  rm -rf "$t" "$h"
done < "$sets"
