#!/usr/bin/env python3
"""Writes the labelled sessions of the scanner's quality test.

Each scenario below is one short session, written in the shape of each
agent's log (Claude Code JSONL, Codex rollout JSONL, Gemini CLI JSONL or
legacy JSON, opencode export JSON) and labelled with the candidates a scan
should propose: kind, a piece of the failing call, a piece of the fix, and
whether a team would keep it ("keep") or not ("noise"). A scenario with no
label must give no candidate at or above minConfidence.

The sessions are written by this script, not copied from real logs; their
shapes follow what each agent writes (see the scanner's parsers). Some files
are written by a non-compact serializer (spaces after ':' and ',', sorted
keys, escaped '<' and '>', or indented), as other tools write JSON.

Run from this directory: python3 gen.py
"""

import json
import os
import shutil
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = "/home/dev/shop"
T0 = 1767225600  # 2026-01-01T00:00:00Z


def ok(out=""):
    return {"fail": False, "exit": 0, "out": out}


def fail(code, out):
    return {"fail": True, "exit": code, "out": out}


def typed(text, after):
    """A Claude Code 2.0 refusal: what the user typed, in place of the
    result, with no marker, written after seconds."""
    return {"fail": True, "exit": -1, "out": text, "after": after}


def sh(cmd, result):
    return ("call", {"tool": "Bash", "cmd": cmd}, result)


def edit(path, old, new, result):
    return ("call", {"tool": "Edit", "path": path, "old": old, "new": new}, result)


def user(text):
    return ("user", text)


def say(text):
    return ("assistant", text)


def reject(call, reason):
    return ("reject", call, reason)


LESSON_JEST = """I hit this and fixed it:

#lesson
tool: Bash
trigger: npm test
problem: npm test starts jest in watch mode when it believes the terminal is
interactive, so the call never returns and times out. It needs CI=true.
solution: run `CI=true npm test -- --watchAll=false` instead.
tags: tool:npm, lang:js
scope: project
#/lesson
"""

LESSON_GO = """#lesson
tool: Bash
trigger: go test ./...
problem: go test caches results, so a test that reads files outside the
package passes from the cache after those files changed.
solution: Use `go test -count=1 ./...` when a test reads fixtures.
#/lesson
"""

# Each scenario: name, steps, labels (kind, trigger piece, fix piece,
# verdict), and the formats it is written in (a rejection with a reason
# exists in Claude Code and opencode only).
ALL = ("claude", "codex", "gemini", "opencode")
WITH_REJECT = ("claude", "opencode")

SCENARIOS = [
    ("flag-value", [
        user("show me what the blame tool logged since yesterday"),
        sh("git-ai log --since 1d", fail(2, "error: invalid value '1d' for '--since <DAYS>': invalid digit found in string\n\nFor more information, try '--help'.")),
        sh("git-ai log --since 1", ok("a1b2c3 fix cart total\n")),
        say("Here is the log since yesterday."),
    ], [("retry", "--since 1d", "--since 1", "keep")], ALL),

    ("zsh-glob", [
        user("fetch page 2 of the items API"),
        sh("curl -s https://api.example.test/v1/items?page=2", fail(1, "zsh:1: no matches found: https://api.example.test/v1/items?page=2")),
        sh("curl -s 'https://api.example.test/v1/items?page=2'", ok('{"items": []}')),
        say("Page 2 is empty."),
    ], [("retry", "items?page=2", "'https://api.example.test", "keep")], ALL),

    ("rg-dash-pattern", [
        user("where do we pass --no-verify?"),
        sh('rg -n "--no-verify" scripts', fail(2, "rg: unrecognized flag --no-verify")),
        sh('rg -n -e "--no-verify" scripts', ok("scripts/release.sh:12:git commit --no-verify\n")),
        say("Only scripts/release.sh does."),
    ], [("retry", 'rg -n "--no-verify"', "-e", "keep")], ALL),

    ("grep-dash-pattern", [
        user("which tests fail?"),
        sh("go test ./... 2>&1 | grep -E '--- FAIL'", fail(2, "grep: unrecognized option `--- FAIL'\nusage: grep [-abcdDEFGHhIiJLlMmnOopqRSsUVvwXxZz] [-A num] [-B num] [-C[num]]\n\t[-e pattern] [-f file] [--binary-files=value] [--color=when]")),
        sh("go test ./... 2>&1 | grep -E -- '--- FAIL'", ok("--- FAIL: TestCartTotal (0.00s)\n")),
        say("TestCartTotal fails."),
    ], [("retry", "grep -E '--- FAIL'", "-- '--- FAIL'", "keep")], ALL),

    ("sqlite-schema", [
        user("what columns does the users table have?"),
        sh("sqlite3 data/app.db '.schema users'", fail(1, 'Error: unknown command or invalid arguments:  "schema". Enter ".help" for help')),
        sh("sqlite3 data/app.db \"SELECT sql FROM sqlite_master WHERE name='users'\"", ok("CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT)\n")),
        say("users has id and email."),
    ], [("retry", ".schema users", "sqlite_master", "keep")], ALL),

    ("command-not-found", [
        user("run the tests"),
        sh("pytest -q tests", fail(127, "bash: line 1: pytest: command not found")),
        sh("uv run pytest -q tests", ok("12 passed in 0.40s\n")),
        say("All 12 tests pass."),
    ], [("retry", "pytest -q tests", "uv run", "keep")], ALL),

    ("git-push-upstream", [
        user("push the branch"),
        sh("git push", fail(128, "fatal: The current branch feature/cart has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin feature/cart\n")),
        sh("git push -u origin feature/cart", ok("branch 'feature/cart' set up to track 'origin/feature/cart'.\n")),
        say("Pushed."),
    ], [("retry", "git push", "-u origin", "keep")], ALL),

    ("probe-which", [
        user("is ripgrep installed?"),
        sh("which rg", fail(1, "")),
        sh("ls /usr/local/bin", ok("node\nnpm\n")),
        say("ripgrep is not installed."),
    ], [], ALL),

    ("probe-help", [
        user("build the site with sitegen"),
        sh("sitegen --help", fail(2, "error: unexpected argument '--help' found\n\nUsage: sitegen <COMMAND>")),
        sh("sitegen build", ok("built 14 pages\n")),
        say("Built."),
    ], [], ALL),

    ("grep-no-match", [
        user("do we still call legacyTotal anywhere?"),
        sh("grep -rn legacyTotal src", fail(1, "")),
        sh("git log --oneline -3", ok("a1b2c3 remove legacyTotal\n")),
        say("No, it was removed in a1b2c3."),
    ], [], ALL),

    ("failure-not-fixed", [
        user("build it"),
        sh("npm run build", fail(1, "Error: Cannot find module 'lodash'\nRequire stack:\n- /home/dev/shop/build.js")),
        say("The build needs lodash, which is not installed. Shall I add it?"),
        user("thanks, I'll look at it myself"),
    ], [], ALL),

    ("question-after-failure", [
        user("deploy to staging"),
        sh("make deploy", fail(2, "make: *** No rule to make target 'deploy'.  Stop.")),
        user("what targets does the Makefile have?"),
        sh("make -qp | head -40", ok("all: build\nbuild:\n")),
        say("There are build and all."),
    ], [], ALL),

    ("correction-refers", [
        user("add left-pad"),
        sh("npm install left-pad", fail(1, "npm error code EUNSUPPORTEDPROTOCOL\nnpm error Unsupported URL Type \"workspace:\": workspace:*")),
        user("don't use npm in this repo, it is a pnpm workspace: use pnpm"),
        sh("pnpm add left-pad", ok("+ left-pad 1.3.0\n")),
        say("Added with pnpm."),
    ], [("correction", "npm install left-pad", "pnpm", "keep")], ALL),

    ("correction-unrelated", [
        user("start the stack"),
        sh("docker compose up -d", fail(1, "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?")),
        user("dont forget to update the changelog when you are done"),
        say("Noted. Docker is not running here, so I cannot start the stack."),
    ], [], ALL),

    ("correction-late", [
        user("lint it"),
        sh("eslint src --fix", fail(2, "Oops! Something went wrong! :(\nESLint: 9.1.0\nESLint couldn't find an eslint.config.(js|mjs|cjs) file.")),
        user("ok"),
        say("ESLint needs a flat config file."),
        user("never use eslint --fix on the generated folder"),
    ], [], ALL),

    ("reject-with-reason", [
        user("ship it"),
        reject({"tool": "Bash", "cmd": "git push --force origin main"}, "never force push to main, open a pull request instead"),
        say("I will open a pull request instead."),
    ], [("rejection", "git push --force origin main", "pull request", "keep")], WITH_REJECT),

    ("reject-once", [
        user("run the checks"),
        reject({"tool": "Bash", "cmd": "make e2e"}, "never run the e2e suite locally, it needs the staging cluster"),
        say("I will run the unit tests only."),
    ], [], WITH_REJECT),

    ("correction-once", [
        user("add the date library"),
        sh("yarn add dayjs", fail(1, "error This project's package.json defines \"packageManager\": \"pnpm@9.1.0\". However the current global version of Yarn is 1.22.22.")),
        user("don't use yarn here, this repo uses pnpm"),
        sh("pnpm add dayjs", ok("+ dayjs 1.11.13\n")),
        say("Added with pnpm."),
    ], [], ALL),

    ("reject-no-reason", [
        user("clean the build"),
        reject({"tool": "Bash", "cmd": "rm -rf build dist"}, ""),
        say("I left the folders alone."),
    ], [], WITH_REJECT),

    ("reject-question", [
        user("tune the pool"),
        reject({"tool": "Edit", "path": "src/db.py", "old": "pool_size=5", "new": "pool_size=50"}, "why do we need fifty connections?"),
        say("Because of the load test; I can keep 5."),
    ], [], WITH_REJECT),

    ("tool-error-not-reason", [
        user("add the host entry"),
        sh("tee -a /etc/hosts <<< '127.0.0.1 shop.local'", fail(1, "tee: /etc/hosts: Permission denied")),
        say("I cannot write /etc/hosts without sudo; please add the line yourself."),
    ], [], ALL),

    ("tool-error-fast", [
        user("read the big fixture"),
        ("call", {"tool": "Read", "path": "tests/fixtures/orders.json"},
         fail(-1, "File content (41200 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters to read specific portions of the file.")),
        ("call", {"tool": "Read", "path": "tests/fixtures/orders.json"}, ok("[{\"id\": 1}]")),
        say("The fixture holds orders."),
    ], [], ("claude",)),

    ("typed-refusal", [
        user("load the sample data"),
        sh("psql -h db.internal -d shop -f sample.sql", typed("use the staging database for sample data, never the shared one", 40)),
        say("I will use the staging database."),
    ], [("rejection", "psql -h db.internal", "staging database", "keep")], ("claude",)),

    ("question-tool-answer", [
        user("set up releases"),
        reject({"tool": "AskUserQuestion", "input": {"questions": [{"question": "Should the installer use prebuilt binaries instead of building from source?", "options": [{"label": "binaries"}, {"label": "source"}]}]}},
               "The user wants to clarify these questions.\n    This means they may have additional information, context or questions for you.\n    Take their response into account and then reformulate the questions if appropriate.\n\n    Questions asked:\n- \"Should the installer use prebuilt binaries instead of building from source?\"\n  (No answer provided)"),
        say("What would you like to clarify?"),
    ], [], ("claude",)),

    ("reject-takeover", [
        user("deploy the shop"),
        reject({"tool": "Bash", "cmd": "kubectl rollout restart deploy/shop"}, "I'll run the deploy myself, don't worry about it"),
        say("Understood."),
    ], [], WITH_REJECT),

    ("reject-remark", [
        user("run the integration tests"),
        reject({"tool": "Bash", "cmd": "pytest -vv tests/integration"}, "nice, you always use the verbose flag"),
        say("Sorry, running it now."),
    ], [], WITH_REJECT),

    # Refusals whose words are about the call at hand, not a rule: seen
    # in one session, none is shown.
    ("reject-this", [
        user("commit the plan"),
        reject({"tool": "Bash", "cmd": "git add notes/draft-plan.md"}, "don't commit this"),
        say("I left it out."),
    ], [], WITH_REJECT),

    ("reject-for-now", [
        user("get the release ready"),
        reject({"tool": "Bash", "cmd": "make dist"}, "don't build the packages for now, carry on with the changelog"),
        say("Moving on to the changelog."),
    ], [], WITH_REJECT),

    ("reject-edit-hedged", [
        user("total the cart"),
        reject({"tool": "Edit", "path": "src/cart.py", "old": "total = 0", "new": "totals = []"}, "I'd rather use a dict and sum it once"),
        say("I will use a dict."),
    ], [], WITH_REJECT),

    ("reject-about-the-task", [
        user("lint and ship the fix"),
        reject({"tool": "Bash", "cmd": "ruff check src"}, "don't open a pull request, a commit is enough"),
        say("I will commit without a pull request."),
    ], [], WITH_REJECT),

    # A trigger that is only a tool name would fire at every call of it.
    ("reject-subagent", [
        user("review the branch"),
        reject({"tool": "Task", "input": {"description": "review", "prompt": "review the diff of the branch", "subagent_type": "general-purpose"}},
               "always ask the reviewer to check the migrations first"),
        say("I will ask for the migrations first."),
    ], [], ("claude",)),

    ("one-off-fix", [
        user("summarise the review comments"),
        sh("review-notes --format md", fail(2, "error: missing required argument <owner/repo/pr>\nusage: review-notes [--format md|json] <owner/repo/pr>")),
        sh("review-notes --format md acme/shop/143", ok("3 comments\n")),
        say("There are 3 comments."),
    ], [], ALL),

    ("fix-misses-error", [
        user("run the api tests"),
        sh("pytest tests/test_api.py -x", fail(2, "ERROR tests/test_api.py - ModuleNotFoundError: No module named 'httpx'\n!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!")),
        sh("pytest tests/test_api.py -x -p no:cacheprovider", ok("4 passed\n")),
        say("The api tests pass."),
    ], [], ALL),

    ("precondition-install", [
        user("run the api tests"),
        sh("pytest tests/test_api.py", fail(2, "ImportError while importing test module '/home/dev/shop/tests/test_api.py'.\nE   ModuleNotFoundError: No module named 'httpx'\n!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!")),
        sh("pip install httpx", ok("Successfully installed httpx-0.27.0\n")),
        sh("pytest tests/test_api.py", ok("4 passed\n")),
        say("The api tests pass."),
    ], [("precondition", "pytest tests/test_api.py", "pip install httpx", "keep")], ALL),

    ("precondition-package", [
        user("make the report"),
        sh("python -m shop.report --month 2026-01", fail(1, "Traceback (most recent call last):\n  File \"<frozen runpy>\", line 189, in _run_module_as_main\nModuleNotFoundError: No module named 'shop.utils'")),
        ("call", {"tool": "Write", "path": "shop/utils/__init__.py", "content": ""}, ok()),
        sh("python -m shop.report --month 2026-01", ok("report written\n")),
        say("The report is written."),
    ], [("precondition", "python -m shop.report", "shop/utils/__init__.py", "keep")], ("claude", "codex")),

    ("lint-fixed-by-edit", [
        user("make lint pass"),
        sh("golangci-lint run ./cart/...", fail(1, "cart/cart.go:12:2: Error return value of `f.Close` is not checked (errcheck)\n1 issues:\n* errcheck: 1")),
        edit("cart/cart.go", "f.Close()", "defer func() { _ = f.Close() }()", ok()),
        sh("golangci-lint run ./cart/...", ok("0 issues.\n")),
        say("Lint passes."),
    ], [], ALL),

    ("known-failure-monday", [
        user("add a discount field to the cart"),
        sh("npm run e2e", fail(1, "> shop@1.0.0 e2e\n> playwright test\n\nError: browserType.launch: Executable doesn't exist at /root/.cache/ms-playwright/chromium-1091/chrome-linux/chrome")),
        edit("src/cart.ts", "total: number", "total: number\n  discount: number", ok()),
        sh("npm run typecheck", ok("done\n")),
        say("Added the field; the e2e suite cannot start its browser here."),
    ], [("known", "npm run e2e", "before any change", "keep")], ALL),

    ("known-failure-tuesday", [
        user("rename total to subtotal"),
        sh("npm run e2e", fail(1, "> shop@1.0.0 e2e\n> playwright test\n\nError: browserType.launch: Executable doesn't exist at /root/.cache/ms-playwright/chromium-1105/chrome-linux/chrome")),
        edit("src/cart.ts", "total", "subtotal", ok()),
        sh("npm run typecheck", ok("done\n")),
        say("Renamed."),
    ], [("known", "npm run e2e", "before any change", "keep")], ALL),

    ("tag-multiline", [
        user("run the unit tests"),
        sh("CI=true npm test -- --watchAll=false", ok("Tests: 40 passed\n")),
        say(LESSON_JEST),
    ], [("tag", "npm test", "CI=true", "keep")], ALL),

    ("tag-and-retry", [
        user("run the tests"),
        sh("npm test", fail(143, "Command timed out after 2m 0s\n\n> shop@1.0.0 test\n> jest\n\nWatch Usage: Press w to show more.")),
        sh("CI=true npm test -- --watchAll=false", ok("Tests: 40 passed\n")),
        say(LESSON_JEST),
    ], [("tag", "npm test", "CI=true", "keep")], ALL),

    ("tag-go-cache", [
        user("check the fixtures test"),
        sh("go test -count=1 ./...", ok("ok  \tshop/cart\t0.2s\n")),
        say(LESSON_GO),
    ], [("tag", "go test", "-count=1", "keep")], ALL),

    ("prettier-check", [
        user("check the formatting of the docs page"),
        sh("npx prettier --check docs/index.md", fail(1, "Checking formatting...\n[warn] docs/index.md\n[warn] Code style issues found in the above file. Run Prettier with --write to fix.")),
        sh("npx prettier --write docs/index.md", ok("docs/index.md 40ms\n")),
        say("Formatted."),
    ], [], ALL),

    ("lint-then-fix", [
        user("lint"),
        sh("bun run lint", fail(1, "src/cart.ts:3:1 lint/style/useConst  FIXABLE\n  x This let declares a variable that is only assigned once.")),
        sh("bun run lint:fix", ok("Fixed 1 file.\n")),
        sh("bun run lint", ok("Checked 40 files.\n")),
        say("Lint is clean."),
        # the project's fixer got the check past what it found: the held-out
        # labellers read a lint failure that comes back for want of it as
        # catchable ("run the fixer before checking")
    ], [("precondition", "bun run lint", "bun run lint:fix", "keep")], ALL),

    ("path-drift", [
        user("run the cart tests"),
        sh("uv run pytest tests/test_cart.py", fail(4, "ERROR: file or directory not found: tests/test_cart.py")),
        sh("uv run pytest /home/dev/shop/tests/test_cart.py", ok("3 passed\n")),
        say("The cart tests pass."),
    ], [], ALL),

    ("test-fails-then-code-fix", [
        user("fix the total"),
        sh("go test ./cart", fail(1, "--- FAIL: TestTotal (0.00s)\n    cart_test.go:12: got 9, want 10\nFAIL")),
        edit("cart/cart.go", "return sum", "return sum + tax", ok()),
        sh("go test ./cart", ok("ok  \tshop/cart\t0.1s\n")),
        say("Fixed: the total now includes tax."),
    ], [], ALL),

    ("edit-not-read", [
        user("rename the constant"),
        edit("src/config.ts", "MAX = 5", "MAX_ITEMS = 5", fail(-1, "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>")),
        ("call", {"tool": "Read", "path": "src/config.ts"}, ok("export const MAX = 5\n")),
        edit("src/config.ts", "MAX = 5", "MAX_ITEMS = 5", ok()),
        say("Renamed."),
    ], [], ("claude",)),
]

# Scenarios a user says in two sessions: what a user refused or corrected
# once is that task's decision until it comes back, so each is written
# again as a second session (NAME-again) holding the same label; the
# -once scenarios say it in one session only and give no candidate.
AGAIN = {"correction-refers", "reject-with-reason", "typed-refusal"}

# Files written by a non-compact serializer, by scenario.
SPACED = {"flag-value", "reject-with-reason", "tag-multiline", "zsh-glob", "correction-refers"}


def dumps(obj, spaced):
    if not spaced:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    s = json.dumps(obj, sort_keys=True, ensure_ascii=False)  # ", " and ": "
    return s.replace("<", "\\u003c").replace(">", "\\u003e")


def ts(i):
    return "2026-01-01T00:%02d:%02d.000Z" % (i // 60, i % 60)


# ---------------------------------------------------------------- Claude Code

def claude(name, steps, spaced):
    sid = "c0ffee00-0000-4000-8000-%012d" % (zlib.crc32(name.encode()) % 10**12)
    lines, parent, i = [], None, 0

    def rec(kind, message, extra=None, after=1):
        nonlocal parent, i
        i += after
        uid = "u-%s-%d" % (name, i)
        r = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": PROJECT,
             "sessionId": sid, "version": "2.1.37", "gitBranch": "main", "type": kind,
             "message": message, "uuid": uid, "timestamp": ts(i)}
        if extra:
            r.update(extra)
        parent = uid
        lines.append(dumps(r, spaced))

    def tool_use(n, call):
        if "input" in call:
            name_, inp = call["tool"], call["input"]
        elif call["tool"] == "Bash":
            name_, inp = "Bash", {"command": call["cmd"], "description": "run it"}
        elif call["tool"] == "Edit":
            name_, inp = "Edit", {"file_path": PROJECT + "/" + call["path"], "old_string": call["old"], "new_string": call["new"]}
        else:
            name_, inp = call["tool"], {"file_path": PROJECT + "/" + call["path"]}
        rec("assistant", {"id": "msg_%d" % n, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                          "content": [{"type": "tool_use", "id": "toolu_%02d" % n, "name": name_, "input": inp}],
                          "stop_reason": "tool_use"})

    n = 0
    for st in steps:
        if st[0] == "user":
            rec("user", {"role": "user", "content": st[1]})
        elif st[0] == "assistant":
            rec("assistant", {"id": "msg_t%d" % i, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                              "content": [{"type": "text", "text": st[1]}], "stop_reason": "end_turn"})
        elif st[0] == "call":
            n += 1
            tool_use(n, st[1])
            res = st[2]
            if res["fail"]:
                body = res["out"] if res["exit"] < 0 else "Exit code %d\n%s" % (res["exit"], res["out"])
                rec("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_%02d" % n, "content": body, "is_error": True}]},
                    {"toolUseResult": "Error: " + body}, res.get("after", 1))
            else:
                rec("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_%02d" % n, "content": res["out"], "is_error": False}]},
                    {"toolUseResult": {"stdout": res["out"], "stderr": "", "interrupted": False, "isImage": False}})
        elif st[0] == "reject":
            n += 1
            tool_use(n, st[1])
            body = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, "
                    "the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.")
            if st[2]:
                body = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, "
                        "the new_string was NOT written to the file). The user provided the following reason for the rejection:  " + st[2])
            rec("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_%02d" % n, "content": body, "is_error": True}]},
                {"toolUseResult": "Error: " + body})
    return "claude/%s.jsonl" % name, "\n".join(lines) + "\n"


# ---------------------------------------------------------------- Codex

def codex(name, steps, spaced):
    lines, i = [], 0

    def rec(typ, payload):
        nonlocal i
        i += 1
        lines.append(dumps({"timestamp": ts(i), "type": typ, "payload": payload}, spaced))

    rec("session_meta", {"id": "0199a000-0000-7000-8000-%012d" % (zlib.crc32(name.encode()) % 10**12), "timestamp": ts(0), "cwd": PROJECT,
                         "originator": "codex_cli_rs", "cli_version": "0.169.0", "source": "cli", "model_provider": "openai"})
    rec("turn_context", {"cwd": PROJECT, "approval_policy": "on-request", "model": "gpt-5-codex"})
    n = 0
    for st in steps:
        if st[0] == "user":
            rec("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": st[1]}]})
            rec("event_msg", {"type": "user_message", "message": st[1], "images": []})
        elif st[0] == "assistant":
            rec("response_item", {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": st[1]}]})
        elif st[0] == "call":
            n += 1
            call, res = st[1], st[2]
            cid = "call_%s_%d" % (name, n)
            if call["tool"] == "Bash":
                rec("response_item", {"type": "function_call", "name": "exec_command",
                                      "arguments": json.dumps({"cmd": call["cmd"], "workdir": PROJECT}), "call_id": cid})
                out = "Chunk ID: 9f%02d\nWall time: 0.2 seconds\nProcess exited with code %d\nOriginal token count: 20\nOutput:\n%s" % (
                    n, res["exit"], res["out"])
                rec("response_item", {"type": "function_call_output", "call_id": cid, "output": out})
            else:
                if call["tool"] == "Write":
                    patch = "*** Begin Patch\n*** Add File: %s\n+%s\n*** End Patch" % (call["path"], call.get("content", ""))
                else:
                    patch = "*** Begin Patch\n*** Update File: %s\n@@\n-%s\n+%s\n*** End Patch" % (call["path"], call.get("old", ""), call.get("new", ""))
                rec("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": cid, "name": "apply_patch", "input": patch})
                out = "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM %s\n" % call["path"]
                rec("response_item", {"type": "custom_tool_call_output", "call_id": cid, "output": out})
    return "codex/rollout-2026-01-01T00-00-00-%s.jsonl" % name, "\n".join(lines) + "\n"


# ---------------------------------------------------------------- Gemini CLI

def gemini_messages(name, steps):
    msgs, n = [], 0
    for i, st in enumerate(steps):
        mid = "%s-m%d" % (name, i)
        if st[0] == "user":
            msgs.append({"id": mid, "timestamp": ts(i), "type": "user", "content": [{"text": st[1]}]})
        elif st[0] == "assistant":
            msgs.append({"id": mid, "timestamp": ts(i), "type": "gemini", "content": st[1], "model": "gemini-2.5-pro",
                         "tokens": {"input": 100, "output": 20, "total": 120}})
        elif st[0] == "call":
            n += 1
            call, res = st[1], st[2]
            if call["tool"] == "Bash":
                cid = "run_shell_command-%d" % n
                out = "Command: %s\nDirectory: (root)\nOutput: %s\nError: (none)\nExit Code: %d\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 4%03d" % (
                    call["cmd"], res["out"] or "(empty)", res["exit"], n)
                tc = {"id": cid, "name": "run_shell_command", "args": {"command": call["cmd"], "description": "run it"},
                      "result": [{"functionResponse": {"id": cid, "name": "run_shell_command", "response": {"output": out}}}],
                      "status": "success", "timestamp": ts(i), "displayName": "Shell", "description": call["cmd"],
                      "resultDisplay": res["out"], "renderOutputAsMarkdown": False}
            else:
                cid = "replace-%d" % n
                tool = {"Edit": "replace", "Read": "read_file"}[call["tool"]]
                args = {"file_path": PROJECT + "/" + call["path"]}
                if call["tool"] == "Edit":
                    args.update({"old_string": call["old"], "new_string": call["new"]})
                resp = {"error": res["out"]} if res["fail"] else {"output": "Successfully modified file: " + args["file_path"]}
                tc = {"id": cid, "name": tool, "args": args,
                      "result": [{"functionResponse": {"id": cid, "name": tool, "response": resp}}],
                      "status": "error" if res["fail"] else "success", "timestamp": ts(i), "displayName": "Edit",
                      "description": call["path"], "resultDisplay": res["out"], "renderOutputAsMarkdown": True}
            msgs.append({"id": mid, "timestamp": ts(i), "type": "gemini", "content": "", "toolCalls": [tc], "model": "gemini-2.5-pro"})
    return msgs


def gemini(name, steps, spaced):
    sid = "9e000000-0000-4000-8000-%012d" % (zlib.crc32(name.encode()) % 10**12)
    meta = {"sessionId": sid, "projectHash": "3f" * 32, "startTime": ts(0), "lastUpdated": ts(59), "kind": "main"}
    msgs = gemini_messages(name, steps)
    if name in SPACED:  # a legacy chat, pretty-printed
        doc = dict(meta, messages=msgs)
        return "gemini/session-2026-01-01T00-00-%s.json" % name, json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    lines = [dumps(meta, spaced)] + [dumps(m, spaced) for m in msgs]
    return "gemini/session-2026-01-01T00-00-%s.jsonl" % name, "\n".join(lines) + "\n"


# ---------------------------------------------------------------- opencode

def opencode(name, steps, spaced):
    sid = "ses_%s" % name.replace("-", "")
    info = {"id": sid, "slug": name, "projectID": "prj_shop", "directory": PROJECT, "title": name, "version": "1.18.33",
            "time": {"created": T0 * 1000, "updated": T0 * 1000 + 60000}}
    msgs, n = [], 0
    for i, st in enumerate(steps):
        mid = "msg_%s_%02d" % (name.replace("-", ""), i)
        role = "user" if st[0] == "user" else "assistant"
        minfo = {"id": mid, "sessionID": sid, "role": role, "time": {"created": T0 * 1000 + i * 1000}}
        if role == "assistant":
            minfo.update({"parentID": mid, "modelID": "claude-sonnet-4-5", "providerID": "anthropic", "mode": "build",
                          "path": {"cwd": PROJECT, "root": PROJECT}, "cost": 0, "finish": "stop"})
        part = {"id": "prt_%s_%02d" % (name.replace("-", ""), i), "sessionID": sid, "messageID": mid}
        if st[0] in ("user", "assistant"):
            part.update({"type": "text", "text": st[1]})
        else:
            n += 1
            call = st[1]
            if call["tool"] == "Bash":
                tool, inp = "bash", {"command": call["cmd"], "description": "run it"}
            elif call["tool"] == "Edit":
                tool, inp = "edit", {"filePath": PROJECT + "/" + call["path"], "oldString": call["old"], "newString": call["new"]}
            else:
                tool, inp = "read", {"filePath": PROJECT + "/" + call["path"]}
            if st[0] == "reject":
                err = "The user rejected permission to use this specific tool call."
                if st[2]:
                    err = "The user rejected permission to use this specific tool call with the following feedback: " + st[2]
                state = {"status": "error", "input": inp, "error": err, "time": {"start": T0 * 1000, "end": T0 * 1000 + 5}}
            else:
                res = st[2]
                if tool == "bash":
                    state = {"status": "completed", "input": inp, "output": res["out"], "title": call["cmd"],
                             "metadata": {"exit": res["exit"], "output": res["out"], "description": "run it"},
                             "time": {"start": T0 * 1000, "end": T0 * 1000 + 5}}
                elif res["fail"]:
                    state = {"status": "error", "input": inp, "error": "Error: " + res["out"], "time": {"start": T0 * 1000, "end": T0 * 1000 + 5}}
                else:
                    state = {"status": "completed", "input": inp, "output": res["out"], "title": call["path"], "metadata": {},
                             "time": {"start": T0 * 1000, "end": T0 * 1000 + 5}}
            part.update({"type": "tool", "callID": "toolu_%s_%d" % (name.replace("-", ""), n), "tool": tool, "state": state})
        msgs.append({"info": minfo, "parts": [part]})
    doc = {"info": info, "messages": msgs}
    text = json.dumps(doc, indent=2, ensure_ascii=False) if spaced else dumps(doc, False)
    return "opencode/%s.json" % name, text + "\n"


WRITERS = {"claude": claude, "codex": codex, "gemini": gemini, "opencode": opencode}


def main():
    labels = []
    for fmt in WRITERS:
        shutil.rmtree(os.path.join(HERE, fmt), ignore_errors=True)
        os.makedirs(os.path.join(HERE, fmt))
    scenarios = []
    for name, steps, want, formats in SCENARIOS:
        scenarios.append((name, steps, want, formats))
        if name in AGAIN:
            scenarios.append((name + "-again", steps, want, formats))
    for name, steps, want, formats in scenarios:
        for fmt in formats:
            path, text = WRITERS[fmt](name, steps, name.removesuffix("-again") in SPACED)
            with open(os.path.join(HERE, path), "w", encoding="utf-8") as f:
                f.write(text)
            if not want:
                labels.append({"file": path, "scenario": name, "kind": "", "verdict": "none"})
            for kind, trigger, fix, verdict in want:
                labels.append({"file": path, "scenario": name, "kind": kind, "trigger": trigger, "fix": fix, "verdict": verdict})
    with open(os.path.join(HERE, "labels.json"), "w", encoding="utf-8") as f:
        json.dump(labels, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
