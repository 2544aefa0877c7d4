package scanner

import (
	"cmp"
	"path"
	"regexp"
	"strings"

	"github.com/lessons-dev/lessons"
)

// No trigger should fire on every call of a common tool unless the lesson
// is about every such call. A scan keeps a bounded sample of the shell
// commands it read, by head (executable and subcommand); a heuristic
// candidate whose command trigger fires on most sampled calls of its head
// would speak before calls that go fine. It is narrowed to the failure
// when the error gives a line to match (an error trigger: the lesson
// comes after such a failure, not before every call), else held below
// minConfidence (Signals.Broad). A precondition whose trigger fires on
// the bare command (tsc, bun run), or a retry whose does and whose error
// is not about the command itself, is narrowed without a sample: it
// fires on every call of its command by construction.

// Bounds of the sample.
const (
	sampleCallsPerFile = 64   // commands one file adds
	sampleCallsPerHead = 128  // commands kept per head
	sampleCalls        = 8192 // commands kept in all
	minBroadSample     = 8    // fewer calls of a head say nothing
)

// callSample is the commands a scan read, by head, and the folders of
// the files its file tools used and worked (usedFolder).
type callSample struct {
	byHead map[string][]string
	n      int
	// folders are the folders of files calls used and that worked, each
	// with when it was last so (a file's place in a scan, a session's
	// place in a replay).
	folders map[string]int64
	// files are the files file tools used and that worked, by name and
	// path (wrongfiles.go).
	files  map[string]map[string][]fileUse
	nfiles int
}

// sampleFolders bounds the folders a scan keeps.
const sampleFolders = 8192

// addFolders keeps the folders of files that calls used and that worked,
// at when.
func (s *callSample) addFolders(dirs []string, when int64) {
	if s.folders == nil {
		s.folders = map[string]int64{}
	}
	for _, d := range dirs {
		if t, ok := s.folders[d]; ok || len(s.folders) < sampleFolders {
			s.folders[d] = max(t, when)
		}
	}
}

// usedFolder reports whether a folder lesson's wrong folder (its trigger
// glob without "/**") held files that calls used and that worked, later
// than since (the lesson's first failure), in at least as many folders as
// the sessions it failed in: the folder is there, the files were missing
// one by one, and the lesson would come before calls that go fine. A few
// uses against many failures leave it (a stale copy of the project a
// pipeline keeps guessing); a use before it says nothing (a folder may
// have been moved since).
func (s *callSample) usedFolder(c *Candidate, since int64) bool {
	return usedFolders(c, s.folders, since, nil) >= max(1, len(c.Sessions))
}

// usedFolders counts the folders (each with when a file in it was used)
// used later than since under a folder lesson's wrong folder, calling
// each (when set) with the folder.
func usedFolders(c *Candidate, folders map[string]int64, since int64, each func(string)) int {
	if c.Kind != KindPath {
		return 0
	}
	n := 0
	for _, g := range c.Triggers.Paths {
		g, ok := strings.CutSuffix(g, "/**")
		if !ok {
			continue
		}
		for d, when := range folders {
			if when <= since {
				continue
			}
			for x := d; len(x) > 1; x = path.Dir(x) {
				if globMatches(g, x) {
					n++
					if each != nil {
						each(d)
					}
					break
				}
			}
		}
	}
	return n
}

// add keeps the commands of one file, within the bounds, and calls grew
// (when set) with each head whose sample grew.
func (s *callSample) add(cmds []string, grew func(head string)) {
	if s.byHead == nil {
		s.byHead = map[string][]string{}
	}
	for _, cmd := range cmds {
		h := headWords(cmd)
		if h == "" || s.n >= sampleCalls || len(s.byHead[h]) >= sampleCallsPerHead {
			continue
		}
		s.byHead[h] = append(s.byHead[h], cmd)
		s.n++
		if grew != nil {
			grew(h)
		}
	}
}

// check narrows or marks a retry or precondition candidate whose command
// trigger fires on most sampled calls of its head. What the user said (a
// rejection, a correction) and the agent's own report may well be about
// every such call, and are left as they are.
func (s *callSample) check(c *Candidate) {
	if c.Kind != KindRetry && c.Kind != KindPrecondition || len(c.Triggers.Commands) == 0 || len(c.Triggers.Errors) > 0 {
		return
	}
	head := headWords(c.Trigger)
	if c.Kind == KindRetry {
		head = changedHead(c.Trigger, c.Fixed) // the stage the fix changed, not a chain's first
	}
	if head != "" && commandMatcher(c.Triggers)(head) && (c.Kind == KindPrecondition || !aboutTheCommand(c.Problem, head) && !namesTheFix(c)) {
		// fires on the bare command, so on every call of it: right when
		// the error says the command itself is wrong (not found, an
		// option it does not take) or names what every call needs (STAGE
		// is not set: the fix sets it), else what was missing is missing
		// only when the error says so; no sample is needed to know that
		if !c.narrowToError() {
			c.Signals.Broad = true
		}
		return
	}
	calls := s.byHead[head]
	if len(calls) < minBroadSample {
		return
	}
	fired, fires := 0, commandMatcher(c.Triggers)
	for _, cmd := range calls {
		if fires(cmd) {
			fired++
		}
	}
	if fired*2 <= len(calls) {
		return
	}
	if !c.narrowToError() {
		c.Signals.Broad = true
	}
}

// narrowToError adds an error trigger made of the failure's error line
// (lessons.ErrorLine: the line its class is read from, not a runner's
// status line), so that the lesson comes after that failure only, and
// reports whether it could.
func (c *Candidate) narrowToError() bool {
	line, wrapper := lessons.ErrorLine(c.Problem)
	if wrapper {
		return false // a runner's status line ("script exited with code 1") comes after any failure under it
	}
	if lessons.TallyLine(line) {
		// a count of errors ("Found 4 errors.") comes after any failure
		// of the check: the line that names what failed says which
		if line = lessons.NamedErrorLine(c.Problem); line == "" {
			return false
		}
	}
	if len(c.Examples.Match) == 0 {
		return false
	}
	if t, ok := objectTrigger(lessons.ErrorClass(c.Problem), line); ok && c.Kind == KindPrecondition && c.Tool == "Bash" {
		// what to do first about a missing object, whatever command met it
		c.Triggers = t
		c.Examples.Match[0].Error = line
		c.sayAfter(line)
		return true
	}
	p := errorPattern(lessons.FirstSentence(line)) // the advice after it is worded by the version
	if p == "" {
		return false
	}
	c.Triggers.Errors = []string{p}
	c.Examples.Match[0].Error = line
	c.sayAfter(line)
	return true
}

// sayAfter puts in a narrowed lesson's summary the error it now comes
// after ("git add, after “The following paths are ignored…”: add -f"):
// read alone, "git add: add -f" says to force every add.
func (c *Candidate) sayAfter(line string) {
	head, change, ok := strings.Cut(c.Summary, ": ")
	if !ok {
		return
	}
	room := func() int { return min(maxErrorInSummary, maxSummary-len(head)-len(change)-len(", after “”: ")) }
	if short, _, ok := strings.Cut(change, " ("); ok && room() < minErrorInSummary {
		change = short // the why in brackets: the solution keeps it
	}
	if room() < minErrorInSummary {
		return // the change needs the room: the trigger says the rest
	}
	c.Summary = head + ", after “" + shorten(lessons.FirstSentence(line), room()) + "”: " + change
}

// How much of the error a summary quotes: at most, and at least to be
// worth quoting.
const (
	maxErrorInSummary = 60
	minErrorInSummary = 20
)

// aboutTheCommand reports whether an error says the command of head
// itself is wrong wherever it runs: its program is not there (not another
// program of the line: `| jq` missing says nothing of every `gh pr`). A
// usage error is about the call's own arguments ("--visibility needs
// --accept-…"): a fix that adds an option fits the calls that make the
// same mistake, not every call.
func aboutTheCommand(errText, head string) bool {
	missing, ok := strings.CutPrefix(lessons.ErrorClass(errText), "command not found: ")
	exe, _, _ := strings.Cut(head, " ")
	return ok && path.Base(missing) == exe
}

// refusesTheCall reports whether an error is about the call itself, not
// what it worked on: a program not there, or a usage error.
func refusesTheCall(errText string) bool {
	class := lessons.ErrorClass(errText)
	return class == "usage" || strings.HasPrefix(class, "command not found")
}

// namesTheFix reports whether a retry's error names a variable its fix
// set (STAGE is not set, then STAGE=dev): then the error says what every
// call of the command needs. An option the error names is its hint for
// this call ("Use -f if you really want to add them"), not a rule for
// every call.
func namesTheFix(c *Candidate) bool {
	d, ok := diffCommands(c.Trigger, c.Fixed)
	if !ok {
		return false
	}
	for _, w := range d.added {
		if k, _, ok := strings.Cut(strings.Trim(w, `'"`), "="); ok && !strings.HasPrefix(k, "-") && len(k) >= 2 && containsWord(c.Problem, k) {
			return true
		}
	}
	return false
}

// namedError is a line that names its error: "error: ...",
// "ValueError: ...", "npm ERR! ...".
var namedError = regexp.MustCompile(`(?i)(^|\s)\w*(error|exception|err!|fatal)\b:?\s`)

// errorHeadline is the line of an error text that says what failed, as
// a terminal displayed it (lessons.Displayed): the first that names its
// error (a traceback's last line does), else the cause Gradle's report
// gives (lessons.BuildCause), else the first line, past a count
// of failures ("Found 4 errors.", lessons.TallyLine) that names none; a
// task runner's prefix on it is cut (the package and task that printed it
// are not the error).
func errorHeadline(text string) string {
	text = lessons.TrimRunnerPrefixes(text)
	first := ""
	for _, l := range strings.Split(text, "\n") {
		if l = lessons.Displayed(l); lessons.TallyLine(l) {
			continue
		}
		if namedError.MatchString(l) && !lessons.NoticeLine(l) {
			return strings.TrimSpace(l)
		}
		if first == "" && !lessons.BuildHeader(l) {
			first = strings.TrimSpace(l)
		}
	}
	// Gradle's header says only that the build failed: its report says what
	return cmp.Or(lessons.BuildCause(text), first, strings.TrimSpace(lessons.Displayed(firstLine(text))))
}

// askedForLess reports whether a retry's only change dropped options the
// error says nothing about ("gh run view --log-failed" failing with "log
// not found", then the view without it): the retry asked for less, and
// no option was wrong. Dropping an option the error names ("unknown flag:
// --short", "could not add label", "no library targets" for --lib) or
// one a usage error refused is a fix.
func askedForLess(change, errText string) bool {
	dropped, ok := strings.CutPrefix(change, "drop ")
	if !ok || strings.Contains(change, ", ") || lessons.ErrorClass(errText) == "usage" {
		return false
	}
	words := strings.Fields(dropped)
	for _, w := range words {
		if name := strings.TrimLeft(w, "-"); len(name) >= 2 && (containsWord(errText, name) || containsWord(errText, w) ||
			len(words) == 1 && abbreviatedFlag(strings.ToLower(errText), w)) {
			return false
		}
	}
	return true
}
