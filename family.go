package lessons

import (
	"path"
	"slices"
	"strings"
)

// Family is what a shell command runs, as capture and replay group
// calls: the executable and, for tools made of subcommands, the
// subcommand ("npm test", "git push", "rg"). A failure and its fix share
// a family, and a failure repeats an earlier one of its family.
type Family struct {
	// Exe is the executable's base name, past wrappers such as sudo, env,
	// npx and uv run; "" for a command that only sets up (cd, export).
	Exe string
	// Sub is the subcommand of a tool made of them ("push" for git), with
	// the script's name for a script runner ("run lint" for npm run
	// lint), or "-m pip" for python -m pip; else "".
	Sub string
	// Probe: the command only looks around (--help, --version, which,
	// ls, cat…); its failure teaches nothing worth a lesson.
	Probe bool
}

// String is the family's name: Exe, then Sub if any ("git push").
func (f Family) String() string {
	if f.Sub == "" {
		return f.Exe
	}
	return f.Exe + " " + f.Sub
}

// CommandFamily names the family of a shell command: that of its first
// simple command that does something and is no probe (`cd app && npm
// test | tail` is "npm test"), else of its first probe, else the zero
// Family.
func CommandFamily(command string) Family {
	var first Family
	for _, seg := range segments(command) {
		f := segmentFamily(strings.Fields(seg.text))
		if f.Exe == "" {
			continue
		}
		if !f.Probe {
			return f
		}
		if first.Exe == "" {
			first = f
		}
	}
	return first
}

// maxFamilies caps the families a successful call is checked for.
const maxFamilies = 4

// FixFamilies are the distinct families, at most four, a successful
// command may have fixed: its simple commands that do something, are no
// probes, and whose exit status the shell did not hide in a pipe (`go vet
// ./... && go test ./...` may fix a failed `go test`; `npm test | tail`
// says nothing about npm, unless the line sets pipefail).
func FixFamilies(command string) []Family {
	var out []Family
	for _, seg := range segments(command) {
		if seg.piped && !strings.Contains(command, "pipefail") {
			continue
		}
		f := segmentFamily(strings.Fields(seg.text))
		if f.Exe != "" && !f.Probe && !slices.Contains(out, f) {
			if out = append(out, f); len(out) == maxFamilies {
				break
			}
		}
	}
	return out
}

// FailedFamily is the family of a failed command line: of its simple
// commands that may have failed (`mise run fmt && mise run lint`), the
// last one errLine, the line of its output that says what went wrong,
// names ("[lint] ERROR task failed"); else CommandFamily(command).
func FailedFamily(command, errLine string) Family {
	fams := FixFamilies(command)
	for i := len(fams) - 1; i >= 0; i-- {
		f := fams[i]
		name := f.Exe
		if f.Sub != "" {
			name = f.Sub[strings.LastIndexByte(f.Sub, ' ')+1:]
		}
		if len(fams) > 1 && len(name) >= 2 && strings.Contains(errLine, name) {
			return f
		}
	}
	return CommandFamily(command)
}

// segmentFamily is the family of one simple command; its Exe is "" for
// one that only sets up (cd, export).
func segmentFamily(words []string) Family {
	if len(words) >= 2 && words[0] == "command" && (words[1] == "-v" || words[1] == "-V") {
		return Family{Exe: "command", Probe: true}
	}
	words = skipWrappers(words)
	if len(words) == 0 {
		return Family{}
	}
	exe := path.Base(strings.Trim(words[0], `"'`))
	if setup[exe] {
		return Family{}
	}
	f := Family{Exe: exe}
	args := words[1:]
	if subcommands[exe] {
		for i := 0; i < len(args); i++ {
			w := args[i]
			if optionArgs[exe+" "+w] {
				i++ // git -C DIR push: DIR is no subcommand
				continue
			}
			if !strings.HasPrefix(w, "-") {
				f.Sub = strings.Trim(w, `"'`)
				if scriptRunners[f.Sub] && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
					f.Sub += " " + strings.Trim(args[i+1], `"'`) // npm run lint: the script is the intent
				}
				break
			}
		}
	}
	if exe == "python" || exe == "python3" {
		if len(args) >= 2 && args[0] == "-m" {
			f.Sub = "-m " + args[1]
		}
	}
	f.Probe = probes[exe] || isProbe(f, args)
	return f
}

// segment is one simple command of a command line.
type segment struct {
	text string
	// piped: its output goes into another command, whose exit status the
	// shell reports instead of its own.
	piped bool
}

// segments splits a command at the shell's command separators (&&, ||,
// ;, &, |, newlines) outside quotes and $(…). Heredocs are not parsed:
// their lines split too, which at worst names the wrong family, and then
// no nudge comes. Redirections such as 2>&1 are not separators.
func segments(command string) []segment {
	var out []segment
	start := 0
	add := func(end int, piped bool) {
		if t := strings.TrimSpace(command[start:end]); t != "" {
			out = append(out, segment{text: t, piped: piped})
		}
	}
	var quote byte // ' or " while inside quotes
	depth := 0     // $( … ) and ` … ` nesting
	for i := 0; i < len(command); i++ {
		c := command[i]
		next := byte(0)
		if i+1 < len(command) {
			next = command[i+1]
		}
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
			continue
		case c == '\\':
			i++ // an escaped character
			continue
		case quote == '"':
			if c == '"' {
				quote = 0
			}
			continue
		case c == '\'' || c == '"':
			quote = c
			continue
		case c == '$' && next == '(':
			depth++
			i++
			continue
		case c == '`':
			if depth > 0 && i > 0 {
				depth--
			} else {
				depth++
			}
			continue
		case c == ')' && depth > 0:
			depth--
			continue
		case depth > 0:
			continue
		}
		switch {
		case c == '&' && (i > 0 && command[i-1] == '>' || next == '>'):
			// 2>&1, &>file: a redirection
		case c == '|' && next == '|', c == '&' && next == '&':
			add(i, false)
			i++
			start = i + 1
		case c == '|':
			add(i, true)
			if next == '&' { // |& pipes stderr too
				i++
			}
			start = i + 1
		case c == ';', c == '&', c == '\n':
			add(i, false)
			start = i + 1
		}
	}
	add(len(command), false)
	return out
}

// skipWrappers drops leading variable assignments and commands that run
// another one.
func skipWrappers(words []string) []string {
	for len(words) > 0 {
		w := strings.TrimLeft(words[0], "({!") // a subshell, a group, a negation
		if w == "" {
			words = words[1:]
			continue
		}
		words[0] = w
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "="):
			words = words[1:]
		case wrappers[w]:
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				words = words[1:] // the wrapper's own flags
			}
			if w == "timeout" && len(words) > 0 {
				words = words[1:] // its duration
			}
		case (w == "uv" || w == "poetry" || w == "pipenv" || w == "pdm") && len(words) > 1 && words[1] == "run",
			w == "bundle" && len(words) > 1 && words[1] == "exec":
			words = words[2:]
		default:
			return words
		}
	}
	return words
}

var wrappers = setOf("sudo", "env", "time", "nice", "nohup", "timeout", "command", "exec", "npx", "bunx", "pnpx", "xargs", "stdbuf",
	"if", "then", "else", "elif", "do", "while", "until")

// optionArgs are options before a subcommand that take the next word.
var optionArgs = setOf("git -C", "git -c", "go -C", "make -C", "make -f", "docker -H", "docker --context", "kubectl -n",
	"kubectl --namespace", "kubectl --context", "npm --prefix", "npm -w", "npm --workspace", "pnpm -C", "pnpm --dir",
	"pnpm -F", "pnpm --filter", "yarn --cwd", "cargo --manifest-path", "terraform -chdir")

// scriptRunners are subcommands that run a named script or task: the
// name belongs to the family (npm run lint and npm run test differ).
var scriptRunners = setOf("run", "run-script", "exec", "task", "x")

// setup are commands that prepare for the real one in the same line.
var setup = setOf("cd", "pushd", "popd", "export", "source", ".", "set", "unset", "sleep", "true", ":", "mkdir")

// subcommands are tools whose second word names what they do.
var subcommands = setOf("git", "npm", "pnpm", "yarn", "bun", "deno", "go", "cargo", "docker", "podman", "kubectl", "helm",
	"gh", "glab", "pip", "pip3", "uv", "poetry", "conda", "brew", "apt", "apt-get", "dnf", "yum", "systemctl", "terraform",
	"tofu", "aws", "gcloud", "az", "dotnet", "mvn", "gradle", "make", "just", "rake", "rails", "mix", "stack", "cabal",
	"nix", "composer", "rustup", "flutter", "swift", "gem", "bundle", "heroku", "fly", "vercel", "supabase", "wrangler",
	"mise", "task", "nx", "turbo", "pixi", "hatch", "tox", "nox", "invoke")

// probes are commands that only look around.
var probes = setOf("which", "whereis", "type", "ls", "ll", "la", "cat", "head", "tail", "less", "more", "pwd", "echo",
	"printf", "file", "stat", "wc", "tree", "printenv", "man", "whoami", "id", "uname", "date", "hostname", "realpath",
	"readlink", "dirname", "basename", "du", "df")

// isProbe reports whether the arguments ask a tool about itself: --help,
// --version, a help or version subcommand, `command -v`.
func isProbe(f Family, args []string) bool {
	if f.Sub == "help" || f.Sub == "version" || f.Sub == "--version" {
		return true
	}
	for _, a := range args {
		if a == "--help" || a == "--version" || a == "-help" {
			return true
		}
	}
	return len(args) == 1 && (args[0] == "-h" || args[0] == "-v" || args[0] == "-V")
}

// setOf is a set of words.
func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
