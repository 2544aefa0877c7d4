package scanner

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine/secret"
)

// Status is where a candidate is in review.
type Status string

// Candidate statuses. A rejected or promoted candidate that is seen again
// keeps its status and only counts the new occurrence.
const (
	StatusNew      Status = "new"
	StatusRejected Status = "rejected"
	StatusPromoted Status = "promoted"
)

// Candidate is a lesson a scan proposes, with its evidence. All its text
// has been redacted.
type Candidate struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"` // KindTag, KindRetry, KindCorrection, KindRejection, KindPrecondition, KindKnown, KindError or KindPath
	Status Status `json:"status"`
	// Tool is the canonical tool of the mistake.
	Tool string `json:"tool,omitempty"`
	// Trigger is the failing command or path as seen (or the tag's).
	Trigger string `json:"trigger,omitempty"`
	// Fixed is the command that worked after the failure.
	Fixed string `json:"fixed,omitempty"`
	// Family is what a lesson on an error is about: the failed
	// command's family or the tool (KindError).
	Family   string           `json:"family,omitempty"`
	Summary  string           `json:"summary"`
	Problem  string           `json:"problem"`
	Solution string           `json:"solution"`
	Triggers lessons.Trigger  `json:"triggers"`
	Examples lessons.Examples `json:"examples,omitzero"`
	Tags     []string         `json:"tags,omitempty"`
	// Scope is the scope a tag asked for: "project", "global" or "".
	Scope       string   `json:"scope,omitempty"`
	Signals     Signals  `json:"signals"`
	Confidence  float64  `json:"confidence"`
	Priority    int      `json:"priority"`
	NeedsReview bool     `json:"needsReview"`
	Occurrences int      `json:"occurrences"`
	Sessions    []string `json:"sessions"`
	Projects    []string `json:"projects,omitempty"`
	Agents      []string `json:"agents"`
	// Provenance lists where the candidate was seen (at most
	// MaxProvenance entries; Occurrences keeps counting past that).
	Provenance  []Provenance `json:"provenance"`
	ContentHash string       `json:"contentHash"`
	FirstSeen   time.Time    `json:"firstSeen"`
	LastSeen    time.Time    `json:"lastSeen"`
	// Tried are commands that failed after a lesson on an error nothing
	// got past (what not to do), and Instead a command of the same
	// program that worked instead (KindError).
	Tried   []string `json:"tried,omitempty"`
	Instead string   `json:"instead,omitempty"`
	// Reading is the agent's reading of such a failure, in its words.
	Reading string `json:"reading,omitempty"`
	// Skipped is the option or variable (--no-verify) with which a call
	// of its family went through only by switching a check off.
	Skipped string `json:"skipped,omitempty"`
	// WorkedIn are the logs of later sessions in which a path a wrong
	// file's lesson failed on worked, up to maxSupport (wrongfiles.go).
	WorkedIn []string `json:"workedIn,omitempty"`
	// LessonID is the lesson a promoted candidate became.
	LessonID string `json:"lessonId,omitempty"`
	// SupportOnly: the candidate only adds its occurrence to one of the
	// same id found before, and is dropped when there is none (a known
	// failure seen again after the session changed something).
	SupportOnly bool `json:"-"`
	// FailedIn is the sessions its failure was seen in, under any lesson
	// on it (comebacks); 0 until counted. Failure is that failure as a
	// replay counts repeats (tool, command family, error class), kept so
	// that a scan groups the store's lessons without reading their
	// errors again.
	FailedIn int    `json:"failedIn,omitempty"`
	Failure  string `json:"failure,omitempty"`
	// Step is what a precondition fix does first, in words ("run `bun
	// lint:fix`"): two of them with the same step before the same
	// command are one lesson however their errors were worded
	// (foldWordings).
	Step string `json:"step,omitempty"`
}

// Provenance is one occurrence of a candidate.
type Provenance struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	SessionID string `json:"sessionId,omitempty"`
	// Project is the project the session stands for (lessons.ProjectOf),
	// and Dir the directory it ran in when that differs (a worktree).
	Project string `json:"project,omitempty"`
	Dir     string `json:"dir,omitempty"`
	Agent   string `json:"agent"`
	// Key identifies the occurrence, so that reading a record again
	// (a rescan, a resumed session's copy) does not count it twice.
	Key string `json:"key"`
	// Call names the failing call, as session and call id, when known:
	// a tag and a retry of the same failure count once.
	Call string `json:"call,omitempty"`
	// Covered is set on a heuristic occurrence the agent also tagged.
	Covered bool `json:"covered,omitempty"`
}

// discardPattern finds a command that throws work away for good: the
// checkout's uncommitted changes (git reset --hard, git checkout -- …,
// git clean -f), a remote's history (git push --force), a table.
var discardPattern = regexp.MustCompile(`(?i)\bgit\s+(?:-C\s+\S+\s+)?(?:reset\s+(?:\S+\s+)*?--hard\b|clean\s+-[a-z]*f|checkout\s+(?:\S+\s+)?--\s|checkout\s+\.(?:\s|$)|push\s+(?:\S+\s+)*?(?:-f|--force)\b)|\bdrop\s+(?:table|database)\b|\btruncate\s+table\b`)

// discardsWork reports whether a fix throws work away where the failed
// call did not: a heuristic may find such a command got past a failure
// (the agent's edits gone, the test passes), but a lesson that teaches
// it would undo the next session's work (the built-in hazards warn of
// these very commands).
func discardsWork(fix, failed string) bool {
	return fix != "" && discardPattern.MatchString(fix) && !discardPattern.MatchString(failed)
}

// recordKey identifies a record across copies of its session: its id,
// qualified by the session when it is short (Gemini CLI's
// run_shell_command-1 is unique only within its session), else its file
// and line.
func recordKey(uid, session, file string, line int) string {
	switch {
	case uid == "":
		return file + ":" + strconv.Itoa(line)
	case len(uid) < minGlobalUID && session != "":
		return session + ":" + uid
	}
	return uid
}

// minGlobalUID is the shortest record id taken as unique across
// sessions (a UUID is 36 characters).
const minGlobalUID = 24

// MaxProvenance caps the occurrences a candidate lists.
const MaxProvenance = 200

// build turns a finding into a redacted candidate with a trigger and
// examples. ok is false for a retry whose fix no trigger tells apart from
// the failure: without that, the lesson could not say what to do.
func build(f finding, sess Session, file, agent string, now time.Time) (Candidate, bool) {
	// keys and provenance name the project a worktree stands for; the
	// directory the session ran in stays in Dir
	sess.Dir = cmp.Or(sess.Dir, sess.Project)
	sess.Project = lessons.ProjectOf(sess.Project)
	c := Candidate{
		Kind: f.Kind, Status: StatusNew, Tool: lessons.CanonicalTool(strings.TrimSpace(f.Tool)),
		Trigger: Redact(f.Trigger), Fixed: Redact(f.Fixed), Problem: Redact(f.Problem),
		Solution: Redact(f.Solution), Scope: f.Scope, Signals: f.Signals, NeedsReview: f.Kind != KindTag, SupportOnly: f.Support,
		FirstSeen: now, LastSeen: now,
	}
	c.Tags = redactTags(slices.Clone(f.Tags))
	if f.Kind != KindTag && (discardsWork(f.Fixed, f.Trigger) || discardsWork(f.Instead, f.Trigger) ||
		f.Kind == KindPrecondition && discardsWork(f.Change, f.Trigger)) {
		return Candidate{}, false // what got past the failure threw work away: no lesson teaches that
	}
	if f.Kind == KindError && f.Support {
		// only its id and occurrence count: the lesson is the one held
		return c.identify("error\x00"+sess.Project+"\x00"+objectKey(f.Change, c.Tool == "Bash"), lessons.Trigger{}, f, sess, file, agent), true
	}
	if f.Kind == KindPath {
		// one per project and path, with the right path or without
		if !c.onPath(f) {
			return Candidate{}, false
		}
		side := "file"
		if f.Path.Shell {
			side = "shell"
		}
		c = c.identify("path\x00"+sess.Project+"\x00"+side+"\x00"+f.Change, lessons.Trigger{}, f, sess, file, agent)
		c.pathText() // for the sessions it was seen in
		return c, true
	}
	if f.Kind == KindError {
		if !c.onError(f) {
			return Candidate{}, false
		}
		// one per project and key, whatever the pattern the error gave;
		// a file tool's own error (Read over its size limit, on a
		// directory) is the same in every project and checkout, so one
		// lesson across them (an MCP tool's may be about one project's data)
		project := sess.Project
		if slices.Contains(lessons.FileTools, c.Tool) {
			project = ""
		}
		key := objectKey(f.Change, c.Tool == "Bash")
		if f.Sandboxed && c.Tool == "Bash" && f.ErrLine != "" {
			_, class, _ := strings.Cut(f.Change, " | ")
			key = "Bash | " + class // the sandbox's: whatever command met it
		}
		return c.identify("error\x00"+project+"\x00"+key, lessons.Trigger{}, f, sess, file, agent), true
	}
	if f.Workdir != "" {
		if !c.inWorkdir(f) {
			return Candidate{}, false
		}
		c.Summary = secret.Sentence(c.Summary)
		return c.identify("workdir\x00"+sess.Project+"\x00"+f.Workdir+"\x00"+headWords(c.Trigger), c.Triggers, f, sess, file, agent), true
	}
	change := ""
	if !c.trigger(&change, f.Stopped) && f.Kind == KindRetry {
		return Candidate{}, false
	}
	if f.Kind == KindRetry && askedForLess(change, c.Problem) {
		return Candidate{}, false
	}
	if root := rootChange(change, sess.Dir); root != change {
		// the project's root is this checkout's folder: the lesson holds
		// in every checkout and worktree of the project, and is one
		change = root
		c.Triggers.Unless = []string{rootCd}
	}
	if change != "" && f.Kind != KindTag {
		c.Solution = strings.TrimSpace(strings.TrimSuffix(c.Solution, "Run `"+shownCommand(c.Fixed, 300)+"` instead.") +
			"\nFix: " + change + " (`" + shownCommand(c.Fixed, 300) + "` worked).")
	}
	c.Summary = secret.Sentence(summarize(c, change)) // its text was redacted: no marker in a name
	var d cmdDiff
	changed := false // a shell retry's change in place, read once
	if f.Kind == KindRetry && c.Tool == "Bash" {
		d, changed = inPlace(c.Trigger, c.Fixed)
	}
	// operands a usage error refused (cargo test takes one name filter):
	// the lesson comes after the same refusal whatever the names, and is
	// never proposed, its words being the task's names (Reminds)
	refused := changed && d.refusedOperand(c.Problem) && c.onRefusal()
	c.Signals.Reminds = c.Signals.Reminds || refused
	c.Signals.OneOff = f.Kind == KindRetry && !refused && !strings.HasPrefix(change, "quote ") && !strings.HasPrefix(change, "put -e") &&
		(oneOff(change, c.Problem) || changed && (d.operandChange() || d.taskValue(c.Problem)))
	key := change
	if key == "" || f.Kind == KindTag {
		key = normalizeSpace(c.Solution)
	}
	if f.Kind == KindRejection || f.Kind == KindCorrection {
		// One task's: the user's words name its paths or hashes, are
		// about the call at hand, or name nothing of the command or its
		// error (unless they name what to run instead); the file
		// refused is named for one task; the agent's next call after a
		// refusal changed what the words do not name; or the words are a
		// direction for the task (direction).
		said, output := userWords(c.Solution), ""
		if f.Kind == KindCorrection {
			output = c.Problem // what the failed call printed (a rejection's is the user's words)
		}
		c.Signals.OneOff = oneOff(said, "") || particular(said) || slices.ContainsFunc(c.Triggers.Paths, taskToken) ||
			c.Tool == "Bash" && !namesCall(said, c.Trigger, output) && !replacement.MatchString(said) ||
			f.Kind == KindRejection && c.Tool == "Bash" && c.Fixed != "" && !namesChange(said, c.Trigger, c.Fixed) ||
			direction(said)
	}
	if f.Kind == KindKnown {
		key = "known\x00" + sess.Project + "\x00" + objectKey(f.Change, c.Tool == "Bash")
		if c.Tool != "Bash" && len(c.Examples.Match) == 0 {
			c.Examples.Match = []lessons.ToolCall{{Tool: c.Tool}} // the tool fails whatever it is given
		}
		_, class, _ := strings.Cut(f.Change, " | ")
		line, _ := lessons.ErrorLine(c.Problem)
		if class == lessons.KilledClass && len(c.Examples.Match) > 0 {
			c.Triggers.Errors = []string{lessons.KilledPattern} // any signal's status line, after its kill
			c.Examples.Match[0].Error = c.Problem
		} else if code := exitCode([]byte(c.Problem)); class == lessons.NoOutputClass && code > 0 && len(c.Examples.Match) > 0 {
			c.Triggers.Errors = []string{lessons.StatusOnlyPattern(code)} // its status line alone, after it ran
			c.Examples.Match[0].Error = c.Problem
		} else if t, ok := objectTrigger(class, line); ok && c.Tool == "Bash" && len(c.Examples.Match) > 0 {
			c.Triggers = t // the environment's: whatever command printed it
			c.Examples.Match[0].Error = line
		} else if t, ok := refusalTrigger(c.Tool, fileClass(class), line); ok && c.Tool != "Bash" && len(c.Examples.Match) > 0 {
			c.Triggers.Errors = t.Errors // the environment's refusal in any wording, not this occurrence's path
			c.Examples.Match[0].Error = line
		} else if p := errorPattern(lessons.FirstSentence(errorHeadline(c.Problem))); p != "" && len(c.Examples.Match) > 0 {
			c.Triggers.Errors = []string{p}
			c.Examples.Match[0].Error = errorHeadline(c.Problem)
		}
		if c.Tool != "Bash" && len(c.Triggers.Errors) == 0 {
			return Candidate{}, false // it would fire before every call on the folder
		}
		if len(c.Triggers.Commands) > 0 {
			c.Triggers.Commands = familyCommands(f.Change, c.Triggers.Commands)
		}
		if fam := familyOf("Bash " + f.Change); c.Tool == "Bash" && fam.Exe != "" && !strings.ContainsAny(fam.Exe, "()=\"'$") {
			c.Family = errorUnit(c.Tool, fam)
		}
		if folderKeyed(&c) {
			c.Triggers.Tools = nil // its path: any file tool
		}
		c.knownText()
	}
	if f.Kind == KindPrecondition {
		// what to do first is the lesson; the command rerun varies
		did := Redact(f.Change)
		head := c.Trigger
		if p := commandPattern(f.Stage); p != "" && commandFires(lessons.Trigger{Commands: []string{p}}, c.Trigger) {
			// before the stage that failed, not the chain's first
			c.Triggers.Commands, head = []string{p}, f.Stage
		}
		exe, sub := doerHead(head)
		c.Summary = secret.Sentence(shorten(strings.TrimSpace(exe+" "+sub)+": first "+did, maxSummary))
		// A step the error names is no one-off for its words, but a
		// command on a path of this machine is, named or not; an inline
		// script is one task's, named or not.
		c.Signals.OneOff = !f.Signals.Causal && oneOff(did, c.Problem) || ranOnMachinePath(did) || freeText(did)
		// one per step and failure: the same step before another error
		// is another lesson, whose trigger is that error
		key = "precondition\x00" + did + "\x00" + lessons.ErrorClass(c.Problem)
		c.Step = did
	}
	return c.identify(key, c.Triggers, f, sess, file, agent), true
}

// onRefusal puts a retry's lesson on the usage error that refused its
// operands: the command's family and the error, not the operand's name
// (the task's), so that it comes after the same refusal whatever names
// the call gave. It reports whether the error had text for a trigger.
func (c *Candidate) onRefusal() bool {
	line, _ := lessons.ErrorLine(c.Problem)
	t, ex, ok := errorTrigger(c.Tool, c.Trigger, line, lessons.ErrorClass(c.Problem), lessons.FailedFamily(c.Trigger, line), "")
	if !ok || len(t.Commands) == 0 {
		return false
	}
	c.Triggers, c.Examples.Match = t, ex.Match
	c.sayAfter(line)
	return true
}

// identify gives a built candidate its id, from key and triggers, and
// its first occurrence.
func (c Candidate) identify(key string, t lessons.Trigger, f finding, sess Session, file, agent string) Candidate {
	c.ContentHash = candidateHash(key, t)
	c.ID = strings.TrimPrefix(c.ContentHash, "sha256:")[:12]
	uid := recordKey(f.UID, sess.ID, file, f.Line)
	call := ""
	if f.Call != "" {
		call = cmp.Or(sess.ID, file) + ":" + f.Call
	}
	dir := sess.Dir
	if dir == sess.Project {
		dir = ""
	}
	c.add(Provenance{File: file, Line: f.Line, SessionID: sess.ID, Project: sess.Project, Dir: dir, Agent: agent, Key: f.Kind + ":" + uid, Call: call, Covered: f.Covered})
	return c
}

var tagPlaceholder = regexp.MustCompile(`<([A-Za-z][\w-]*)>`)

// trigger fills Triggers and Examples. It reports whether a command
// trigger tells the failing call from the fixed one (or, with no fixed
// call, fires on the failing one). stopped is set for a call the user
// refused or interrupted: its trigger keeps what was refused.
func (c *Candidate) trigger(change *string, stopped bool) bool {
	cmd := tagPlaceholder.ReplaceAllString(c.Trigger, "$1")
	bash := c.Tool == "Bash" || (c.Tool == "" && c.Kind == KindTag && commandPattern(cmd) != "" && !strings.ContainsAny(cmd, "*"))
	if bash && c.Kind == KindTag && c.Fixed == "" {
		// The agent's own report names the fix in its solution.
		c.Fixed = Redact(solutionCommand(c.Solution, cmd))
	}
	defer c.checkFix(bash)
	switch {
	case bash && c.Fixed != "":
		if cmds, unless, ch, ok := fixPatterns(cmd, c.Fixed, c.Problem); ok {
			c.Triggers = lessons.Trigger{Commands: cmds, Unless: unless}
			c.Examples = lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: cmd}}, NoMatch: []lessons.ToolCall{{Tool: "Bash", Command: c.Fixed}}}
			*change = ch
			return true
		}
		if c.Kind == KindRetry {
			return false
		}
		fallthrough
	case bash:
		p := commandPattern(cmd)
		if stopped {
			// what the user refused, not every call of its command; a
			// correction of a failure is about how to run the command
			if r := refusedPattern(cmd, userWords(c.Solution)); commandFires(lessons.Trigger{Commands: []string{r}}, cmd) {
				p = r
			}
		}
		if p == "" {
			return false
		}
		c.Triggers = lessons.Trigger{Commands: []string{p}}
		if commandFires(c.Triggers, cmd) {
			c.Examples = lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: cmd}}}
		}
		return c.Fixed == ""
	case c.Tool != "" && c.Trigger != "" && !strings.ContainsAny(c.Trigger, " \n"):
		c.Triggers = lessons.Trigger{Tools: []string{c.Tool}, Paths: []string{pathGlob(c.Trigger)}}
		c.Examples = lessons.Examples{Match: []lessons.ToolCall{{Tool: c.Tool, Path: c.Trigger}}}
	case c.Tool != "":
		c.Triggers = lessons.Trigger{Tools: []string{c.Tool}}
	}
	return false
}

// userWords is what the user said in a solution, without the command
// the scan appended.
func userWords(solution string) string {
	said, _, _ := strings.Cut(solution, "\nRun `")
	said, _, _ = strings.Cut(said, "\nFix: ")
	return said
}

// checkFix makes sure a command trigger never fires on the command that
// fixed the mistake: the fix is a noMatch example, and a trigger that
// still fires on it needs a person to narrow it.
func (c *Candidate) checkFix(bash bool) {
	if !bash || c.Fixed == "" || len(c.Triggers.Commands) == 0 {
		return
	}
	if commandFires(c.Triggers, c.Fixed) {
		c.NeedsReview = true
		return
	}
	if !slices.ContainsFunc(c.Examples.NoMatch, func(e lessons.ToolCall) bool { return e.Command == c.Fixed }) {
		c.Examples.NoMatch = append(c.Examples.NoMatch, lessons.ToolCall{Tool: "Bash", Command: c.Fixed})
	}
}

// solutionPhrase finds commands a solution names: in backticks, or after
// "run" or "use" up to the end of the clause.
var solutionPhrase = regexp.MustCompile("`([^`\\n]+)`|\\b(?:[Rr]un|[Uu]se)\\s+([^`,;\\n]+?)(?:\\.(?:\\s|$)|[,;\\n]|$)")

// solutionCommand is the command of a solution that fixes failing: the
// first one it names with the same executable, else "".
func solutionCommand(solution, failing string) string {
	exe, _ := commandHead(firstSegment(failing))
	if exe == "" {
		return ""
	}
	for _, m := range solutionPhrase.FindAllStringSubmatch(solution, 8) {
		cand, _, _ := strings.Cut(m[1]+m[2], " instead")
		cand = strings.TrimSpace(cand)
		for _, seg := range segments(cand) {
			if e, _ := commandHead(seg); e == exe && cand != failing {
				return cand
			}
		}
	}
	return ""
}

func firstSegment(cmd string) []string {
	for _, seg := range segments(cmd) {
		if exe, _ := commandHead(seg); exe != "" && exe != "cd" {
			return seg
		}
	}
	return nil
}

// pathGlob is the glob for a path: its base name, or the glob itself.
func pathGlob(p string) string {
	if strings.ContainsAny(p, "*?") {
		return p
	}
	return p[strings.LastIndexByte(p, '/')+1:]
}

// summarize writes a one-line summary.
func summarize(c Candidate, change string) string {
	var s string
	switch {
	case c.Kind == KindTag:
		s = firstSentence(c.Problem)
	case change != "":
		s = changedHead(c.Trigger, c.Fixed) + ": " + change
	default:
		// the user's words, not the "Run `…` instead." the scan added:
		// the sentence that says what to do, else the first
		s = firstSentence(firstLine(c.Solution))
		if c.Kind == KindRejection {
			s = cmp.Or(instructionClause(firstLine(c.Solution)), s)
		}
		if h := headWords(c.Trigger); h != "" {
			s = h + ": " + s
		}
	}
	return shorten(strings.TrimRight(s, ".… "), maxSummary)
}

// maxSummary is the longest summary a candidate gets.
const maxSummary = 120

// firstSentence is the first sentence of a text that may wrap across
// lines: the lines joined, up to a '.', '!' or '?' that ends the text or
// is followed by a space and a capital letter.
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '.' && c != '!' && c != '?' {
			continue
		}
		if i+1 == len(s) || i+2 < len(s) && s[i+1] == ' ' && 'A' <= s[i+2] && s[i+2] <= 'Z' {
			return s[:i+1]
		}
	}
	return s
}

// shorten cuts s to at most n bytes: at the last clause boundary (a
// comma, semicolon, colon or dash) past the middle, so the summary is
// still a whole phrase, else at the last word, marked with "…".
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := s[:n]
	for _, sep := range []string{"; ", ", ", ": ", " — ", " - "} {
		if i := strings.LastIndex(cut, sep); i >= n/2 {
			return strings.TrimRight(cut[:i], " ")
		}
	}
	cut = s[:n-len("…")]
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1] // a word longer than the summary, cut inside a rune
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// changedHead is the executable and subcommand of the simple command a
// fix changed (grep in go test | grep), else the trigger's first.
func changedHead(failing, fixed string) string {
	if d, ok := diffCommands(failing, fixed); ok && d.exe != "" {
		return strings.TrimSpace(d.exe + " " + d.sub)
	}
	return headWords(failing)
}

// headWords is the executable and subcommand a command trigger is about.
func headWords(cmd string) string {
	for _, seg := range segments(cmd) {
		exe, sub := commandHead(seg)
		if exe != "" && exe != "cd" {
			return strings.TrimSpace(exe + " " + sub)
		}
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// add counts an occurrence unless its key was seen before. It reports
// whether anything changed.
func (c *Candidate) add(p Provenance) bool {
	for _, q := range c.Provenance {
		if q.Key == p.Key || p.Call != "" && q.Call == p.Call || p.copyOf(q) {
			return false
		}
	}
	c.Occurrences++
	if len(c.Provenance) < MaxProvenance {
		c.Provenance = append(c.Provenance, p)
	}
	c.Sessions = addUnique(c.Sessions, p.SessionID)
	c.Projects = addUnique(c.Projects, p.Project)
	c.Agents = addUnique(c.Agents, p.Agent)
	return true
}

// copyOf reports whether p is q's call copied into another session: a
// resumed or forked session's log repeats the calls before it with their
// ids, which the agent drew at random (toolu_01YAwy…, call_9cYEmx…), so
// the same drawn id in two sessions is one call, seen once. An id
// counted out in its session (run_shell_command-1) is no such id.
func (p Provenance) copyOf(q Provenance) bool {
	id, qid := p.Call[strings.LastIndexByte(p.Call, ':')+1:], q.Call[strings.LastIndexByte(q.Call, ':')+1:]
	return id == qid && slices.ContainsFunc(strings.FieldsFunc(id, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), drawn)
}

// drawn reports whether a word of an id looks drawn at random: ten or
// more letters and digits, both.
func drawn(w string) bool {
	return len(w) >= 10 && strings.ContainsFunc(w, unicode.IsLetter) && strings.ContainsFunc(w, unicode.IsDigit)
}

func addUnique(list []string, v string) []string {
	if v == "" || slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

// merge folds a newly built candidate with the same id into c, and
// reports whether c changed.
func (c *Candidate) merge(n Candidate) bool {
	changed := false
	for _, p := range n.Provenance {
		changed = c.add(p) || changed
	}
	if !changed {
		return false
	}
	s := &c.Signals
	s.UserCorrection = s.UserCorrection || n.Signals.UserCorrection
	s.FixConfirmed = s.FixConfirmed || n.Signals.FixConfirmed
	s.Hang = s.Hang || n.Signals.Hang
	s.DataLoss = s.DataLoss || n.Signals.DataLoss
	s.Causal = s.Causal || n.Signals.Causal
	s.SelfReported = s.SelfReported || n.Signals.SelfReported
	s.Question = s.Question || n.Signals.Question
	s.Feedback = s.Feedback || n.Signals.Feedback
	switch {
	case c.Kind != KindError:
		s.OneOff = s.OneOff && n.Signals.OneOff
	case n.Solution == c.Solution:
		c.fixSeenAgain() // a lesson on an error keeps its first fix's words (foldError): seen again, they are no one-off
	}
	s.Broad = s.Broad || n.Signals.Broad
	s.Works = s.Works || n.Signals.Works
	s.Reminds = s.Reminds && n.Signals.Reminds
	s.Retries = max(s.Retries, n.Signals.Retries)
	s.FixVaries = s.FixVaries || n.Signals.FixVaries
	s.FixAgain = s.FixAgain || n.Signals.FixAgain
	s.Sandboxed = s.Sandboxed || n.Signals.Sandboxed
	s.Wrote = s.Wrote && n.Signals.Wrote
	if n.LastSeen.After(c.LastSeen) {
		c.LastSeen = n.LastSeen
	}
	return true
}

// candidateHash identifies a candidate by what it teaches: the sha256 of
// key (the fix, or the solution) and its triggers, so the same mistake
// found in many sessions is one candidate.
func candidateHash(key string, t lessons.Trigger) string {
	trig, _ := json.Marshal(t)
	h := sha256.New()
	for _, part := range [][]byte{nil, []byte(key), trig} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
