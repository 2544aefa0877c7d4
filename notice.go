package lessons

import "strings"

// NoticeLine reports whether an output line reports something other than
// an error, whatever words it holds: a warning or a note ("warning: …",
// "[Parser] Multi-file validation warning: …", "DeprecationWarning: …",
// "src/a.py:3: note: …"), or a check that passed ("(pass) parse > throws
// UnknownFlagError", "✓ rejects bad input", "ok  pkg 0.2s", "PASS x").
// It reads the line's structure, not its topic: the label before a colon
// (the severity compilers, linters and loggers print) or the marker a
// test runner puts first, after any prefix a runner adds ("pkg:test:",
// "[name]", colour codes, a progress bar's "| "), or a severity in
// capitals that opens the line ("WARN  Unsupported engine"). The first
// severity decides: "error: warning treated as error" is an error.
func NoticeLine(l string) bool {
	l = stripColour(l)
	for range maxLabels {
		l = strings.TrimLeft(l, " \t>|.")
		for strings.HasPrefix(l, "[") { // a runner's or a logger's name
			end := strings.IndexByte(l, ']')
			if end < 0 || end > 60 {
				break
			}
			l = strings.TrimLeft(l[end+1:], " \t")
		}
		if first, _, _ := strings.Cut(l, " "); passMarkers[strings.ToLower(strings.Trim(first, "()[]:"))] ||
			noticeWords[strings.ToLower(strings.Trim(first, "()[]:"))] && first == strings.ToUpper(first) {
			return true // a pass mark, or a severity in capitals ("WARN  Unsupported engine")
		}
		label, rest, ok := strings.Cut(l, ": ")
		if !ok || len(label) > maxLabel || strings.Contains(label, ". ") {
			return false // no label: a sentence comes first ("File does not exist. Note: …")
		}
		label = strings.TrimSpace(label)
		last := strings.ToLower(strings.Trim(label[strings.LastIndexAny(label, " \t")+1:], "()[]"))
		if last == "" {
			return false
		}
		switch {
		case noticeWords[last], strings.HasSuffix(last, "warning"): // DeprecationWarning
			return true
		case severe(last):
			return false
		}
		l = rest
	}
	return false
}

// maxLabels is how many "label: " prefixes NoticeLine reads past
// ("pkg:test: src/a.py:3: note: …"); maxLabel the longest label.
const (
	maxLabels = 4
	maxLabel  = 80
)

// noticeWords are severities below an error; passMarkers the marks test
// runners put before a check that passed.
var (
	noticeWords = map[string]bool{"warn": true, "warning": true, "warnings": true, "note": true, "info": true, "hint": true,
		"notice": true, "debug": true, "deprecated": true, "deprecation": true, "help": true}
	passMarkers = map[string]bool{"pass": true, "passed": true, "ok": true, "✓": true, "✔": true, "√": true, "✅": true}
)

// severe reports whether a label's last word is an error severity.
func severe(w string) bool {
	return strings.Contains(w, "error") || strings.Contains(w, "exception") || w == "fatal" || w == "fail" ||
		w == "failed" || w == "failure" || w == "panic" || w == "err!" || w == "critical"
}

// stripColour drops ANSI colour codes, with or without their escape
// byte (some logs keep "[33m" after dropping ESC).
func stripColour(l string) string {
	if !strings.Contains(l, "[") {
		return l
	}
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		j := i
		if l[j] == 0x1b {
			j++
		}
		if j < len(l) && l[j] == '[' {
			k := j + 1
			for k < len(l) && (l[k] >= '0' && l[k] <= '9' || l[k] == ';') {
				k++
			}
			if k < len(l) && l[k] == 'm' && (k > j+1 || l[i] == 0x1b) {
				i = k
				continue
			}
		}
		b.WriteByte(l[i])
	}
	return b.String()
}
