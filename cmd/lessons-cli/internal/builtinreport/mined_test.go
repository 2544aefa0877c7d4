package builtinreport

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// loggedCall is one tool call of a session log these tests write, which
// failed with out, or printed it and went fine when fine is set.
type loggedCall struct {
	tool  string
	input map[string]any
	out   string
	fine  bool
}

// writeLog writes a Claude Code session log of calls in dir.
func writeLog(t *testing.T, dir, id string, calls ...loggedCall) {
	t.Helper()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var b strings.Builder
	n := 0
	line := func(rec map[string]any) {
		n++
		rec["sessionId"], rec["cwd"], rec["uuid"] = id, "/w/app", fmt.Sprintf("%s-%d", id, n)
		rec["timestamp"] = at.Add(time.Duration(n) * time.Second).Format(time.RFC3339)
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": "carry on"}})
	for k, c := range calls {
		tid := fmt.Sprintf("t%d", k)
		line(map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": tid, "name": c.tool, "input": c.input}}}})
		line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": tid, "content": c.out, "is_error": !c.fine}}}})
	}
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func bash(cmd, out string) loggedCall {
	return loggedCall{"Bash", map[string]any{"command": cmd}, out, false}
}

// TestMinedBuiltinsComeWithTheirFailure replays the built-ins over
// sessions that each make one mistake mined from failures recurring
// across projects, in the shape agents make it: the built-in on that
// error reaches the agent with the failure, and its fire addresses it.
func TestMinedBuiltinsComeWithTheirFailure(t *testing.T) {
	tests := []struct {
		slug string
		call loggedCall
	}{
		{"read-opens-files-not-directories-list-a-directory-9yno", loggedCall{"Read", map[string]any{"file_path": "/w/app/src/routes"},
			"EISDIR: illegal operation on a directory, read '/w/app/src/routes'", false}},
		{"read-refuses-a-file-over-its-token-limit-w381", loggedCall{"Read", map[string]any{"file_path": "/w/app/package-lock.json"},
			"File content (88012 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters to read specific portions of the file, or use the GrepTool to search for specific content.", false}},
		{"a-subagent-type-that-does-not-exist-here-9mnj", loggedCall{"Task", map[string]any{"subagent_type": "security-auditor", "prompt": "review the auth module"},
			"Agent type 'security-auditor' not found. Available agents: general-purpose, Explore, Plan", false}},
		{"the-shell-could-not-parse-the-command-nested-odib", bash(`git add app/(auth)/login/page.tsx`,
			"Exit code 2\n/bin/bash: eval: line 1: syntax error near unexpected token `('")},
		{"gh-pr-create-finds-no-commits-between-the-toaa", bash(`gh pr create --base main --fill`,
			"Exit code 1\npull request create failed: GraphQL: Head sha can't be blank, No commits between main and fix/retry (createPullRequest)")},
		{"git-found-an-index-lock-another-git-process-bxok", bash(`git commit -m "fix retry"`,
			"Exit code 128\nfatal: Unable to create '/w/app/.git/index.lock': File exists.\n\nAnother git process seems to be running in this repository")},
		{"git-push-was-rejected-because-the-remote-branch-vlez", bash(`git push origin main`,
			"Exit code 1\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'origin'")},
		{"the-tool-has-no-such-flag-in-the-sg93", bash(`git show HEAD --names-only`,
			"Exit code 128\nfatal: unrecognized argument: --names-only")},
		{"git-would-overwrite-uncommitted-changes-so-it-did-4wyb", bash(`git stash && npx prettier --write src; git stash pop`,
			"Exit code 1\nerror: Your local changes to the following files would be overwritten by merge:\n\tsrc/index.ts\nAborting")},
		{"webfetch-got-a-404-for-a-guessed-url-b5mi", loggedCall{"WebFetch", map[string]any{"url": "https://raw.githubusercontent.com/acme/sdk/main/src/client", "prompt": "list the files"},
			"Request failed with status code 404", false}},
		{"gh-pr-edit-or-view-fails-on-classic-projects-bogz", bash(`gh pr edit 31 --body-file /tmp/pr-body.md`,
			"Exit code 1\nGraphQL: Projects (classic) is being deprecated in favor of the new Projects experience, see: https://github.blog/changelog/2024-05-23-sunset-notice-projects-classic/. (repository.pullRequest.projectCards)")},
		{"the-branch-is-checked-out-in-another-worktree-f6vd", bash(`git checkout main && git pull`,
			"Exit code 128\nfatal: 'main' is already used by worktree at '/w/app'")},
		{"gh-pr-checks-found-no-checks-yet-t2g4", bash(`gh pr checks 57 --watch`,
			"Exit code 1\nno checks reported on the 'fix/retry' branch")},
		{"the-agent-s-shell-call-hit-its-time-limit-v92x", bash(`npm run test:e2e 2>&1 | tail -20`,
			"Exit code 143\nCommand timed out after 2m 0s")},
		{"python-cannot-import-that-name-from-the-installed-b8i3", bash(`uv run python -c "from retry.policies import Backoff"`,
			"Exit code 1\nTraceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nImportError: cannot import name 'Backoff' from 'retry.policies' (/w/app/.venv/lib/python3.12/site-packages/retry/policies.py)")},
		{"python-outside-the-project-s-environment-lacks-oghf", bash(`cd services/api && python3 scripts/make_token.py --sub dev`,
			"Exit code 1\nTraceback (most recent call last):\n  File \"/w/app/services/api/scripts/make_token.py\", line 2, in <module>\n    import jwt\nModuleNotFoundError: No module named 'jwt'")},
		{"a-jq-filter-with-breaks-when-the-k7jd", bash(`gh api repos/acme/app/pulls/7/comments --jq '.[] | select(.user.login != "ci-bot") | .body'`,
			"Exit code 1\nfailed to parse jq expression (line 1, column 26)\n    .[] | select(.user.login \\!= \"ci-bot\") | .body\n                             ^  unexpected token \"\\\\\"")},
		{"python-c-importing-a-package-runs-is64", bash(`cd agents && python3 -c "from trading.signals import compute_rsi; print(compute_rsi([1, 2, 3]))"`,
			"Exit code 1\nTraceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nModuleNotFoundError: No module named 'pandas'")},
		{"the-output-piped-into-a-json-parser-was-f8r7", bash(`npm ls --json 2>&1 | python3 -c "import json,sys; print(len(json.load(sys.stdin)))"`,
			"Exit code 1\nTraceback (most recent call last):\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)")},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		writeLog(t, dir, fmt.Sprintf("s%02d", i), tt.call)
	}
	mg, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Measure(context.Background(), mg, []History{{Name: "mined", Path: dir}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		found := false
		for _, l := range ms[0].Report.Lessons {
			if l.Slug != tt.slug {
				continue
			}
			found = true
			if l.Fires != 1 || l.FiresAfter != 1 || l.FiresAddressing != 1 {
				t.Errorf("%s: %d fires, %d after the failure, %d addressing it; want 1 each", tt.slug, l.Fires, l.FiresAfter, l.FiresAddressing)
			}
		}
		if !found {
			t.Errorf("%s is not a built-in", tt.slug)
		}
	}
	if r := ms[0].Report; r.Injections != len(tests) {
		t.Errorf("%d injections over %d failed calls, want one each", r.Injections, len(tests))
	}
	n := len(tests)
	row := fmt.Sprintf("| mined | %d | %d | %d | 100.00 | %d | 0 |", n, n, n, n)
	if md := string(Markdown(mg.Active, ms, nil, nil, DefaultGate)); !strings.Contains(md, row) {
		t.Errorf("the report does not count each as caught with the failure, not before it: want the row %q", row)
	}
}

// TestNarrowedBuiltinsStayQuiet replays a session of calls that went fine
// and that built-ins used to fire at, each before no failure of its kind
// on real histories: a bare npm test, writing .env files, async tests,
// .gitignore and mock.patch edits, git stash, sed -i, git rebase
// --continue and a workflow step that writes a localhost URL for a
// deploy (no service container); python -c probes the python -c
// built-in must leave alone (the standard library only, the project's
// environment); and a jq filter with != and a bare python -c importing
// a package that worked (the shell left the ! alone, the interpreter
// had the package: on the held-out sets, most of those lessons' fires
// came before such calls, and they now wait for the error). No built-in
// text reaches the agent.
func TestNarrowedBuiltinsStayQuiet(t *testing.T) {
	ok := func(tool string, input map[string]any) loggedCall { return loggedCall{tool, input, "done", true} }
	dir := t.TempDir()
	writeLog(t, dir, "quiet",
		ok("Bash", map[string]any{"command": "npm test"}),
		ok("Bash", map[string]any{"command": "cd web && yarn test src/App.test.tsx"}),
		ok("Write", map[string]any{"file_path": "/w/app/.env.local", "content": "API_URL=http://localhost:8000\n"}),
		ok("Write", map[string]any{"file_path": "/w/app/tests/test_client.py", "content": "async def test_fetch(client):\n    assert (await client.get('/')).status == 200\n"}),
		ok("Edit", map[string]any{"file_path": "/w/app/.gitignore", "old_string": "dist/", "new_string": "dist/\nnode_modules/"}),
		ok("Write", map[string]any{"file_path": "/w/app/tests/test_billing.py", "content": "from unittest.mock import patch\n\n@patch('billing.api.requests.get')\ndef test_charge(get):\n    pass\n"}),
		ok("Bash", map[string]any{"command": "git stash && git pull --rebase && git stash pop"}),
		ok("Bash", map[string]any{"command": "sed -i 's/v1/v2/' VERSION"}),
		ok("Bash", map[string]any{"command": "git rebase --continue"}),
		ok("Bash", map[string]any{"command": `gh api repos/acme/app/pulls | python3 -c "import json, sys; print(len(json.load(sys.stdin)))"`}),
		ok("Bash", map[string]any{"command": `uv run python -c "import httpx; print(httpx.__version__)"`}),
		ok("Bash", map[string]any{"command": `jq -c 'select(.status != "done") | .id' tasks.jsonl`}),
		ok("Bash", map[string]any{"command": `python3 -c "import yaml; print(yaml.safe_load(open('ci.yml'))['jobs'].keys())"`}),
		ok("Edit", map[string]any{"file_path": "/w/app/.github/workflows/deploy.yml", "old_string": "      - name: Deploy\n",
			"new_string": "      - name: Deploy\n        run: echo \"DATABASE_URL=postgres://app@localhost:5432/app\" | ssh deploy@$HOST 'cat > .env'\n"}),
	)
	mg, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Measure(context.Background(), mg, []History{{Name: "quiet", Path: dir}})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ms[0].Report.Lessons {
		if l.Fires > 0 {
			t.Errorf("%s fired %d times at calls that went fine", l.Slug, l.Fires)
		}
	}
}

// TestErrorBuiltinsAddNothingTheOutputSaid replays usage errors whose
// output already holds what the lesson on them would say: the tool's
// usage line and flags, a pointer to --help, a did-you-mean. The agent
// has the answer in front of it, so no built-in text comes with them.
func TestErrorBuiltinsAddNothingTheOutputSaid(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, dir, "helped",
		bash(`gh pr diff 12 --stat`, "Exit code 1\nunknown flag: --stat\n\nUsage:  gh pr diff [<number> | <url> | <branch>] [flags]\n\nFlags:\n      --name-only   Display only names of changed files"),
	)
	writeLog(t, dir, "wrapped",
		bash(`envwrap pytest -q`, "Exit code 2\nerror: unrecognized subcommand 'pytest'\n\nUsage: envwrap [OPTIONS] <COMMAND>\n\nFor more information, try '--help'."),
	)
	writeLog(t, dir, "suggested",
		bash(`npx tsx scripts/seed.ts --tag demo`, "Exit code 1\nerror: unknown option '--tag'\n(Did you mean --tags?)"),
	)
	writeLog(t, dir, "python",
		bash(`uv run python -c "from mlkit.entities import RunState"`, "Exit code 1\nImportError: cannot import name 'RunState' from 'mlkit.entities' (/w/app/.venv/lib/python3.12/site-packages/mlkit/entities/__init__.py). Did you mean: 'RunStatus'?"),
	)
	writeLog(t, dir, "gnu",
		bash(`ls --sortt=time`, "Exit code 2\nls: unrecognized option '--sortt=time'\nTry 'ls --help' for more information."),
	)
	mg, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Measure(context.Background(), mg, []History{{Name: "helped", Path: dir}})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ms[0].Report.Lessons {
		if l.Fires > 0 {
			t.Errorf("%s fired %d times with a usage error whose output already answers it", l.Slug, l.Fires)
		}
	}
}

// TestMinedBuiltinComesBeforeItsFailure replays calls whose mistake is
// visible in the command itself, each with what the tool printed: gh pr
// diff with a path, and rg given a pattern that starts with a dash
// (ripgrep says "unrecognized flag", not grep's "unrecognized option").
// The built-in comes before the call, and its fire addresses the failure.
func TestMinedBuiltinComesBeforeItsFailure(t *testing.T) {
	tests := []struct {
		slug  string
		calls []loggedCall
	}{
		{"gh-pr-diff-takes-no-path-filter-hxoq", []loggedCall{
			bash(`gh pr diff 214 -- src/upload/retry.ts`, "Exit code 1\naccepts at most 1 arg(s), received 2"),
			{"Bash", map[string]any{"command": "gh pr diff 214 --name-only"}, "src/upload/retry.ts", true},
		}},
		{"grep-and-rg-read-a-pattern-that-starts-uyu7", []loggedCall{
			bash(`rg -n "- name: worker" deploy -g"*.yaml"`, "Exit code 2\nrg: unrecognized flag -"),
			{"Bash", map[string]any{"command": `rg -n -e "- name: worker" deploy -g"*.yaml"`}, "deploy/app.yaml:12:  - name: worker", true},
		}},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		writeLog(t, dir, fmt.Sprintf("before%02d", i), tt.calls...)
	}
	mg, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Measure(context.Background(), mg, []History{{Name: "before", Path: dir}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		found := false
		for _, l := range ms[0].Report.Lessons {
			if l.Slug != tt.slug {
				continue
			}
			found = true
			if l.Fires != 1 || l.FiresAfter != 0 || l.FiresAddressing != 1 {
				t.Errorf("%s: %d fires, %d after the failure, %d addressing it; want 1 fire before the call, addressing it", tt.slug, l.Fires, l.FiresAfter, l.FiresAddressing)
			}
		}
		if !found {
			t.Errorf("%s did not come before %q", tt.slug, tt.calls[0].input["command"])
		}
	}
}
