package agents

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Agent is a coding agent lessons installs into, and how.
type Agent struct {
	// Name is what --platform takes and what the hook is told.
	Name string
	// Title names the agent for people.
	Title string
	// Events are the hook events lessons adds an entry for, in the order
	// they are added.
	Events []Event
	// Millis says the agent counts hook timeouts in milliseconds, not
	// seconds.
	Millis bool
	// NamesHooks gives each hook a name (Gemini CLI shows it in /hooks).
	NamesHooks bool
	// Plugin says the agent has no command hooks: lessons installs a
	// plugin file instead of editing a settings file.
	Plugin bool
	// HookName, when set, is the name lessons' hooks sit under in a
	// hooks.json grouped by hook name, then event (Antigravity CLI's).
	HookName string
	// user and project are where its file lives, in the user's home or
	// at the project root; more, where else it may (see Paths).
	user    func(Env) string
	project func(root string) string
	more    func(e Env, root string) []string
}

// Event is one hook event lessons answers.
type Event struct {
	Name    string
	Matcher string // "" leaves the matcher out: every occurrence
	// Seconds is how long the agent waits for the hook.
	Seconds int
	// Since is the first release of the agent that has the event, "" for
	// every release lessons supports.
	Since string
}

// hookTimeout is how long an agent lets `lessons hook` run. The hook
// answers in milliseconds; the margin covers the rare manifest rebuild.
const hookTimeout = 10

// Agents are the agents lessons supports, by name.
var Agents = map[string]*Agent{
	"claude": {
		Name: "claude", Title: "Claude Code",
		Events: []Event{
			{"PreToolUse", "*", hookTimeout, ""},
			{"SessionStart", "", hookTimeout, ""},
			{"SubagentStart", "", hookTimeout, ""},
			{"UserPromptSubmit", "", hookTimeout, ""},
			// Live capture: a fix is a shell call; a rejection, any call.
			{"PostToolUse", "Bash", hookTimeout, ""},
			{"PostToolUseFailure", "*", hookTimeout, ""},
			// A skill's or slash command's !`cmd` line: blocks and asks only.
			{"PreSkillShellCommand", "*", hookTimeout, "2.1.332"},
		},
		user: func(e Env) string {
			if d := e.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
				return filepath.Join(d, "settings.json")
			}
			return filepath.Join(e.Home, ".claude", "settings.json")
		},
		project: func(root string) string { return filepath.Join(root, ".claude", "settings.json") },
	},
	"codex": {
		Name: "codex", Title: "Codex CLI",
		Events: []Event{
			{"PreToolUse", "", hookTimeout, ""},
			{"SessionStart", "", hookTimeout, ""},
			{"UserPromptSubmit", "", hookTimeout, ""},
			{"PostToolUse", "", hookTimeout, ""},
		},
		user: func(e Env) string {
			if d := e.Getenv("CODEX_HOME"); d != "" {
				return filepath.Join(d, "hooks.json")
			}
			return filepath.Join(e.Home, ".codex", "hooks.json")
		},
		project: func(root string) string { return filepath.Join(root, ".codex", "hooks.json") },
	},
	"gemini": {
		Name: "gemini", Title: "Gemini CLI", Millis: true, NamesHooks: true,
		Events: []Event{
			{"BeforeTool", "*", hookTimeout, ""},
			{"AfterTool", "*", hookTimeout, ""},
			{"BeforeAgent", "", hookTimeout, ""},
			{"SessionStart", "", hookTimeout, ""},
		},
		user:    func(e Env) string { return filepath.Join(geminiHome(e), ".gemini", "settings.json") },
		project: func(root string) string { return filepath.Join(root, ".gemini", "settings.json") },
	},
	"antigravity": antigravity,
	"opencode": {
		Name: "opencode", Title: "opencode", Plugin: true,
		user: func(e Env) string {
			config := filepath.Join(e.Home, ".config")
			if d := e.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
				config = d
			}
			return filepath.Join(config, "opencode", "plugins", PluginFile)
		},
		project: func(root string) string { return filepath.Join(root, ".opencode", "plugins", PluginFile) },
	},
}

// Names are the supported agents' names, sorted.
func Names() []string {
	var out []string
	for n := range Agents {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Env is what the file locations depend on.
type Env struct {
	Home   string
	Getenv func(string) string
}

// EnvFrom reads the home directory through getenv, falling back to the
// user's.
func EnvFrom(getenv func(string) string) Env {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return Env{Home: home, Getenv: getenv}
}

// Path is the agent's settings file (or plugin file): the user's, or the
// project's when root is not "".
func (a *Agent) Path(env Env, root string) string {
	if root != "" {
		return a.project(root)
	}
	return a.user(env)
}

// Paths are every file install writes at a level: Path, then, for an
// agent whose documented and observed locations differ, the others.
func (a *Agent) Paths(env Env, root string) []string {
	out := []string{a.Path(env, root)}
	if a.more != nil {
		out = append(out, a.more(env, root)...)
	}
	return out
}

// Command is the hook command line for the lessons binary at bin.
func (a *Agent) Command(bin string) string {
	return quoteProgram(runtime.GOOS, bin) + " hook --platform " + a.Name
}

// hookGroup is one entry of an event's list in Claude Code's, Codex's
// and Gemini CLI's shared settings shape.
type hookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []hookCommand `json:"hooks"`
}

type hookCommand struct {
	Name    string `json:"name,omitempty"`
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

// group is the entry lessons adds for ev.
func (a *Agent) group(ev Event, bin string) hookGroup {
	h := hookCommand{Type: "command", Command: a.Command(bin), Timeout: ev.Seconds}
	if a.Millis {
		h.Timeout *= 1000
	}
	if a.NamesHooks {
		h.Name = "lessons-" + strings.ToLower(ev.Name)
	}
	return hookGroup{Matcher: ev.Matcher, Hooks: []hookCommand{h}}
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@%=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quoteProgram writes the path of a program for the command line an agent
// hands to its shell on goos: POSIX quoting, except on Windows, where the
// shell may be cmd.exe, which knows no single quotes; there the path gets
// forward slashes (every Windows shell and API takes them) and double
// quotes when it needs any.
func quoteProgram(goos, bin string) string {
	if goos != "windows" {
		return shellQuote(bin)
	}
	bin = strings.ReplaceAll(bin, `\`, "/")
	if strings.Trim(bin, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@%=,") == "" {
		return bin
	}
	return `"` + bin + `"`
}

// commandBinary is the program a hook command line runs and whether it
// runs it as `PROGRAM hook`: the first word, unquoted.
func commandBinary(cmd string) (bin string, isHook bool) {
	cmd = strings.TrimSpace(cmd)
	var rest string
	switch {
	case strings.HasPrefix(cmd, "'"):
		var b strings.Builder
		for strings.HasPrefix(cmd, "'") {
			end := strings.IndexByte(cmd[1:], '\'')
			if end < 0 {
				return "", false
			}
			b.WriteString(cmd[1 : end+1])
			cmd = cmd[end+2:]
			if r, ok := strings.CutPrefix(cmd, `\'`); ok {
				b.WriteByte('\'')
				cmd = r
			}
		}
		bin, rest = b.String(), cmd
	case strings.HasPrefix(cmd, `"`):
		end := strings.IndexByte(cmd[1:], '"')
		if end < 0 {
			return "", false
		}
		bin, rest = cmd[1:end+1], cmd[end+2:]
	default:
		bin, rest, _ = strings.Cut(cmd, " ")
		rest = " " + rest
	}
	fields := strings.Fields(rest)
	return bin, len(fields) > 0 && fields[0] == "hook"
}

// isOurs reports whether a hook command line runs `lessons hook`.
func isOurs(cmd string) bool {
	bin, hook := commandBinary(cmd)
	name := filepath.Base(strings.ReplaceAll(bin, `\`, "/"))
	return hook && strings.TrimSuffix(strings.ToLower(name), ".exe") == "lessons"
}

// ProjectRoot is where a project's agent settings and instruction files
// belong: the nearest ancestor of dir (dir included) holding .git, else
// dir.
func ProjectRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
