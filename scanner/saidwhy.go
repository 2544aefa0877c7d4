package scanner

import (
	"slices"
	"strings"
)

// saidWhy reports whether the agent, between a failure and the retry
// that worked, named an option or variable the retry added ("vitest
// needs globals enabled" before `--globals`, "set CI" before `CI=1 npm
// test`): a retry the agent explained is a fix it chose, not a rerun
// that happened to pass, even when the error does not name the option.
// An option that turns a check off (--no-verify, --skip-…, --force,
// --ignore-…) is a way around the failure, never its fix.
func saidWhy(said, failing, fixed string) bool {
	if strings.TrimSpace(said) == "" {
		return false
	}
	d, ok := diffCommands(failing, fixed)
	if !ok || d.quoted != "" || d.exe != d.gexe || d.sub != d.gsub || len(d.removed) > 0 || filteredOnly(failing, fixed) {
		return false
	}
	text := strings.ToLower(said)
	explained := false
	for _, w := range d.added {
		name, _, _ := strings.Cut(strings.ToLower(w), "=")
		switch {
		case exploring[w] || checkMode[w]:
			return false
		case strings.HasPrefix(name, "-"):
			name = strings.TrimLeft(name, "-")
		case assignment.MatchString(w):
		default:
			return false // a word, a path, a value: aimed at something else
		}
		if turnsOff(name) {
			return false
		}
		for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' }) {
			// a word the command holds already (test, of cargo test
			// --test-threads) is the agent speaking of the command
			if len(part) >= 4 && containsWord(text, part) && !containsWord(strings.ToLower(failing), part) {
				explained = true
			}
		}
	}
	return explained
}

// checkSkipped returns the option or variable worked added to failing
// that switches a check off (--no-verify, --skip-tests, -DskipTests,
// SKIP=lint, --no-gpg-sign), or "". A call that went through so did not
// get past the failure: the check still fails.
func checkSkipped(failing, worked string) string {
	had := map[string]bool{}
	for _, seg := range segments(failing) {
		for _, w := range seg {
			had[w] = true
		}
	}
	for _, w := range slices.Concat(segments(worked)...) {
		if had[w] {
			continue
		}
		name, _, _ := strings.Cut(strings.ToLower(w), "=")
		if !strings.HasPrefix(name, "-") && !assignment.MatchString(w) {
			continue
		}
		if skipsCheck(strings.TrimLeft(name, "-")) {
			return w
		}
	}
	return ""
}

// skipsCheck reports whether an option's or a variable's name (lower
// case, no dashes) says it skips a check: a skip or a bypass, or a check
// (verify, hooks, lint, tests, signing) turned off.
func skipsCheck(name string) bool {
	if strings.Contains(name, "skip") || strings.Contains(name, "bypass") {
		return true
	}
	off := false
	for _, p := range []string{"no-", "no_", "disable", "ignore"} {
		off = off || strings.HasPrefix(name, p)
	}
	if !off {
		return false
	}
	for _, c := range []string{"verify", "check", "hook", "lint", "test", "sign", "validat"} {
		if strings.Contains(name, c) {
			return true
		}
	}
	return false
}

// turnsOff reports whether an option's name says it skips or forces
// past a check.
func turnsOff(name string) bool {
	for _, p := range []string{"no-", "no_", "skip", "ignore", "force", "disable", "allow", "bypass"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return name == "f" || name == "yes" || name == "y"
}
