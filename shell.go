package lessons

import (
	"path"
	"strings"
)

// A shell given a command line runs it: `bash -lc "npm test"`, `pwsh
// -NoProfile -Command Get-Content a.txt`, `cmd /c npm test`. Codex sends
// its shell tool's command as such an argv (["pwsh.exe", "-NoLogo",
// "-Command", "…"] on Windows), and agents wrap their commands in one;
// the command it runs is what the call does.

// Kinds of shell, by how they take a command line.
const (
	posixShell = "sh"   // -c SCRIPT, alone or among short options (-lc, -ec)
	powerShell = "pwsh" // -Command (or -c) and every word after it
	cmdShell   = "cmd"  // /c or /k and every word after it
)

// shellKind is the kind of shell an executable's base name names, or "".
// Windows names are matched without case and without ".exe".
func shellKind(exe string) string {
	if len(exe) > 4 && strings.EqualFold(exe[len(exe)-4:], ".exe") {
		exe = exe[:len(exe)-4]
	}
	switch {
	case exe == "bash" || exe == "sh" || exe == "zsh" || exe == "dash":
		return posixShell
	case strings.EqualFold(exe, "pwsh") || strings.EqualFold(exe, "powershell"):
		return powerShell
	case strings.EqualFold(exe, "cmd"):
		return cmdShell
	}
	return ""
}

// pwshValued holds PowerShell's options (lower case, as abbreviated too)
// that take a value before -Command: `powershell -ExecutionPolicy
// Bypass -Command …`.
var pwshValued = map[string]bool{
	"-executionpolicy": true, "-ep": true, "-ex": true, "-windowstyle": true, "-w": true, "-workingdirectory": true, "-wd": true,
	"-outputformat": true, "-o": true, "-of": true, "-inputformat": true, "-inp": true, "-if": true, "-version": true, "-v": true,
	"-configurationname": true, "-config": true, "-psconsolefile": true, "-settingsfile": true, "-custompipename": true,
}

// shellRuns is the command line a shell of kind given args runs, and
// whether they give one: a shell run on a script file, or alone, runs
// none.
func shellRuns(kind string, args []string) (string, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch kind {
		case posixShell:
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], 'c') >= 0 {
				if i+1 < len(args) {
					return args[i+1], true
				}
				return "", false
			}
			if !strings.HasPrefix(a, "-") {
				return "", false
			}
		case powerShell:
			low := strings.ToLower(a)
			switch {
			case low == "-c" || low == "-command" || len(low) >= 4 && strings.HasPrefix("-command", low):
				return strings.Join(args[i+1:], " "), i+1 < len(args)
			case pwshValued[low]:
				i++
			case !strings.HasPrefix(a, "-") || low == "-file" || low == "-f":
				return "", false
			}
		case cmdShell:
			switch low := strings.ToLower(a); {
			case low == "/c" || low == "/k":
				return strings.Join(args[i+1:], " "), i+1 < len(args)
			case !strings.HasPrefix(a, "/"):
				return "", false
			}
		}
	}
	return "", false
}

// ShellArgvCommand is the command line an argv that runs a shell on one
// gives it (["bash", "-lc", "make test"] is make test, ["pwsh.exe",
// "-NoLogo", "-Command", "rg -n x"] is rg -n x), and whether it is one.
func ShellArgvCommand(argv []string) (string, bool) {
	if len(argv) < 3 {
		return "", false
	}
	kind := shellKind(path.Base(strings.ReplaceAll(argv[0], "\\", "/")))
	if kind == "" {
		return "", false
	}
	return shellRuns(kind, argv[1:])
}
