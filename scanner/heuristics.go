package scanner

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons"
)

// Tier 2 finds a mistake without a model: a tool call fails (an error, a
// non-zero exit, a timeout, an interrupt or a rejection), and then, within
// a window, the agent retries the same tool differently and succeeds,
// and/or the user corrects it. The analyzer reads a session's events once,
// keeping a bounded amount of state.

// Finding kinds.
const (
	KindTag        = "tag"        // the agent's own #lesson block
	KindRetry      = "retry"      // a failure fixed by a different retry
	KindCorrection = "correction" // a failure the user corrected
	KindRejection  = "rejection"  // a tool call the user refused, with a reason
)

// Limits of the analyzer's memory and of its window.
const (
	retryWindow  = 6   // tool calls after a failure in which a retry counts
	maxOpen      = 8   // failures waiting for a retry or a correction
	maxCalls     = 512 // calls remembered for pairing with their results
	maxCorrected = 600 // longest user message taken as a correction
)

// finding is one detected mistake, before redaction and merging.
type finding struct {
	Kind    string
	Line    int
	UID     string
	Tool    string
	Trigger string // the failing command or path
	// Stage is, for a precondition, the simple command of Trigger that
	// failed when the line's first is another (`git add f && git commit`
	// failing in its commit hook): its trigger is made of that one.
	Stage    string
	Fixed    string // the command that worked
	Change   string // what the fix changed, in words
	Problem  string
	Solution string
	Tags     []string
	Scope    string
	Signals  Signals
	// Call is the id of the failing call the finding is about (for a
	// tag, the failure it reports), so that the same failure seen by two
	// routes counts once.
	Call string
	// Covered is set when the agent also wrote a #lesson block near a
	// heuristic finding, for the compliance report.
	Covered bool
	// Stopped is set when the user stopped the call (refused or
	// interrupted it) rather than answered its failure: the lesson is
	// about what that call did (refusal.go).
	Stopped bool
	// Passed are the words the failed call was given (Call.Passed), which
	// a lesson on its error does not key on.
	Passed string
	// ErrLine is the line of the output a lesson on the error matches
	// (KindError).
	ErrLine string
	// Tried and Instead are, for a lesson on an error nothing got past,
	// commands of its family that failed after it and a command of the
	// same program that worked instead (KindError).
	Tried   []string
	Instead string
	Reading string // the agent's reading of it (reading.go)
	// Skipped is the option or variable (--no-verify) with which a call
	// of its family went through only by switching a check off.
	Skipped string
	// Sandboxed: a setting that lets the shell out of its sandbox got
	// past it (KindError): the lesson holds for any shell command.
	Sandboxed bool
	// Workdir is, for a retry that ran the same command in another
	// working directory (Codex's workdir, Gemini CLI's dir_path), the
	// directory it worked in, as its lesson names it (workdir.go).
	Workdir string
	// Setting: what got past it was a setting of the shell tool switched
	// on the same command (out of the sandbox, into the background): the
	// agent's way to call, no value of one task.
	Setting bool
	// Support: the finding only adds its session to the candidate of the
	// same id found before (a known failure seen again after the session
	// changed something); alone it is no candidate.
	Support bool
	// Path is a wrong path's lesson (KindPath).
	Path *wrongPath
}

// Signals are the evidence behind a candidate.
type Signals struct {
	UserCorrection bool `json:"userCorrection,omitempty"`
	FixConfirmed   bool `json:"fixConfirmed,omitempty"`
	Retries        int  `json:"retries,omitempty"`
	Hang           bool `json:"hang,omitempty"`
	DataLoss       bool `json:"dataLoss,omitempty"`
	Causal         bool `json:"causal,omitempty"`
	SelfReported   bool `json:"selfReported,omitempty"`
	// Question and Feedback mark a rejection whose reason, or a
	// correction without a fix whose words, are only a question, or
	// feedback on the plan or task without an instruction (reason.go): a
	// weak lesson, scored lower and listed last.
	Question bool `json:"question,omitempty"`
	Feedback bool `json:"feedback,omitempty"`
	// OneOff marks a fix, or a user's correction or reason, whose words
	// name something of one task (a path, a line number, a hash:
	// support.go), a reason about the call at hand (this, for now, if
	// we...: reason.go) or about nothing of the command (refusal.go), or
	// a file named for one task; it stays below minConfidence until seen
	// in a second session or reported by the agent.
	OneOff bool `json:"oneOff,omitempty"`
	// Broad marks a command trigger that fires on most calls of its
	// command in the scanned history (broad.go): it would speak before
	// calls that go fine, so it stays below minConfidence.
	Broad bool `json:"broad,omitempty"`
	// Works marks a wrong path's lesson whose path worked afterwards in
	// as many sessions as it failed in (the file is there now: moved
	// back, made, another checkout): it would come before calls that go
	// fine, so it stays below minConfidence.
	Works bool `json:"works,omitempty"`
	// Reminds marks a lesson on an error for any shell command whose
	// call a retry's lesson already proposes to fix for its own command
	// family: it is not proposed again (it stays below minConfidence)
	// and only comes, as a reminder, after the same error met by another
	// command (onerror.go). It marks too a lesson on an error whose fix
	// is one only a lesson after the error may say (errfix.go), and a
	// retry's that dropped operands a usage error refused, whose words
	// are the task's names (refusedOperand): said after the error, never
	// proposed to the team.
	Reminds bool `json:"reminds,omitempty"`
	// FixVaries marks a lesson on an error that another session got past
	// another way, and FixAgain one that another session got past the
	// same way. A lesson whose fix varies and never came again is not
	// proposed: the sessions do not agree on what gets past the error.
	FixVaries bool `json:"fixVaries,omitempty"`
	FixAgain  bool `json:"fixAgain,omitempty"`
	// Sandboxed marks a lesson on an error that a setting letting the
	// shell out of its sandbox got past: the environment refused, not
	// the command.
	Sandboxed bool `json:"sandboxed,omitempty"`
	// Wrote marks a precondition whose steps write a file: a file the
	// agent writes stays in the checkout, so what comes back is another
	// task needing another file, and what it wrote is the task's (the
	// code a test written first imports, a file it rewrote). Said after
	// its error, never proposed.
	Wrote bool `json:"wrote,omitempty"`
}

type callRec struct {
	at   string // the call's timestamp as logged, or ""
	off  int64  // offset of the call's line, to read it again
	id   string
	call *Call
	seq  int
	line int
	uid  string
	done bool
	// fixed is set on a failed call that a later call of the session
	// got past (a retry or a rerun worked): no known failure.
	fixed bool
	// shellAway is set on a failed shell call made while the shell stood
	// where an earlier cd left it, away from the project (noteCd).
	shellAway bool
}

type failure struct {
	rec        *callRec
	res        *Result
	line       int
	uid        string
	kind       string // KindCorrection or KindRejection
	interrupt  bool
	retries    int
	correction string // what the user said
	causal     bool
	tagged     bool
	// said is what the agent wrote while the failure was open (cut at
	// maxSaid): its reason for what it tried next.
	said string
}

// maxSaid caps the agent's words a failure keeps.
const maxSaid = 4 << 10

// analyzer turns a session's events into findings. It implements sink.
type analyzer struct {
	sess     Session
	off      int64 // offset of the line being read
	calls    map[string]*callRec
	order    []string
	open     []*failure
	seq      int
	lastUser string
	lastCall *callRec
	settled  []*callRec // the last failures settled, for a tag to name
	findings []finding
	// commands are the first shell commands of the session, a sample
	// for checking how broad a trigger is (broad.go).
	commands  []string
	waiting   []*waiting      // failures a change of state may fix (precondition.go)
	changed   bool            // the session changed a file or the environment
	known     []knownFailure  // failures before any change (known.go)
	watch     []*errWatch     // failures waiting for what gets past them (onerror.go)
	edited    []string        // files the session edited (onerror.go)
	missing   []*missingWatch // paths that did not exist (wrongpath.go)
	areas     map[string]bool // folders of files the session used (wrongpath.go)
	cwds      map[string]bool // folders its calls ran in: they exist
	folders   []string        // a sample of the folders of files used that worked, for the file (broad.go)
	files     []string        // a sample of the files file tools used and that worked (broad.go)
	procs     processes       // the processes the agent runs and stops (stopped.go)
	malformed int
	templates int
	tags      int
	// shellMoved is set once a shell call changed to another directory
	// than the project's (wrongpath.go, noteCd).
	shellMoved bool
}

func newAnalyzer() *analyzer { return &analyzer{calls: map[string]*callRec{}} }

func (a *analyzer) session() *Session { return &a.sess }

func (a *analyzer) event(e Event) {
	if te, ok := a.toolError(e); ok {
		e = te
	}
	switch e.Kind {
	case ToolCall:
		a.seq++
		if e.Call != nil && e.Call.Command != "" && len(a.commands) < sampleCallsPerFile {
			a.commands = append(a.commands, e.Call.Command)
		}
		if e.Call != nil && e.Call.Dir != "" && strings.TrimSuffix(e.Call.Dir, "/") == strings.TrimSuffix(a.sess.Project, "/") {
			e.Call.Dir = "" // the session's own directory, where a call naming none runs
		}
		rec := &callRec{at: e.Time, off: a.off, id: e.CallID, call: e.Call, seq: a.seq, line: e.Line, uid: e.UID}
		a.lastCall = rec
		a.procs.called(e.Call, a.seq)
		if e.CallID == "" {
			return
		}
		if _, dup := a.calls[e.CallID]; !dup {
			a.order = append(a.order, e.CallID)
			if len(a.order) > maxCalls {
				delete(a.calls, a.order[0])
				a.order = a.order[1:]
			}
		}
		a.calls[e.CallID] = rec
	case ToolResult:
		rec := a.calls[e.CallID]
		if rec == nil || rec.done {
			return
		}
		rec.done = true
		if a.procs.stopped(rec, e.Result) {
			return // neither a failure nor a fix: the agent ended it
		}
		unecho(rec.call, e.Result)
		a.result(rec, e)
		if asideRun(rec.call) {
			a.asideSaw(rec, e.Result)
		}
		if e.Result.Failed() {
			a.watchMissing(rec, e.Result, e.Line)
			rec.shellAway = a.shellMoved // where the call ran, before its own cd counts
			a.noteCd(rec.call)
			if !probe(rec.call, e.Result) && !conflicted(e.Result.Output) {
				a.waitFor(rec, e.Result)
				a.beforeChange(rec, e.Result)
				a.watchFailure(rec, e.Result)
			}
		} else {
			a.watchSuccess(rec)
			a.missingSaw(rec)
			a.noteCd(rec.call)
			a.succeeded(rec)
		}
	case AssistantText:
		a.assistant(e)
	case UserText:
		if e.Text == a.lastUser {
			return
		}
		a.lastUser = e.Text
		a.user(e.Text)
	case Interrupt:
		rec := a.calls[e.CallID]
		if rec == nil && e.CallID == "" && a.lastCall != nil && !a.lastCall.done {
			rec = a.lastCall
		}
		if rec == nil {
			return
		}
		rec.done = true
		a.push(&failure{rec: rec, line: e.Line, uid: e.UID, kind: KindCorrection, interrupt: true})
	case Rejection:
		rec := a.calls[e.CallID]
		if rec == nil {
			return
		}
		rec.done = true
		if rec.call.Asks {
			return // the user answered the agent's question or plan
		}
		reason := strings.TrimSpace(e.Text)
		a.push(&failure{rec: rec, line: e.Line, uid: e.UID, kind: KindRejection, correction: reason})
	}
}

// resumeAt is the earliest call of a session still being written that a
// later read must see again: a failure still open (a retry or a
// correction may follow), or a call whose result is not written yet.
// Read from after it, the result would name a call the reader never saw
// (an agent writing its log while a scan reads it: the failed call of a
// retry lost). nil when there is none.
func (a *analyzer) resumeAt() *callRec {
	var first *callRec
	earlier := func(r *callRec) {
		if first == nil || r.off < first.off {
			first = r
		}
	}
	for _, f := range a.open {
		earlier(f.rec)
	}
	for _, id := range a.order {
		if r := a.calls[id]; r != nil && !r.done {
			earlier(r)
		}
	}
	return first
}

func (a *analyzer) push(f *failure) {
	a.open = append(a.open, f)
	if len(a.open) > maxOpen {
		a.close(a.open[0])
		a.open = a.open[1:]
	}
}

func (a *analyzer) result(rec *callRec, e Event) {
	r := e.Result
	if r.Failed() {
		if probe(rec.call, r) {
			return
		}
		f := &failure{rec: rec, res: r, line: e.Line, uid: e.UID, kind: KindCorrection}
		if prev := a.similarOpen(rec); prev != nil {
			f.retries = prev.retries + 1
			f.correction, f.causal = prev.correction, prev.causal
			a.drop(prev)
		}
		a.push(f)
		return
	}
	prev := a.similarOpen(rec)
	if prev == nil {
		return
	}
	prev.rec.fixed = prev.rec.fixed || gotPast(prev.rec.call, rec.call)
	a.drop(prev)
	a.settle(prev)
	if from, to := a.otherWorkdir(prev, rec.call); to != "" {
		a.emitWorkdir(prev, from, to)
		return
	}
	if prev.rec.call.Tool != "Bash" || prev.rec.call.Command == rec.call.Command || rec.line < prev.line ||
		(prev.correction == "" && !fixWorthy(prev.rec.call.Command, rec.call.Command, prev.res) &&
			!saidWhy(prev.said, prev.rec.call.Command, rec.call.Command)) ||
		prev.correction == "" && !retryAnswers(prev.res.Output, prev.rec.call.Command, rec.call.Command) {
		a.close(prev) // fixed elsewhere, made alongside the failure (before it came back), or a change no lesson can teach
		return
	}
	if prev.res != nil && lessons.FallsBack(rec.call.Command, failedFamily(prev.rec.call.Command, prev.res)) {
		a.close(prev) // the line succeeds whether the command did or not: no sign the change fixed it
		return
	}
	a.emit(prev, rec.call.Command)
}

// retryAnswers reports whether what a retry changed can be what got past
// its failure, as far as the failure's class tells: not for a call the
// environment refused (no network, EPERM, a read-only file system: the
// retry worked around the refusal, and the lesson on the refusal says it
// for any command), nor for a command line the shell refused but by the
// change that answers it (an unmatched glob, quoted). A timeout may be
// the command's own (a test runner left in watch mode), so it stays.
func retryAnswers(out, failed, fixed string) bool {
	class := lessons.ErrorClass(out)
	if !lessons.IsRefusal(class) {
		return true
	}
	_, _, change, ok := fixPatterns(failed, fixed, out)
	return ok && class == lessons.ShellGlobRefusal && strings.HasPrefix(change, "quote ")
}

// withoutNotices is an output without its warnings, notes and the lines
// of checks that passed (lessons.NoticeLine).
func withoutNotices(out string) string {
	return dropLines(out, func(line string) bool { return lessons.NoticeLine(strings.TrimSpace(line)) })
}

// dropLines is out without the lines drop holds for.
func dropLines(out string, drop func(line string) bool) string {
	var b strings.Builder
	for line := range strings.Lines(out) {
		if !drop(line) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// filteredOnly reports whether fixed is failing with only commands that
// look at its output after it (| grep x, | tail -5): such a call "works"
// because the filter did, whatever the command did.
func filteredOnly(failing, fixed string) bool {
	fs, gs := segments(failing), segments(fixed)
	if len(gs) <= len(fs) {
		return false
	}
	for i, g := range gs {
		if i < len(fs) {
			if !slices.Equal(withoutRedirections(fs[i]), withoutRedirections(g)) {
				return false
			}
			continue
		}
		if exe, _ := commandHead(g); !probes[exe] && !filters[exe] {
			return false
		}
	}
	return true
}

// filters reorder or cut what a command printed, as the probes that read
// it do (grep, head): a pipeline that ends in them exits with their
// status, not the command's.
var filters = map[string]bool{"sort": true, "uniq": true, "cut": true, "tr": true, "column": true, "nl": true, "less": true, "more": true}

// unplaced is an output without the lines a check placed at a line of a
// file (placedFinding): what a compiler or a linter found in the code.
func unplaced(out string) string {
	if !placedFinding.MatchString(out) {
		return out
	}
	return dropLines(out, placedFinding.MatchString)
}

// withoutRedirections is a simple command's words but its redirections
// (2>&1).
func withoutRedirections(seg []string) []string {
	return slices.DeleteFunc(slices.Clone(seg), func(w string) bool { return strings.ContainsAny(w, "<>") })
}

// exploring are arguments that ask about a command rather than fix it.
var exploring = map[string]bool{"--help": true, "-h": true, "help": true, "--version": true, "-V": true, "--dry-run": true}

// invocationError matches errors about how a command was called, as
// opposed to what it found (a failing test, a lint error).
var invocationError = regexp.MustCompile(`(?i)(unknown (option|flag|command|subcommand|argument)|unrecognized|invalid (option|argument|choice|value|flag)|usage:|command not found|not found|no such file|does not exist|requires? (an? )?(argument|value)|missing (required )?(argument|option|operand)|permission denied|not allowed|not permitted|did you mean|cannot find|could not find|couldn't find|externally.managed|enoent|not installed|no module named|not recognized|unsupported|unexpected argument|blocked|\bno \S+ found)`)

// misuse matches errors that say the call itself was wrong (a command,
// an option or an argument the tool does not know), as opposed to a
// file or a thing it did not find.
var misuse = regexp.MustCompile(`(?i)(unknown (command|option|flag|subcommand|argument)|unrecognized|invalid (argument|option|command|flag)|unexpected argument|did you mean)`)

// checkMode are options that only check what the same call without them
// would change (prettier --check, then --write).
var checkMode = map[string]bool{"--check": true, "--dry-run": true, "--diff": true, "--list-different": true}

// fixWorthy reports whether a retry that worked teaches something about
// how to call the command: a changed flag or executable the error points
// at, a missing argument, or an environment variable. A retry that only
// aims the command elsewhere (another test, another file) or asks for
// help is exploration, not a fix.
func fixWorthy(failing, fixed string, res *Result) (worthy bool) {
	d, ok := diffCommands(failing, fixed)
	if !ok || filteredOnly(failing, fixed) {
		return false // or it only filtered the output (| grep): its exit status is the filter's
	}
	out, reported := "", ""
	if res != nil {
		if cdFailed(failing, res.Output) {
			return false // the line's own cd failed, and what it was to run never ran: a wrong folder (wrongpath.go)
		}
		// what a check found in the code, placed at a line of a file
		// ("a.ts(21,27): error TS2835: … Did you mean '../worker.js'?"), is
		// no word on how the command was called
		found := unplaced(res.Output)
		out = strings.ToLower(found)
		reported = strings.ToLower(withoutNotices(found)) // a passing check's name ("throws UnknownFlagError") is no misuse
		defer func() {
			// checked last, since most retries fail the cheaper tests
			worthy = worthy && addresses(d, res) // else it failed for a reason the fix left alone
		}()
	}
	if d.quoted != "" {
		return shellError.MatchString(res.Output)
	}
	for _, w := range d.added {
		if exploring[w] {
			return false
		}
		if assignment.MatchString(w) {
			return true
		}
	}
	if slices.ContainsFunc(d.removed, func(w string) bool { return checkMode[w] }) {
		return false // checked, then applied: the tool's workflow, not a mistake
	}
	if fv := flagValue(d); fv.lists() {
		// another list for a flag: the fix is a value it dropped that
		// the error names (Unknown JSON field: "reviewThreads"); what it
		// added is the task's choice
		return listNamed(listDrop(fv), res.Output)
	}
	switch {
	case d.dash != "", d.wrapper != nil, d.prelude != nil:
	case flagValue(d) != nil: // --since 1d → --since 1
	case d.gexe != d.exe:
		if jaccard(d.f[1:], d.g[1:]) < 0.5 {
			return false
		}
	case d.gsub != d.sub:
		return false
	case positional(d.f) > 0 && positional(d.g) == 0:
		return false // it ran without what it was to work on (pnpm run -w lists the scripts): another job
	case replacedMissing(d, out):
		// the path it replaced is the one the error did not find
	case !hasFlag(d.added) && !hasFlag(d.removed) && positional(d.f) > 0 && !misuse.MatchString(reported):
		return false
	case hasWord(d.added) && hasWord(d.removed) && !misuse.MatchString(reported):
		return false // aimed at something else
	}
	if invocationError.MatchString(out) {
		return true
	}
	if d.prelude != nil && preludeNamed(d, out) {
		return true // the tool said what to do first ("Please commit or stash them"), and the retry did it
	}
	if d.sub != "" && strings.Contains(out, d.exe+" "+d.sub+" -") {
		return true // the tool printed how to call it (git push --set-upstream …)
	}
	if d.gexe != d.exe && strings.Contains(out, d.exe) {
		return true
	}
	for _, w := range append(append([]string(nil), d.removed...), d.added...) {
		if k, _, _ := strings.Cut(w, "="); len(k) >= 3 && k[0] == '-' && strings.Contains(out, strings.ToLower(k)) ||
			len(k) == 2 && k[0] == '-' && k[1] != '-' && containsWord(out, strings.ToLower(k)) {
			return true // the output names the flag (git: "Use -f if you really want to add them")
		}
	}
	// or spells out the one flag the retry dropped (cargo: "no library targets" for --lib)
	return droppedAbbreviated(d, out)
}

// replacedMissing reports whether a retry replaced a path written from a
// variable ($HOME, ~), which the failure's output (lower case) says it did
// not find, with the same name elsewhere: "Cannot find module
// '/home/u/.claude/x/tool.cjs'" for $HOME/.claude/x/tool.cjs, then
// $HOME/.claude-work/x/tool.cjs. The path is the call's mistake, not
// another job. The output prints the path expanded, so its last two parts
// must be there. (A path written out in full is the same name put right
// when the error names it: swappedNamed, an error lesson.)
func replacedMissing(d cmdDiff, out string) bool {
	if len(d.removed) != 1 || len(d.added) != 1 || !strings.ContainsAny(d.removed[0], "$~") ||
		baseName(strings.Trim(d.removed[0], `'"`)) != baseName(strings.Trim(d.added[0], `'"`)) || !missingFile.MatchString(out) {
		return false // not the same name elsewhere: another file to work on
	}
	parts := strings.Split(strings.Trim(d.removed[0], `'"/`), "/")
	if len(parts) < 2 {
		return false
	}
	tail := strings.ToLower(strings.Join(parts[len(parts)-2:], "/"))
	return len(tail) >= 6 && strings.Contains(out, tail)
}

// preludeNamed reports whether a failure's output (lower case) names the
// step a retry ran first: its subcommand (git stash, npm install), or its
// program when that is another than the failed one's.
func preludeNamed(d cmdDiff, out string) bool {
	exe, sub := commandHead(d.prelude)
	name := sub
	if name == "" && exe != d.exe {
		name = path.Base(exe)
	}
	return exe != "cd" && len(name) >= 3 && containsWord(out, strings.ToLower(name))
}

func hasWord(ws []string) bool {
	for _, w := range ws {
		if !strings.HasPrefix(w, "-") {
			return true
		}
	}
	return false
}

func hasFlag(ws []string) bool {
	for _, w := range ws {
		if strings.HasPrefix(w, "-") {
			return true
		}
	}
	return false
}

// positional counts a simple command's arguments that are not options
// or redirections, after its head.
func positional(words []string) int {
	n := 0
	for _, w := range headArgs(words) {
		if !strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "<>") {
			n++
		}
	}
	return n
}

// similarOpen returns the latest open failure that rec retries: same
// tool, within the window, and for commands the same executable or
// mostly the same words. A command the shell did not find the program
// of, run word for word through another command (wrapperOf), is retried
// first, and later than the window: that is the fix, however long the
// agent looked for it.
func (a *analyzer) similarOpen(rec *callRec) *failure {
	if rec.call.Tool == "Bash" {
		for i := len(a.open) - 1; i >= 0; i-- {
			f := a.open[i]
			if f.rec.call.Tool == "Bash" && f.res != nil && rec.seq > f.rec.seq && rec.seq-f.rec.seq <= watchWindow &&
				wrapperOf(f.res, f.rec.call.Command, rec.call.Command) != "" {
				return f
			}
		}
	}
	for i := len(a.open) - 1; i >= 0; i-- {
		f := a.open[i]
		if f.rec.call.Tool != rec.call.Tool || rec.seq-f.rec.seq > retryWindow || rec.seq <= f.rec.seq {
			continue
		}
		if rec.call.Tool != "Bash" {
			if f.rec.call.Path == rec.call.Path {
				return f
			}
			continue
		}
		if sameHead(f.rec.call.Command, rec.call.Command) ||
			jaccard(shellWords(f.rec.call.Command), shellWords(rec.call.Command)) >= 0.5 ||
			addsFlags(f.rec.call.Command, rec.call.Command) {
			return f
		}
	}
	return nil
}

// addsFlags reports whether fixed is failed with flags added at its end
// (deploy.sh, then deploy.sh --env dev): the same call, though
// commandPattern reads an added flag's value as a subcommand and a short
// command's few words fail jaccard. A literal test: similarOpen runs for
// every call that worked while failures are open.
func addsFlags(failed, fixed string) bool {
	rest, ok := strings.CutPrefix(fixed, failed)
	return ok && strings.HasPrefix(rest, " -")
}

func sameHead(a, b string) bool {
	pa, pb := commandPattern(a), commandPattern(b)
	return pa != "" && pa == pb
}

func (a *analyzer) drop(f *failure) {
	for i, g := range a.open {
		if g == f {
			a.open = append(a.open[:i], a.open[i+1:]...)
			return
		}
	}
}

var causalWords = regexp.MustCompile(`(?i)\b(because|root cause|the issue is|the problem is|caused by|the reason is)\b`)

func (a *analyzer) assistant(e Event) {
	blocks, malformed, templates := parseTags(e.Text)
	a.malformed += malformed
	a.templates += templates
	for _, b := range blocks {
		a.tags++
		a.findings = append(a.findings, finding{
			Kind: KindTag, Line: e.Line, UID: e.UID, Tool: b.Tool, Trigger: b.Trigger, Call: a.reported(b.Trigger),
			Problem: b.Problem, Solution: b.Solution, Tags: b.Tags, Scope: b.Scope,
			Signals: Signals{SelfReported: true, Causal: causalWords.MatchString(b.Problem + " " + b.Solution)},
		})
	}
	a.readFailures(e.Text)
	if len(a.open) == 0 {
		return
	}
	causal := causalWords.MatchString(e.Text)
	for _, f := range a.open {
		f.tagged = f.tagged || len(blocks) > 0
		f.causal = f.causal || causal
		if len(f.said) < maxSaid {
			f.said = clip(f.said+"\n"+e.Text, maxSaid)
		}
	}
}

// user takes a human message: the first one after a failure may correct
// it; any message ends the window of every open failure.
func (a *analyzer) user(t string) {
	if n := len(a.open); n > 0 {
		if f := a.open[n-1]; f.correction == "" && saysWhy(t, f) {
			f.correction = t
			a.open = a.open[:n-1]
			a.closeAll()
			a.open = append(a.open, f) // a retry may still confirm it
			return
		}
	}
	a.closeAll()
}

// reported is the id of the latest failure of this session that a tag
// about trigger reports: an open or recently settled failing call with
// the same executable and subcommand, else "".
func (a *analyzer) reported(trigger string) string {
	about := func(c *Call) bool {
		if c.Command != "" {
			return sameHead(c.Command, trigger)
		}
		base := path.Base(c.Path)
		return c.Path != "" && trigger != "" && (strings.HasSuffix(c.Path, trigger) || strings.Contains(trigger, base))
	}
	for i := len(a.open) - 1; i >= 0; i-- {
		if r := a.open[i].rec; about(r.call) {
			return r.id
		}
	}
	for i := len(a.settled) - 1; i >= 0; i-- {
		if r := a.settled[i]; about(r.call) {
			return r.id
		}
	}
	return ""
}

// settle remembers a failure that no longer waits for a fix.
func (a *analyzer) settle(f *failure) {
	a.settled = append(a.settled, f.rec)
	if len(a.settled) > maxOpen {
		a.settled = a.settled[1:]
	}
}

func (a *analyzer) closeAll() {
	for _, f := range a.open {
		a.close(f)
	}
	a.open = a.open[:0]
}

// flush ends the session: every open failure is settled.
func (a *analyzer) flush() {
	a.closeAll()
	a.settlePaths()
	a.settleKnown()
	a.settleErrors()
	a.supportKnown()
}

// close settles a failure that no retry fixed: it is a finding when the
// user said something about it.
func (a *analyzer) close(f *failure) {
	a.settle(f)
	if f.correction != "" {
		a.emit(f, "")
	}
}

var correctionWords = regexp.MustCompile(`(?i)(^(no|nope|stop|wait|wrong|revert|undo)\b|\b(don'?t|do not|never|instead|wrong|revert|shouldn'?t|should not|not like that|rather than|use \S+ not)\b)`)

// refersTo reports whether a user's message is about the failed call: it
// names the call's executable or a file of it, or repeats a word of its
// error. A rejection's reason is always about the call it rejected.
func refersTo(t string, f *failure) bool {
	if f.kind == KindRejection || f.interrupt {
		return true
	}
	lower := strings.ToLower(t)
	c := f.rec.call
	if seg := firstSegment(c.Command); seg != nil {
		if exe, sub := commandHead(seg); len(exe) >= 2 && containsWord(lower, strings.ToLower(exe)) ||
			len(sub) >= 3 && containsWord(lower, strings.ToLower(sub)) {
			return true
		}
	}
	if c.Path != "" && strings.Contains(lower, strings.ToLower(c.Path[strings.LastIndexByte(c.Path, '/')+1:])) {
		return true
	}
	if f.res != nil {
		first, _, _ := strings.Cut(strings.TrimSpace(errorBody(f.res.Output)), "\n")
		for _, w := range strings.FieldsFunc(strings.ToLower(first), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.')
		}) {
			if len(w) >= 5 && !correctionWords.MatchString(w) && containsWord(lower, w) {
				return true
			}
		}
	}
	return false
}

// containsWord reports whether w occurs in s as a whole word; an empty w
// does not.
func containsWord(s, w string) bool { return findWord(s, w, nil) }

// findWord reports whether w is a word of s somewhere, and where keep is
// set, one at whose end (the index after it) keep holds.
func findWord(s, w string, keep func(end int) bool) bool {
	if w == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !isWordByte(s[j-1])) && (end == len(s) || !isWordByte(s[end])) && (keep == nil || keep(end)) {
			return true
		}
		i = j + 1
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-'
}

// saysWhy reports whether a user's message says what was wrong with
// failure f: a correction about its call, or, for a refusal that came
// with no reason, the user's next words unless they ask a question.
func saysWhy(t string, f *failure) bool {
	if !refersTo(t, f) {
		return false
	}
	return isCorrection(t) || f.kind == KindRejection && len(t) <= maxCorrected && !strings.HasSuffix(strings.TrimSpace(t), "?")
}

// isCorrection reports whether a user's message corrects the agent.
func isCorrection(t string) bool {
	return len(t) <= maxCorrected && correctionWords.MatchString(t)
}

// emit turns a failure into a finding; fixed is the command of a
// successful retry, or "".
func (a *analyzer) emit(f *failure, fixed string) {
	c := f.rec.call
	fd := finding{
		Kind: f.kind, Line: f.line, UID: f.uid, Tool: c.Tool, Trigger: callTrigger(c), Fixed: fixed,
		Call: f.rec.id, Covered: f.tagged, Stopped: f.kind == KindRejection || f.interrupt,
		Signals: Signals{
			UserCorrection: f.correction != "", FixConfirmed: fixed != "", Retries: f.retries,
			Causal: f.causal || fixed != "" && saidWhy(f.said, c.Command, fixed), DataLoss: dataLoss(c.Command) || dataLoss(f.correction),
			Hang: (f.interrupt && c.Tool == "Bash") || (f.res != nil && f.res.Timeout),
		},
	}
	if fd.Kind == KindCorrection && f.correction == "" {
		fd.Kind = KindRetry
	}
	switch {
	case f.kind == KindRejection:
		fd.Signals.Question, fd.Signals.Feedback = classifyReason(f.correction)
		fd.Problem = "The user refused " + describe(c)
		if f.correction != "" {
			fd.Problem += ", saying: " + clip(firstLine(f.correction), 200)
		}
		fd.Problem += "."
	case f.interrupt:
		fd.Problem = "The user interrupted " + describe(c) + "."
	default:
		fd.Problem = f.res.errorText()
		if fd.Problem == "" {
			return
		}
	}
	if fd.Kind == KindCorrection && fixed == "" {
		// what the user said is all the lesson has: a question or a
		// remark is not one (a retry that worked after it is)
		fd.Signals.Question, fd.Signals.Feedback = classifyReason(f.correction)
	}
	fd.Solution = f.correction
	if fixed != "" && f.correction == "" && f.res != nil {
		failed, worked := changedCommands(c, fixed)
		fd.Signals.Reminds = echoes(f.res.Output, failed, worked)
	}
	if fixed != "" {
		if fd.Solution != "" {
			fd.Solution += "\n"
		}
		fd.Solution += "Run `" + shownCommand(fixed, 300) + "` instead."
	}
	a.findings = append(a.findings, fd)
}

func callTrigger(c *Call) string {
	if c.Command != "" {
		return c.Command
	}
	return c.Path
}

func describe(c *Call) string {
	switch {
	case c.Command != "":
		return "`" + shownCommand(c.Command, 200) + "`"
	case c.Path != "":
		return article(c.Tool) + c.Tool + " of " + c.Path
	}
	return article(c.Tool) + c.Tool + " call"
}

func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOUaeiou", rune(word[0])) {
		return "an "
	}
	return "a "
}

// shownCommand is a command as a lesson quotes it, on one line: a line
// continued with a backslash joins the next, and of a command of several
// lines (a heredoc's body, an inline script) the first is shown, marked
// "…"; at most n bytes.
func shownCommand(cmd string, n int) string {
	cmd = strings.TrimSpace(continuedLine.ReplaceAllString(cmd, " "))
	if first, _, more := strings.Cut(cmd, "\n"); more {
		cmd = strings.TrimSpace(first) + " …"
	}
	return clip(cmd, n)
}

var continuedLine = regexp.MustCompile(`\\\r?\n[ \t]*`)

// clip cuts s to n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + " [cut]"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

var dataLossPattern = regexp.MustCompile(`(?i)(\brm\s+-[a-z]*[rf]|git\s+reset\s+--hard|git\s+clean\s+-[a-z]*f|git\s+checkout\s+--\s|git\s+push\s+(-f|--force)|drop\s+(table|database)|\btruncate\s+table|you (deleted|lost|wiped|overwrote)|data loss)`)

func dataLoss(s string) bool { return s != "" && dataLossPattern.MatchString(s) }

// probes are commands whose failure is an answer, not a mistake: a
// search with no match, a test that is false, a lookup that finds nothing.
var probes = map[string]bool{
	"grep": true, "rg": true, "egrep": true, "fgrep": true, "ag": true, "ack": true, "test": true, "[": true,
	"[[": true, "which": true, "command": true, "type": true, "hash": true, "diff": true, "cmp": true,
	"find": true, "ls": true, "stat": true, "pgrep": true, "pidof": true, "file": true, "false": true,
	"curl": true, "wc": true, "head": true, "tail": true, "cat": true, "jq": true, "sleep": true, "kill": true,
}

// probe reports whether a failure is a probe's answer or harness noise.
func probe(c *Call, r *Result) bool {
	if c == nil {
		return true
	}
	out := strings.TrimSpace(r.Output)
	if strings.Contains(out, "Sibling tool call errored") || strings.Contains(out, "Cancelled: parallel tool call") ||
		strings.HasPrefix(out, "<tool_use_error>") {
		return true
	}
	if c.Tool != "Bash" || r.Timeout || lessons.SignalExit(r.ExitCode) {
		return false // a signal ended the line: no answer of its last step
	}
	if shellError.MatchString(out[:min(len(out), 512)]) {
		return false // the shell refused the line before any probe ran
	}
	segs := segments(c.Command)
	if len(segs) == 0 {
		return true
	}
	last := segs[len(segs)-1]
	if slices.ContainsFunc(last, func(w string) bool { return exploring[w] }) {
		return true // asking how a command works
	}
	exe, sub := commandHead(last)
	if answerCodes[exe] && r.ExitCode >= 2 {
		return false // grep 2, diff 2, test 2: the call itself was wrong
	}
	if probes[exe] || (exe == "git" && (sub == "diff" || sub == "grep" || sub == "ls-files" || sub == "rev-parse" || sub == "show-ref" || sub == "cat-file")) {
		return true
	}
	return r.ExitCode == 1 && errorBody(out) == ""
}

// answerCodes are probes whose exit status 1 is an answer (no match,
// differs, false) and 2 or more an error in how they were called.
var answerCodes = map[string]bool{
	"grep": true, "rg": true, "egrep": true, "fgrep": true, "ag": true, "ack": true,
	"diff": true, "cmp": true, "test": true, "[": true, "[[": true,
}

// shellError matches a shell refusing a command line: a glob that matches
// nothing (zsh), a parse error, a command that does not exist.
var shellError = regexp.MustCompile(`(?m)(^|: )(no matches found|parse error near|syntax error near unexpected token|bad substitution|command not found|unmatched ['"])`)

var errorLine = regexp.MustCompile(`(?i)(error|warn|issues? found|fatal|fail|not found|no such|denied|invalid|unknown|cannot|can't|unable|refused|missing|unexpected|traceback|exception|panic|usage:|not allowed|blocked|timed out|conflict)`)

// errorBody strips the status lines the formats wrap around output.
func errorBody(out string) string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "", strings.HasPrefix(t, "Chunk ID:"), strings.HasPrefix(t, "Wall time:"),
			strings.HasPrefix(t, "Original token count:"), t == "Output:", strings.HasPrefix(t, "Process exited with code"),
			strings.HasPrefix(t, "Exit code"), strings.HasPrefix(t, "Exit Code:"), strings.HasPrefix(t, "Directory:"),
			strings.HasPrefix(t, "Command:"), strings.HasPrefix(t, "Signal:"), strings.HasPrefix(t, "Background PIDs:"),
			strings.HasPrefix(t, "Process Group PGID:"):
			continue
		}
		keep = append(keep, t)
	}
	return strings.Join(keep, "\n")
}

// withoutExcerpts is lines without the source lines an error quoted with
// a marker under them (lessons.CaretLine), nor the markers: the code,
// not what went wrong (PowerShell's "+ ... $x} } | Format- ..." names
// one script's words).
func withoutExcerpts(lines []string) []string {
	var keep []string
	for _, l := range lines {
		if lessons.CaretLine(strings.TrimSpace(l)) {
			if len(keep) > 0 {
				keep = keep[:len(keep)-1]
			}
			continue
		}
		keep = append(keep, l)
	}
	return keep
}

// chainMarks are the lines Python prints between chained tracebacks:
// the exception above was being handled, or caused the one below.
var chainMarks = []string{"During handling of the above exception, another exception occurred:",
	"The above exception was the direct cause of the following exception:"}

// raisedLast is an output from its last chained traceback on: the
// exception that escaped, which its class names (lessons.ErrorClass
// reads the last one raised), not the one it was raised while handling
// (pydantic's ValidationError under postgrest's APIError).
func raisedLast(out string) string {
	i := -1
	for _, m := range chainMarks {
		if j := strings.LastIndex(out, m); j >= 0 && j+len(m) > i {
			i = j + len(m)
		}
	}
	if i < 0 || strings.TrimSpace(out[i:]) == "" {
		return out
	}
	return out[i:]
}

// trimError keeps the lines of an error output that say what went wrong,
// up to a few hundred bytes.
func trimError(out string) string {
	out = strings.TrimPrefix(strings.TrimSuffix(errorBody(lessons.WithoutDiffs(raisedLast(out))), "</tool_use_error>"), "<tool_use_error>")
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if before, ok := lessons.SetupNoise(l); !ok || before != "" {
			lines = append(lines, before) // without the shell's start-up files' errors, on every call
		}
	}
	lines = withoutExcerpts(lines)
	var keep []string
	for _, l := range lines {
		if errorLine.MatchString(l) && !lessons.NoticeLine(l) { // a warning or a passing check is not what failed
			keep = append(keep, l)
			if len(keep) == 4 {
				break
			}
		}
	}
	if len(keep) == 0 {
		keep = lines[:min(len(lines), 3)]
	}
	return clip(strings.Join(keep, "\n"), 400)
}
