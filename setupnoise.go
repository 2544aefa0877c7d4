package lessons

import "strings"

// The shell an agent's tool starts reads the user's start-up files before
// every command (Claude Code sources a snapshot of them from its config
// folder's shell-snapshots/): an error in one of them (an alias it cannot
// define, a program ~/.bashrc calls that is not installed, conda's
// profile.d script under zsh) is printed with the output of every command,
// failed or not, and is never the command's own. It is read where the
// shell puts it: "<file>: line N: …" (bash, sh) or "<file>:N: …" (zsh),
// often at the start of the output, sometimes after a line the agent's
// tool wrote ("Command timed out after 2m 0.0s /home/a/.bashrc: line 1:
// gh: command not found").

// startupFiles are the start-up files a shell reads in the home folder or
// in /etc, by the name that ends their path.
var startupFiles = []string{"/.bashrc", "/.bash_profile", "/.bash_login", "/.profile", "/.zshrc", "/.zshenv",
	"/.zprofile", "/.zlogin", "/etc/profile", "/etc/bash.bashrc", "/etc/zshrc", "/etc/zprofile"}

// maxSetupLine is how much of a line SetupNoise reads.
const maxSetupLine = 2048

// startupDirs hold scripts start-up files source, whatever their name.
var startupDirs = []string{"/profile.d/", "/shell-snapshots/snapshot-"}

// SetupNoise reports whether a line holds an error of the shell's
// start-up files, and returns what comes before it on the line (trimmed;
// "" when the whole line is that error). Only a line's first
// maxSetupLine bytes are read: such an error is a short line, and the
// hook reads what a call printed, which may be made to be anything.
func SetupNoise(l string) (before string, ok bool) {
	h := l[:min(len(l), maxSetupLine)]
	if !strings.Contains(h, "/.") && !strings.Contains(h, "/etc/") && !strings.Contains(h, "/profile.d/") && !strings.Contains(h, "/shell-snapshots/") {
		return l, false // every line an output has pays this, and few hold such a path
	}
	for _, m := range startupFiles {
		for from := 0; ; {
			i := strings.Index(h[from:], m)
			if i < 0 {
				break
			}
			i += from
			start := tokenStart(h, i)
			if homeOrEtc(h[start:i], m) && shellPlace(h[i+len(m):]) {
				return strings.TrimSpace(h[:start]), true
			}
			from = i + len(m)
		}
	}
	for _, m := range startupDirs {
		i := strings.Index(h, m)
		if i < 0 {
			continue
		}
		end := i + len(m)
		for end < len(h) && h[end] != ':' && h[end] != ' ' {
			end++
		}
		if start := tokenStart(h, i); shellPlace(h[end:]) {
			return strings.TrimSpace(h[:start]), true
		}
	}
	return l, false
}

// tokenStart is where the path that holds index i starts: after the
// space before it, or the line's start.
func tokenStart(l string, i int) int {
	return strings.LastIndexAny(l[:i], " \t") + 1
}

// homeOrEtc reports whether dir, the path before a start-up file's name
// m, is a home folder ("~", "/root", "/home/a", "/Users/a", Git Bash's
// "/c/Users/a"), or nothing before a file of /etc: a start-up file of a
// project (a dotfiles repository's zsh/.zshrc) is the project's.
func homeOrEtc(dir, m string) bool {
	if strings.HasPrefix(m, "/etc/") {
		return dir == ""
	}
	switch parts := strings.Split(strings.TrimPrefix(dir, "/"), "/"); {
	case dir == "~" || dir == "/root" || dir == "$HOME":
		return true
	case len(parts) == 2:
		return parts[0] == "home" || parts[0] == "Users"
	case len(parts) == 3:
		return len(parts[0]) == 1 && parts[1] == "Users" // a drive, in Git Bash's or MSYS2's form
	}
	return false
}

// shellPlace reports whether rest, what follows a file's path, is where
// a shell says an error of that file is: ": line N: " or ":N: ".
func shellPlace(rest string) bool {
	if r, ok := strings.CutPrefix(rest, ": line "); ok {
		rest = ":" + r
	}
	r, ok := strings.CutPrefix(rest, ":")
	if !ok {
		return false
	}
	n := 0
	for n < len(r) && r[n] >= '0' && r[n] <= '9' {
		n++
	}
	return n > 0 && strings.HasPrefix(r[n:], ": ")
}
