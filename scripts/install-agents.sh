#!/usr/bin/env bash
# Installs the agent CLIs pinned in cmd/lessons-cli/internal/agents/realagents/versions.txt
# with npm, each into its own directory of the cache, reused when present:
#   ${LESSONS_AGENTS_CACHE:-$HOME/.cache/lessons-agents}/<package with / as +>@<version>
# Prints the cache directory and exits 0 when every agent is there; exits 3
# when npm or its registry cannot be reached, 1 on any other failure.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${LESSONS_AGENTS_CACHE:-$HOME/.cache/lessons-agents}
versions=cmd/lessons-cli/internal/agents/realagents/versions.txt
command -v npm >/dev/null 2>&1 || { echo "npm is not installed" >&2; exit 3; }
mkdir -p "$cache"
# unreachable ends a failed install: with 3 when the registry is gone
# (the suite is skipped), else 1.
unreachable() {
	timeout 30 npm ping >/dev/null 2>&1 || { echo "the npm registry cannot be reached" >&2; exit 3; }
	exit 1
}
missing=()
while read -r spec; do
	case $spec in '' | '#'*) continue ;; esac
	dir="$cache/${spec//\//+}"
	[ -f "$dir/.installed" ] || missing+=("$spec")
done <"$versions"
if [ ${#missing[@]} -gt 0 ]; then
	if ! timeout 30 npm ping >/dev/null 2>&1; then
		echo "the npm registry cannot be reached" >&2
		exit 3
	fi
	for spec in "${missing[@]}"; do
		dir="$cache/${spec//\//+}"
		rm -rf "$dir" && mkdir -p "$dir"
		echo "installing $spec into $dir" >&2
		if ! timeout 600 npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$spec" >&2; then
			echo "npm install $spec failed" >&2
			unreachable
		fi
		# opencode installs its plugin API package into every config
		# directory at start, from the registry; the suite seeds the
		# directories from here instead.
		if [ "${spec%@*}" = opencode-ai ]; then
			if ! timeout 600 npm install --prefix "$dir/config-seed" --save-exact --no-audit --no-fund --loglevel=error \
				"@opencode-ai/plugin@${spec##*@}" >&2; then
				echo "npm install @opencode-ai/plugin@${spec##*@} failed" >&2
				unreachable
			fi
		fi
		touch "$dir/.installed"
	done
fi
echo "$cache"
