package scanner

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/lessons-dev/lessons"
)

// A failure whose output already says what to do ("run `vp check --fix`
// to fix them", `Expected "text" | "markdown"`, "run `rustup component
// add llvm-tools`") is got past by doing what it says. A lesson shown
// after that error tells the agent nothing the error does not: it is
// said as a reminder, never proposed to the team (Signals.Reminds).

// echoes reports whether worked, the call or steps that got past a
// failure, adds to failed only words the failure's output already holds:
// every word of worked that failed lacks is in output, and one of them
// is a name or an option, not a short word ("Use -f if you really want
// to add them"); never for a usage error, whose text lists every option.
// A redirection the fix added (2>&1) is no word of it.
func echoes(output, failed, worked string) bool {
	if lessons.ErrorClass(output) == "usage" {
		// a usage text lists every option: which one was meant is the
		// lesson's, unless the message before it names it ("--visibility
		// requires --accept-visibility-change-consequences"), or the call
		// asked for nothing (claude mcp) and the fix picked a subcommand
		// the usage listed: what to ask was the task's
		if d, ok := diffCommands(failed, worked); !ok || !d.givenWhatToDo() {
			output = beforeUsage(output)
		}
	}
	if namesCommand(output, failed, worked) || printsCall(output, failed, worked) {
		return true
	}
	had := map[string]bool{}
	for _, w := range fixWords(failed) {
		had[w] = true
	}
	named := false
	for _, w := range fixWords(redirect.ReplaceAllString(worked, " ")) {
		if w == "" || had[w] {
			continue
		}
		if !containsWord(output, w) {
			return false
		}
		named = named || (len(w) >= 3 || strings.HasPrefix(w, "-")) && strings.ContainsFunc(w, unicode.IsLetter)
	}
	return named
}

// beforeUsage is an output up to the usage text it prints ("Usage:"
// at a line's start), lower case or not.
func beforeUsage(output string) string {
	for i := 0; i < len(output); {
		line, _, _ := strings.Cut(output[i:], "\n")
		if t := strings.TrimSpace(line); len(t) >= 6 && strings.EqualFold(t[:6], "usage:") {
			return output[:i]
		}
		i += len(line) + 1
	}
	return output
}

// namesCommand reports whether worked runs another command than failed,
// one the output names by its first two words: "Install with `python3
// -m pip install typer`", "(e.g., 'git pull ...')". The error told the
// agent what to run; the fix's other words (a flag, a branch) are its
// choice of the day.
func namesCommand(output, failed, worked string) bool {
	w := strings.Fields(worked)
	for len(w) > 0 && strings.Contains(w[0], "=") {
		w = w[1:] // a variable set for the command
	}
	if len(w) < 2 || strings.ContainsAny(w[0]+w[1], "`'\"|&;<>()$") {
		return false
	}
	head := w[0] + " " + w[1]
	if strings.HasPrefix(strings.Join(strings.Fields(failed), " ")+" ", head+" ") {
		return false
	}
	next := ""
	if len(w) > 2 && plainWord.MatchString(w[2]) {
		next = w[2] // a subcommand: go mod download is not the go mod tidy the output names
	}
	for rest := output; ; {
		i := strings.Index(rest, head)
		if i < 0 {
			return false
		}
		before, after := rest[:i], rest[i+len(head):]
		rest = after
		if before != "" && isWordByte(before[len(before)-1]) || after != "" && isWordByte(after[0]) {
			continue
		}
		if f := strings.Fields(after); next == "" || len(f) == 0 || !plainWord.MatchString(f[0]) || f[0] == next {
			return true
		}
	}
}

// printsCall reports whether a line of the output prints the call that
// worked, its options perhaps spelled another way: the call's first two
// words and every other word the fix added that is not an option ("use
// git push --set-upstream origin main" before git push -u origin main
// worked). The error said what to run; the spelling of the option is
// the agent's.
func printsCall(output, failed, worked string) bool {
	worked = redirect.ReplaceAllString(worked, " ")
	w := strings.Fields(worked)
	if len(w) < 3 {
		return false
	}
	head := w[0] + " " + w[1]
	had := map[string]bool{}
	for _, x := range fixWords(failed) {
		had[x] = true
	}
	var values []string
	for _, x := range fixWords(worked) {
		if x != "" && !had[x] && !strings.HasPrefix(x, "-") {
			values = append(values, x)
		}
	}
	if len(values) == 0 {
		return false
	}
	for line := range strings.Lines(output) {
		if strings.Contains(line, head) && !slices.ContainsFunc(values, func(v string) bool { return !containsWord(line, v) }) {
			return true
		}
	}
	return false
}

// plainWord is a word that may be a subcommand: lower case letters,
// digits and dashes, not a flag.
var plainWord = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// fixWords are the words of a command or a fix's text: split at spaces,
// quotes, "=" and punctuation, so that `--fix`, "text" and format=json
// are words.
func fixWords(s string) []string {
	return fixWordSep.Split(s, -1)
}

// redirect is a shell redirection of a stream to a file or another
// stream: 2>&1, >/dev/null, 2> err.log.
var redirect = regexp.MustCompile(`(?:^|\s)[0-9]*(?:&>>?|>>?&?|<&?)\s*\S+`)

var fixWordSep = regexp.MustCompile("[\\s`'\",;:()\\[\\]{}=|&<>]+")

// backticked is the text a fix's sentence quotes in backticks: the
// values and commands it names.
func backticked(fix string) string {
	parts := strings.Split(fix, "`")
	var b strings.Builder
	for i := 1; i < len(parts); i += 2 {
		b.WriteString(parts[i] + " ")
	}
	return b.String()
}

// callText is the text of a call a fix is compared with: its command,
// path and settings.
func callText(c *Call) string {
	return c.Command + " " + c.Path + " " + c.Args
}

// changedCommands are, of a failed call and the command that got past
// it, the simple commands the fix changed (or the step it ran first):
// what else the fixed line ran (git checkout main after the git worktree
// remove it fixed) is no part of the fix.
func changedCommands(c *Call, fixed string) (failed, worked string) {
	if c.Tool != "Bash" {
		return callText(c), fixed
	}
	d, ok := diffCommands(c.Command, fixed)
	if !ok {
		return callText(c), fixed
	}
	ran := d.g
	if d.prelude != nil {
		ran = d.prelude // the step it ran first
	}
	return strings.Join(d.f, " "), strings.Join(ran, " ")
}
