package engine

import "strings"

// requestWords caps the words of a prompt that relevance reads: a long
// prompt gets no more chances to share a word with a lesson than a short
// one.
const requestWords = 48

// requestBytes caps the bytes requestText reads, whatever the prompt's
// size: the request comes first.
const requestBytes = 8 << 10

// requestText is the part of a prompt that asks for the work: the user's
// words (see userWords) up to where pasted material starts, without the
// pasted material inside it. Pasted material is what the user did not
// write as the request: fenced code, indented code, quoted lines (">"),
// tags such as <bash-stdout> or <system-reminder> and their content,
// HTML comments (issue templates), and everything from the first
// Markdown heading or section label on ("### Environment", "Traceback",
// "# Plan: …", a Django ticket's "Description"), since an issue or a
// plan puts its request in its first lines and its evidence after.
// Lines of a log (a timestamp, a stack frame, a shell prompt) and of an
// environment ("Python version: 3.9", "OS: Linux") are left out. The result holds at most requestWords words. Linear in the
// prompt's length.
func requestText(prompt string) string {
	prompt = userWords(prompt)
	if len(prompt) > requestBytes {
		prompt = prompt[:requestBytes]
	}
	var b strings.Builder
	words := 0
	fenced := false
	tag := ""
	for line := range strings.Lines(prompt) {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fenced = !fenced
			continue
		case fenced:
			continue
		case tag != "":
			if strings.Contains(t, "</"+tag) {
				tag = ""
			}
			continue
		case t == "":
			continue
		case b.Len() > 0 && sectionStart(t):
			return b.String()
		case pastedLine(line, t):
			continue
		}
		if name, ok := openTag(t); ok {
			if !strings.Contains(t, "</"+name) {
				tag = name
			}
			continue
		}
		for _, w := range strings.Fields(t) {
			if words == requestWords {
				return b.String()
			}
			b.WriteString(w)
			b.WriteByte(' ')
			words++
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// sectionStart reports whether a line opens a section of a prompt that
// holds evidence or a plan rather than the request.
func sectionStart(t string) bool {
	if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, "---") || strings.HasPrefix(t, "|") {
		return true
	}
	l := strings.ToLower(strings.TrimRight(t, ":*"))
	l = strings.TrimLeft(l, "*")
	switch l {
	case "description", "traceback (most recent call last)", "steps to reproduce", "to reproduce", "expected behavior",
		"expected behaviour", "actual behavior", "actual behaviour", "environment", "versions", "output", "error",
		"logs", "log", "stack trace", "stacktrace", "reproduction", "minimal example", "code", "context", "details":
		return true
	}
	return false
}

// pastedLine reports whether a line is pasted rather than written: code
// indented by a tab or four spaces, a quote, a shell prompt, a stack
// frame, a log line that starts with a timestamp, a version or platform
// line.
func pastedLine(line, t string) bool {
	if strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "    ") {
		return true
	}
	switch {
	case strings.HasPrefix(t, ">"), strings.HasPrefix(t, "$ "), strings.HasPrefix(t, "% "),
		strings.HasPrefix(t, "at "), strings.HasPrefix(t, "File \""):
		return true
	}
	return len(t) >= 8 && t[2] == ':' && t[5] == ':' && isDigit(t[0]) && isDigit(t[1]) ||
		len(t) >= 10 && t[4] == '-' && t[7] == '-' && isDigit(t[0]) && isDigit(t[3]) ||
		environmentLine(t)
}

// environmentLine reports whether a line states a version or a platform,
// as bug reports list them ("Python version: 3.9", "OS: Linux",
// "- pip 23.1"... the first two forms): a label of at most three words
// that names a version, an OS or a platform, then a colon.
func environmentLine(t string) bool {
	label, _, ok := strings.Cut(strings.TrimLeft(t, "-*• "), ":")
	if !ok || len(strings.Fields(label)) > 3 {
		return false
	}
	l := strings.ToLower(label)
	return strings.Contains(l, "version") || l == "os" || strings.HasPrefix(l, "operating system") || l == "platform"
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// openTag reports whether a line starts with an XML-like tag that wraps
// pasted or injected material (<bash-stdout>, <system-reminder>,
// <command-name>), and its name.
func openTag(t string) (string, bool) {
	if len(t) < 3 || t[0] != '<' || !(t[1] >= 'a' && t[1] <= 'z') {
		return "", false
	}
	end := strings.IndexAny(t, "> ")
	if end < 0 {
		return "", false
	}
	return t[1:end], true
}
