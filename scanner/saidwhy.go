package scanner

import (
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
