package scanner

import (
	"math"
	"slices"
	"strings"
)

// Support, not one-offs: a lesson earns confidence from how often, and
// where, its mistake was seen; a fix whose words only make sense in one
// task stays below minConfidence until the same fix is seen again in
// another session (or the agent reports it).

// maxSupport caps the sessions or projects that still add confidence:
// past 8, seeing a mistake again says little more.
const maxSupport = 8

// supportBonus is w times log2 of the count, capped at log2(maxSupport):
// 2 sessions add w, 4 add 2w, 8 or more add 3w.
func supportBonus(n int, w float64) float64 {
	if n < 2 {
		return 0
	}
	return w * math.Log2(float64(min(n, maxSupport)))
}

// oneOff reports whether a fix's words name something of one task rather
// than a way of calling a tool: a path or a file name, a commit hash, a
// line or issue number, a long id. The shape of a token says it; the
// scan's other sessions say whether the token recurs (a candidate seen
// in two sessions is no longer held back). A token the fix added that
// the error itself printed (git push names the branch to set upstream)
// is the tool's advice, not the agent's one-off choice; a token the fix
// replaced or dropped is what the trigger keys on, and the error naming
// the path it could not find makes it no less one task's; nor does it
// make a path of this machine (from its root or home) any less one
// task's.
func oneOff(change, errText string) bool {
	added, removed := change, ""
	for _, sep := range []string{" instead of ", "drop "} {
		if i := strings.Index(change, sep); i >= 0 {
			added, removed = change[:i], change[i+len(sep):]
			break
		}
	}
	for _, w := range strings.Fields(added) {
		w = strings.Trim(w, "`'\",;:()[]")
		if taskToken(w) && (machinePath(w) || !strings.Contains(errText, w)) {
			return true
		}
	}
	for _, w := range strings.Fields(removed) {
		if taskToken(strings.Trim(w, "`'\",;()[]")) {
			return true
		}
	}
	return false
}

// ranOnMachinePath reports whether a precondition's steps (describeChange,
// joined by "; ") run a command on a path of this machine.
func ranOnMachinePath(steps string) bool {
	for _, s := range strings.Split(steps, "; ") {
		if cmd, ok := strings.CutPrefix(s, "run `"); ok && slices.ContainsFunc(strings.Fields(cmd), func(w string) bool {
			return machinePath(strings.Trim(w, "`'\",;()[]"))
		}) {
			return true
		}
	}
	return false
}

// machinePath reports whether a token is a path of this machine (from
// its root or a home directory): printed by the error or not, another
// checkout has it elsewhere.
func machinePath(w string) bool {
	if i := strings.IndexByte(w, '='); i > 0 {
		w = w[i+1:]
	}
	return strings.HasPrefix(w, "/") && len(w) > 1 || strings.HasPrefix(w, "~/") || len(w) > 2 && w[1] == ':' && (w[2] == '/' || w[2] == '\\')
}

// freeText reports whether a fix carries text written for one task: a
// command of more than one line (an inline script, a here-document, a
// message) or a quoted argument of many words.
func freeText(s string) bool {
	if strings.Contains(s, "\n") || strings.Contains(s, "<<") {
		return true
	}
	for i := 0; i < len(s); i++ {
		q := s[i]
		if q != '"' && q != '\'' {
			continue
		}
		end := strings.IndexByte(s[i+1:], q)
		if end < 0 {
			end = len(s) - i - 1 // a quote the text was cut inside
		}
		if len(strings.Fields(s[i+1:i+1+end])) >= minFreeWords {
			return true
		}
		i += end + 1
	}
	return false
}

// minFreeWords is how many words make a quoted argument prose or code
// rather than a value.
const minFreeWords = 6

// taskToken reports whether a token has the shape of something specific
// to one task.
func taskToken(w string) bool {
	if i := strings.IndexByte(w, '='); i > 0 {
		w = w[i+1:] // the value of a flag or variable
	}
	if w == "" || strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "/0123456789") || strings.ContainsAny(w, "<>&|") {
		return false // a flag, or a redirection (2>&1)
	}
	if strings.Contains(w, `":`) {
		return true // a JSON object's keys and values: the task's data
	}
	digits, hex, letters := 0, 0, 0
	for _, r := range w {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F':
			hex++
			letters++
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letters++
		}
	}
	switch {
	case strings.HasPrefix(w, "/") && len(w) > 1, strings.HasPrefix(w, "~/"), len(w) > 2 && w[1] == ':' && (w[2] == '/' || w[2] == '\\'):
		return true // an absolute path
	case strings.Contains(strings.Trim(w, "/"), "/") && (digits > 0 || strings.ContainsAny(w, "_") || strings.Count(w, "/") >= 3):
		return true // a path of this task's files (.venv/bin/activate is a convention)
	case digits >= 2 && letters <= 1:
		return true // a line, an issue, a range: 280r, 12,20p, 143
	case len(w) >= 7 && digits > 0 && digits+hex == len(w):
		return true // a commit hash
	case len(w) >= 16 && digits >= 3:
		return true // an id
	case codeName(w):
		return true // a name in the task's code: the test or function run
	}
	if dot := strings.LastIndexByte(w, '.'); dot > 0 && dot < len(w)-1 && !strings.HasPrefix(w, ".") {
		ext := w[dot+1:]
		return len(ext) <= 4 && strings.IndexFunc(ext, func(r rune) bool { return r < 'a' || r > 'z' }) < 0 &&
			strings.IndexFunc(w[:dot], func(r rune) bool { return r == '_' || r >= '0' && r <= '9' }) >= 0
	}
	return false
}

// everyCall reports whether a candidate's trigger names no more than a
// tool: it would fire on every call of that tool (a user interrupting one
// Task call with an instruction for that task), so one session is not
// enough to say the lesson is about every such call.
func (c *Candidate) everyCall() bool {
	t := c.Triggers
	return len(t.Tools) > 0 && len(t.Commands)+len(t.Paths)+len(t.Content)+len(t.Errors)+len(t.Keywords) == 0 && !t.SessionStart
}

// codeName reports whether a token is a qualified name in a program's
// code (tera::tests::test_env, pkg.mod:Class::method) or a snake_case
// name of three words or more (test_split_version_prefix): the test or
// function one task ran, not a way of calling the tool.
func codeName(w string) bool {
	if strings.Contains(w, "::") {
		return true
	}
	if strings.Count(w, "_") < 2 {
		return false
	}
	for _, r := range w {
		if r != '_' && (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}
