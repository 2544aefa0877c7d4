package lessons

import "strings"

// Runner prefixes. A monorepo's task runner prints the output of the
// tasks it runs with each line set off by where it came from: the
// package and the task ("@scope/pkg:test: …", "@scope/pkg test: …",
// "packages/a test$ …") or a service ("web-1  | …"). The prefix says
// which package printed the line, not what went wrong: left in, it makes
// the same error two classes and two lessons, one per package. An output
// is read as a runner's when most of its lines carry a prefix of that
// shape that recurs; the prefix is then cut from every line that has one.
// The shape, not a list of runners, decides: a package and a task, or a
// name set off by "|" or "$", or a scoped package name. A program's own
// "name: message" (rg, grep, a logger's INFO) is one word before a colon,
// not a runner's prefix.

// Bounds of the reading.
const (
	maxRunnerScan = 200 // lines read to tell a runner's output
	maxRunnerName = 60  // longest package and task name
	minRunnerRun  = 3   // fewest prefixed lines that make one
)

// runnerTag is the length of the runner prefix a line starts with,
// separator and blanks after it included, or 0 when it has none. The line
// is read without terminal codes.
func runnerTag(l string) int {
	i := strings.IndexAny(l, ":|$")
	if i <= 0 || i > maxRunnerName+2 {
		return 0
	}
	sep := l[i]
	if i+1 < len(l) && l[i+1] != ' ' && l[i+1] != '\t' {
		if sep != ':' {
			return 0
		}
		// a colon inside the name ("pkg:test: …"): the separator is
		// the next colon that a blank or the end follows
		j := strings.Index(l[i+1:], ": ")
		if j < 0 {
			if !strings.HasSuffix(l, ":") {
				return 0
			}
			j = len(l) - i - 2
		}
		i += 1 + j
		if i > maxRunnerName {
			return 0
		}
	}
	name := strings.TrimSpace(l[:i])
	if !runnerName(name, sep) {
		return 0
	}
	n := i + 1
	for n < len(l) && (l[n] == ' ' || l[n] == '\t') {
		n++
	}
	return n
}

// runnerName reports whether name, set off by sep, has the shape of a
// runner's prefix: a package and a task (two parts, by a colon or a
// blank), or a name set off by "|" or "$", or a scoped package
// ("@scope/pkg"); never a file, a line number, an error's or a notice's
// label, nor a quoted or bracketed word.
func runnerName(name string, sep byte) bool {
	if name == "" || strings.ContainsAny(name, "'\"`()[]{}<>=,;*\\") || strings.HasPrefix(name, "/") {
		return false
	}
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == ':' || r == ' ' || r == '\t' })
	if len(parts) == 0 || len(parts) > 2 {
		return false
	}
	for _, p := range parts {
		scoped := strings.HasPrefix(p, "@") && strings.Contains(p, "/") // @app.build/web: npm allows dots
		if strings.Contains(p, ".") && !scoped || strings.Trim(p, "0123456789") == "" {
			return false // a file, a version or a line number
		}
	}
	low := strings.ToLower(name)
	if sep == ':' && len(parts) == 2 && parts[0] != strings.ToLower(parts[0]) {
		return false // a package's name is lower case (npm's rule): "Would reformat: a.py" is a sentence
	}
	last := strings.ToLower(parts[len(parts)-1])
	if severe(last) || noticeWords[last] || strings.Contains(low, "error") || strings.Contains(low, "warn") {
		return false
	}
	return sep != ':' || len(parts) == 2 || strings.HasPrefix(name, "@")
}

// runnerOutput reports whether most lines of text carry a runner's
// prefix, and the same one more than once: then the prefixes are cut.
func runnerOutput(text string) bool {
	if !strings.ContainsAny(text, ":|$") {
		return false
	}
	seen := map[string]int{}
	lines, tagged := 0, 0
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(StripANSI(line))
		if t == "" || isStatusLine(t) {
			continue
		}
		if lines++; lines > maxRunnerScan {
			break
		}
		if n := runnerTag(t); n > 0 {
			tagged++
			seen[strings.TrimSpace(t[:n])]++
		}
	}
	recur := 0
	for _, n := range seen {
		if n > 1 {
			recur += n
		}
	}
	return recur >= minRunnerRun && tagged*2 > lines && recur*2 >= lines
}

// cutRunner cuts a runner's prefix from a line as printed, terminal
// codes and all: n is the prefix's length in the line read without them
// nor the blanks that lead it.
func cutRunner(raw string, n int) string {
	i := 0
	for i < len(raw) {
		if k := escapeLen(raw, i); k > 0 {
			i += k
		} else if raw[i] == ' ' || raw[i] == '\t' {
			i++
		} else {
			break
		}
	}
	for seen := 0; i < len(raw) && seen < n; {
		if k := escapeLen(raw, i); k > 0 {
			i += k
			continue
		}
		i++
		seen++
	}
	return strings.TrimLeft(raw[i:], " \t")
}

// TrimRunnerPrefixes returns text with a task runner's prefix cut from
// each line, when most of its lines carry one ("@scope/pkg:test: error:
// …" reads "error: …"); else text as it is. Terminal codes are kept.
func TrimRunnerPrefixes(text string) string {
	if !runnerOutput(text) {
		return text
	}
	var b strings.Builder
	for line := range strings.Lines(text) {
		body, nl := strings.CutSuffix(line, "\n")
		if n := runnerTag(strings.TrimSpace(StripANSI(body))); n > 0 {
			body = cutRunner(body, n)
		}
		b.WriteString(body)
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
