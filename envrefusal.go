package lessons

import (
	"cmp"
	"strings"
)

// envRefusal is one kind of refusal and how it is printed.
type envRefusal struct {
	kind    string
	said    string   // what a lesson says was refused
	phrases []string // lower case, as read in a lowered line
	pattern string   // ECMAScript, linear: finds any of them as printed
	by      string   // what refused: the environment (""), the shell, the agent's permission settings
}

// Who refused, when not the environment.
const (
	byShell = "The shell"                       // the command line, not the machine the command
	byAgent = "The agent's permission settings" // the call, not the command
	byTool  = "The agent's shell tool"          // the command line, by a rule of the agent's tool
)

// An environment's refusal is a failure the call did not cause: the
// sandbox an agent's shell runs in, or the machine, would not let it
// reach the network, refused the operation (EPERM: a socket, a file
// outside the workspace) or held the file system read-only. It comes
// back with whatever command meets it — `go test` that cannot write the
// build cache, `npm install` that cannot reach the registry — so its
// class names the refusal, whatever the wording and the command
// ("refused: network"), and a lesson on it holds for any command
// (ClassObject). The wordings are the operating system's and its
// resolvers' (errno texts, getaddrinfo, curl, git, Go, Node), never one
// tool's.
var refusals = []envRefusal{
	{"network", "network access", []string{"could not resolve host", "temporary failure in name resolution", "name or service not known",
		"nodename nor servname provided", "getaddrinfo enotfound", "getaddrinfo eai_again", ": no such host",
		"network is unreachable", "enetunreach"},
		`(?i)could not resolve host|temporary failure in name resolution|name or service not known|nodename nor servname provided|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|: no such host|network is unreachable|ENETUNREACH`, ""},
	{"operation not permitted", "the operation (not permitted)", []string{"operation not permitted", " eperm"},
		`(?i)operation not permitted|\bEPERM\b`, ""},
	{"read-only file system", "a write (read-only file system)", []string{"read-only file system", " erofs"},
		`(?i)read-only file system|\bEROFS\b`, ""},
	// sudo asking for a password: an agent's shell runs with no terminal
	// to type it in, whatever the command (sudo's own words, 1.8 and 1.9).
	{"sudo password", "a command that needs sudo's password (the agent's shell has no terminal to type it in: ask the user to run it)",
		[]string{"sudo: a terminal is required", "sudo: a password is required", "sudo: no tty present"},
		`sudo: (?:a terminal is required|a password is required|no tty present)`, ""},
	// A login that asks where there is no terminal to answer: git over
	// https with no stored credentials (git's own words, with
	// GIT_TERMINAL_PROMPT=0 or without a tty), ssh that cannot ask to
	// trust a host's key (OpenSSH's), whatever command met it (git clone,
	// go get, npm install of a git dependency). A key the host refuses
	// ("Permission denied (publickey)") is not one: the call may name the
	// wrong key.
	{"credentials", "a login that asks for credentials or a host's key (the agent's shell has no terminal to answer: use a remote, token or key the machine already has, or ask the user)",
		[]string{"could not read username for", "could not read password for", "terminal prompts disabled", "host key verification failed"},
		`could not read (?:Username|Password) for|terminal prompts disabled|Host key verification failed`, ""},
	// The agent's own permission settings, in Claude Code's words (its
	// bundle's permission messages, 2.1.197 to 2.1.332): the call needs an
	// approval the session did not have (a rule asks, don't-ask mode or
	// the auto mode classifier denies).
	{"permission", "the call (it needs an approval the session did not have)",
		[]string{"this command requires approval", "requires approval for this", "running in don't ask mode", "permission to use bash with command ",
			"permission for this action has been denied", "permission for this action was denied"},
		`This command requires approval|requires approval for this|running in don't ask mode|Permission to use Bash with command |Permission for this action (?:has been|was) denied`, byAgent},
	// The agent's shell tool's rule on where a command may reach (Claude
	// Code's words, its bundle 2.1.332 and earlier versions: "cd to 'X'
	// was blocked", "Read in 'X' was blocked"), whatever program it runs:
	// the command line is what a retry changes, as for the shell's own.
	{"working directories", "a `cd` or a path out of the session's working directories (pass the folder to the command, as `git -C DIR`, rather than `cd` into it; a file out of them needs the user to add its folder)",
		[]string{"was blocked. for security, claude code may only"}, `was blocked\. For security, Claude Code may only`, byTool},
	// The shell's own refusals: the command line, whatever program it
	// runs, broke a rule of the shell the agent's tool runs it in, in the
	// shells' own words (zsh, bash, fish, Windows PowerShell).
	{"unmatched glob", "an unquoted *, ? or [ ] that matched no file (zsh and fish expand them before the command runs: quote URLs and patterns)",
		[]string{": no matches found: ", "no matches for wildcard"}, `:\s*no matches found: |No matches for wildcard`, byShell},
	{"read-only variable", "an assignment to one of its read-only variables (zsh's status, path; bash's UID)",
		[]string{": read-only variable: ", ": readonly variable"}, `: read-?only variable`, byShell},
	{"statement separator", "`&&` or `||` between commands (Windows PowerShell 5 has neither: use `;`, or `if ($?) { … }`)",
		[]string{"is not a valid statement separator"}, `is not a valid statement separator`, byShell},
}

// ShellGlobRefusal is the class of a command line the shell refused for
// an unquoted pattern that matched no file.
const ShellGlobRefusal = refusedPrefix + "unmatched glob"

// refusedPrefix starts the class of an environment's refusal.
const refusedPrefix = "refused: "

// refusal is the kind of refusal a lowered line says, or "".
func refusal(low string) string {
	for _, r := range refusals {
		if containsAny(low, r.phrases) {
			return r.kind
		}
	}
	return ""
}

// refusalOf is the refusal a class names, or nil for another class.
func refusalOf(class string) *envRefusal {
	k, ok := strings.CutPrefix(class, refusedPrefix)
	if !ok {
		return nil
	}
	for i := range refusals {
		if refusals[i].kind == k {
			return &refusals[i]
		}
	}
	return nil
}

// refusalObject is the kind and the pattern of a refusal's class, or ""
// and "" for another class.
func refusalObject(class string) (kind, pattern string) {
	if r := refusalOf(class); r != nil {
		return r.kind, r.pattern
	}
	return "", ""
}

// IsRefusal reports whether class is an environment's or a shell's
// refusal.
func IsRefusal(class string) bool { return refusalOf(class) != nil }

// EnvRefusal reports whether class is a refusal of the environment the
// call ran in (the network, an operation, a read-only file system) or
// of the agent's permission settings: a cause outside the command, as
// a refusal of the command line (the shell's, the agent's shell tool's)
// is not.
func EnvRefusal(class string) bool {
	r := refusalOf(class)
	return r != nil && (r.by == "" || r.by == byAgent)
}

// AgentRefusal reports whether class is a refusal of the agent's own
// permission settings: a policy the user set, which no way around the
// call is a fix for.
func AgentRefusal(class string) bool {
	r := refusalOf(class)
	return r != nil && r.by == byAgent
}

// RefusalSaid is what a lesson says refused what, for a refusal's class
// ("The environment refused network access", "The shell refused an
// unquoted * … that matched no file", "The agent's permission settings
// refused the call"), else "".
func RefusalSaid(class string) string {
	r := refusalOf(class)
	if r == nil {
		return ""
	}
	return cmp.Or(r.by, "The environment") + " refused " + r.said
}
