package lessons

import (
	"strings"
	"testing"
)

func TestCommandFamily(t *testing.T) {
	tests := []struct {
		cmd, want string
		probe     bool
	}{
		{"npm test", "npm test", false},
		{"timeout 10 && echo ready", "timeout", false}, // a wrapper given no command is the command
		{"timeout 10 npm test", "npm test", false},
		{"cd app && CI=true npm test -- --watchAll=false 2>&1 | tail -20", "npm test", false},
		{"sudo -E apt-get install -y jq", "apt-get install", false},
		{"timeout 30 pytest -x", "pytest", false},
		{"env -u GOFLAGS go test ./...", "go test", false},
		{"sudo -u postgres psql -c 'select 1'", "psql", false},
		{"timeout -s KILL 60 cargo test", "cargo test", false},
		{"xargs -I {} wc -l {}", "wc", true},
		{"npx jest --ci", "jest", false},
		{"uv run pytest", "pytest", false},
		{"uv run ruff check .", "ruff", false},
		{"python3 -m pip install -r req.txt", "python3 -m pip", false},
		{"/usr/local/bin/rg -n foo", "rg", false},
		{"ls -la && cat x", "ls", true},
		{"which node", "which", true},
		{"command -v jq", "command", true},
		{"docker --version", "docker", true},
		{"kubectl help", "kubectl help", true},
		{"rg -h", "rg", true},
		{"cat x | grep -c y", "grep", false},
		{"export A=1; cd /x", "", false},
		{"bun run lint:fix 2>&1", "bun run lint:fix", false},
		{"mise run test", "mise run test", false},
		{"(source .venv/bin/activate && pytest -x)", "pytest", false},
		{"if ! make check; then echo no; fi", "make check", false},
		{"git -C /work/app push origin main", "git push", false},
		{"python -c \"import x\nfrom y import z; print(1)\" && echo 'a | b; c'", "python -c", false},
		{"git commit -m \"$(cat <<'EOF'\nFix | the; thing\nEOF\n)\" && git push", "git commit", false},
		{"echo `date; ls` && make", "make", false},
		{"kubectl -n prod get pods", "kubectl get", false},
		// A heredoc's body is text, not commands.
		{"cat > /tmp/t.py <<'EOF'\nimport os\nfrom x import y\ndef f(): pass\nEOF\npython /tmp/t.py", "python t.py", false},
		{"cat > pyproject.toml <<EOF\n[tool.pylint.MASTER]\nEOF\nuv run pytest -q", "pytest", false},
		{"python3 - <<'PY'\nimport sys; sys.exit(1)\nPY", "python3", false},
		{"node -e 'require(\"fs\"); process.exit(1)'", "node -e", false},
		// Runners keep their subject.
		{"python -m pytest tests/", "python -m pytest", false},
		{"python manage.py test", "python manage.py", false},
		{"./tests/runtests.py --parallel 1", "tests/runtests.py", false},
		{"bin/test unit", "bin/test", false},
		{".venv/bin/pytest -x", "pytest", false},
		{"bash -c 'npm test'", "npm test", false},
		// PowerShell and cmd run the command line they are given too.
		{"pwsh.exe -NoLogo -Command sed -n '1,200p' docs/a.md", "sed", false},
		{"powershell -NoProfile -ExecutionPolicy Bypass -Command \"npm run build\"", "npm run build", false},
		{"PowerShell.exe -c \"git push\"", "git push", false},
		{"cmd /c \"npm test\"", "npm test", false},
		{"cmd.exe /s /c dotnet build", "dotnet build", false},
		{"pwsh -File build.ps1", "pwsh", false},
		{"python3 <<'PYEOF'\nimport sys\nPYEOF", "python3", false},
		{"make 2>&1 | tail -5", "make", false},
		{"make test 2>&1", "make test", false},
		{"tox 2>&1", "tox", false},
		{"PW=$(terraform -chdir=/w/tf output -raw pw) psql -c 'select 1'", "psql", false},
		{"git commit -m \"$(date) notes\" && git push", "git commit", false},
		{"$(which python3) -m pytest -x", "python3 -m pytest", false},
		{`\rm -rf build`, "rm", false},
		{`\git push origin main`, "git push", false},
		{`C:\WINDOWS\System32\WindowsPowerShell\v1.0\powershell.exe -NoProfile -Command "Get-Date"`, "Get-Date", false},
		{`C:\WINDOWS\System32\WindowsPowerShell\v1.0\powershell.exe -File C:\build.ps1`, "powershell.exe", false},
		{"PW=$(terraform -chdir=/w/tf output -raw pw)\npsql \"$PW\"", "psql", false},
		{"OUT=$(date) 2>/dev/null gh pr list", "gh pr", false},
		{`"C:/Program Files (x86)/Microsoft Visual Studio/2022/BuildTools/MSBuild/Current/Bin/MSBuild.exe" a.sln`, "MSBuild.exe", false},
		{`"C:\Program Files\Microsoft Visual Studio\18\Community\MSBuild\Current\Bin\MSBuild.exe" a.sln`, "MSBuild.exe", false},
		{"# merge it: the branch may allow it\ngh pr merge 79 --squash", "gh pr", false},
		{"make test # all of them", "make test", false},
		{"echo a#b && cargo build", "cargo build", false},
		{"sudo -u deploy bash -lc '\n  export PNPM_HOME=x\n  pnpm build\n'", "pnpm build", false},
		{"cd ~/app && bun -e \"\nimport { db } from './db.ts';\nconsole.log(1)\"", "bun", false},
		{"swift -e '\nimport Carbon\nprint(1)'", "swift", false},
		{"cd /w && \\\nPYTHONPATH=/w/lib \\\npython3 /w/tools/run.py --all", "python3 run.py", false},
		{"git commit -m 'a && rm -rf b'", "git commit", false},
		// a loop's head and end run nothing: its body does
		{"for f in tests/*.py; do pytest \"$f\" || exit 1; done", "pytest", false},
	}
	for _, tt := range tests {
		f := CommandFamily(tt.cmd)
		if f.String() != tt.want || f.Probe != tt.probe {
			t.Errorf("CommandFamily(%q) = %q probe %v, want %q probe %v", tt.cmd, f, f.Probe, tt.want, tt.probe)
		}
	}
	var names []string
	for _, f := range FixFamilies("ls && go vet ./... 2>&1 && go test ./... | tee out; make -k check |& cat") {
		names = append(names, f.String())
	}
	if got := strings.Join(names, ", "); got != "go vet, tee" {
		t.Errorf("FixFamilies = %s, want go vet, tee (a piped command's status is hidden)", got)
	}
	for _, tt := range []struct{ cmd, errLine, want string }{
		{"mise run fmt && mise run lint", "[lint] ERROR task failed", "mise run lint"},
		{"mise run fmt && mise run lint", "something broke", "mise run lint"},
		{"sed -i 's/a/b/' x.py && python x.py", "Traceback (most recent call last):\nValueError: bad", "python x.py"},
		{"sed -i 's/a/b/' x.py && python x.py", "sed: -e expression #1, char 3: unterminated", "sed"},
		{"go build ./... && go test ./...", "cargo: good", "go test"},
		{"npm test 2>&1 | tail -20", "FAIL src/a.test.js", "npm test"},
		{"go vet ./... && go test ./...", "vet: main.go:3: unreachable code", "go vet"},
		{"npm ci && npm test", "npm ERR! test failed", "npm test"},
	} {
		if got := FailedFamily(tt.cmd, tt.errLine); got.String() != tt.want {
			t.Errorf("FailedFamily(%q, %q) = %s, want %s", tt.cmd, tt.errLine, got, tt.want)
		}
	}
	names = nil
	for _, f := range FixFamilies("set -o pipefail; npm test | tail -5") {
		names = append(names, f.String())
	}
	if got := strings.Join(names, ", "); got != "npm test" {
		t.Errorf("FixFamilies with pipefail = %s", got)
	}
}

// A chain's failure is the stage's that failed, not that of a stage whose
// output happens to name another one, nor of the report closing it.
func TestFailedFamilyOfAChain(t *testing.T) {
	remote := "ssh: connect to host example.org port 22: Operation timed out\nfatal: Could not read from remote repository.\n"
	for _, tt := range []struct{ cmd, out, want string }{
		// the commit ran fine and echoed its message, which says "add"
		{`git add a.go && git commit -m "add the parser" && git push && git status --short`,
			"[main 1a2b3c4] add the parser\n 1 file changed, 3 insertions(+)\n" + remote, "git push"},
		// a report closing an && chain seldom fails: the stage before it did
		{"git pull --rebase && git push && git status", remote, "git push"},
		{"npm run build && git diff --stat", "Build failed with 2 errors", "npm run build"},
		// after ; the shell reports the last command's status
		{"npm run build; git status", "fatal: not a git repository", "git status"},
		// a report that is all the chain does is what failed
		{"cd app && git status", "fatal: not a git repository", "git status"},
		// the error names no stage's subcommand but one stage's program
		{"git status --short\nGet-ChildItem -Force", "fatal: not a git repository (or any of the parent directories): .git", "git status"},
		{"git pull && npm test", "fatal: not a git repository", "git pull"},
		// no line says an error: all of it is read, a hint names the stage
		{"git add dist/app.js && git commit -m 'build'", "The following paths are ignored by one of your .gitignore files:\ndist\nhint: Use -f if you really want to add them.", "git add"},
		// an exit that leaves a loop runs nothing
		{`for f in *.json; do node -e "JSON.parse(1)" "$f" || exit 1; done`, "SyntaxError: Unexpected token", "node -e"},
		// the word that closes an if runs nothing
		{"if command -v shellcheck >/dev/null; then shellcheck a.sh; else bash -n a.sh; fi", "syntax error near unexpected token", "bash a.sh"},
	} {
		if got := FailedFamily(tt.cmd, tt.out); got.String() != tt.want {
			t.Errorf("FailedFamily(%q, %q) = %s, want %s", tt.cmd, tt.out, got, tt.want)
		}
	}
}
