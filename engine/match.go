package engine

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
	lessons "github.com/lessons-dev/lessons"
)

// Call is a tool call as triggers see it.
type Call struct {
	Tool     string   // canonical tool name
	Command  string   // Bash command
	Paths    []string // file paths, slash-separated
	Contents []string // text the call writes
	// Background: the agent's tool runs the command without waiting for
	// it (lessons.ToolCall.Background); a foreground lesson skips it.
	Background bool
}

// Counters say what matching did, so a benchmark or a verbose run can
// explain its time.
type Counters struct {
	Considered  int `json:"considered"`  // lessons the tool index pointed at
	Prefiltered int `json:"prefiltered"` // ruled out before any regex ran
	Compiled    int `json:"compiled"`    // regexes compiled
	Run         int `json:"run"`         // regex searches run
	TimedOut    int `json:"timedOut"`    // searches that ran out of time
	Matched     int `json:"matched"`     // lessons that matched
}

func (c Counters) String() string {
	return fmt.Sprintf("considered=%d prefiltered=%d compiled=%d run=%d timedOut=%d matched=%d",
		c.Considered, c.Prefiltered, c.Compiled, c.Run, c.TimedOut, c.Matched)
}

// Hit is a lesson that matched a call, with the trigger kinds that did,
// e.g. "commands" or "paths+content".
type Hit struct {
	Index int
	Kinds string
}

// candidate is the candidate the hit makes of its lesson's entry e. A
// blocking lesson that could not be checked in time asks a person
// instead of refusing or letting the call through unchecked.
func (h Hit) candidate(e Entry) Candidate {
	if h.Kinds == Undecided {
		e.Decision = lessons.DecisionAsk
		e.BlockReason = "lessons could not check `{command}` against the blocking lesson \"" + e.Summary +
			"\" in time (the call is too long or too complex to match quickly), so a person must approve it."
	}
	return Candidate{Entry: e, Trigger: h.Kinds}
}

// ErrTimeout marks a lesson skipped because one of its backtracking
// regexes did not answer within lessons.PatternTimeout, or the call had
// used up CallBudget on such regexes already.
var ErrTimeout = errors.New("regex match timed out")

// CallBudget bounds the time one call spends in backtracking regexes
// (lookaround, backreferences), whatever a pack holds; the linear ones
// are bounded by their input and never skipped.
const CallBudget = 500 * time.Millisecond

// BlockBudget is how long the blocking lessons whose backtracking
// regexes timed out may take, all together, on a second try: their
// limits are wall clock, and a refusal must not be lost because builds
// kept the machine busy. A lesson still undecided after it asks a
// person (Undecided), and the hook answers well before its watchdog.
// Only scopes allowed to block can make a call wait this long, and
// their patterns passed the backtracking probe.
const BlockBudget = 1500 * time.Millisecond

// Undecided is the Kinds of a hit whose lesson blocks and could not be
// checked in time, even on its second try: the hook asks a person
// rather than let the call through unchecked.
const Undecided = "undecided"

// Matcher matches calls against manifests. It compiles a regex only when
// a call needs it, once. The zero Matcher is ready to use; it is not safe
// for concurrent use.
type Matcher struct {
	Counters Counters
	// Brute turns the prefilters off: every regex runs. Tests use it to
	// prove the prefilters never lose a match.
	Brute bool

	cache map[string]*lessons.Pattern
	cands []int
	live  [][]byte
	// spent is the time backtracking regexes took in this call.
	spent time.Duration
	// patient: a blocking lesson's second try, under BlockBudget.
	patient bool
	// patientSpent is the time second tries took in this call.
	patientSpent time.Duration
	// impatient: a blocking lesson that times out is Undecided at once,
	// with no second try; the hook sets it once another match of the
	// same call spent BlockBudget.
	impatient bool
}

// subject is a call prepared once for all the lessons it is tried on.
type subject struct {
	call *Call
	// text is the command as its triggers read it (triggerText), and
	// command and cmdLower its bytes.
	text     string
	command  []byte
	cmdLower []byte
	contents [][]byte
	lowers   [][]byte
}

func newSubject(c *Call) *subject {
	text := triggerText(c.Command)
	s := &subject{call: c, text: text, command: []byte(text), cmdLower: []byte(strings.ToLower(text))}
	for _, t := range c.Contents {
		s.contents = append(s.contents, []byte(t))
		s.lowers = append(s.lowers, []byte(strings.ToLower(t)))
	}
	return s
}

// Match returns the manifest's lessons that match c, in manifest order.
// A lesson whose regex times out is skipped and reported in the error
// (wrapping ErrTimeout), with the other hits still returned; a blocking
// lesson is tried again, and if that times out too it is a hit of kind
// Undecided.
func (mt *Matcher) Match(m *Manifest, c Call) ([]Hit, error) {
	mt.spent, mt.patientSpent = 0, 0 // the budgets are per call
	var err error
	mt.cands, err = m.candidates(c.Tool, mt.cands[:0])
	if err != nil {
		return nil, err
	}
	s := newSubject(&c)
	var hits []Hit
	var errs []error
	for _, i := range mt.cands {
		rec, err := m.part(i, 0)
		if err != nil {
			return hits, err
		}
		kinds, err := mt.matchRecord(rec, s)
		if errors.Is(err, ErrTimeout) {
			if e, eerr := m.Entry(i); eerr == nil && e.Block {
				if !mt.impatient {
					mt.patient = true
					kinds, err = mt.matchRecord(rec, s)
					mt.patient = false
				}
				if errors.Is(err, ErrTimeout) {
					kinds = Undecided
				}
			}
		}
		if kinds == Undecided {
			hits = append(hits, Hit{Index: i, Kinds: kinds})
		}
		if err != nil {
			slug := "#" + fmt.Sprint(i)
			if e, eerr := m.Entry(i); eerr == nil {
				slug = e.Slug
			}
			errs = append(errs, fmt.Errorf("lesson %s: %w", slug, err))
			continue
		}
		if kinds != "" {
			hits = append(hits, Hit{Index: i, Kinds: kinds})
		}
	}
	return hits, errors.Join(errs...)
}

// MatchLesson reports whether one lesson matches one example call, through
// the same compiled form and matcher the hook uses. `lessons test` runs
// examples with it.
//
// A lesson with error triggers matches only an example that carries the
// error it printed, as the hook matches it after a failed call.
func MatchLesson(l *lessons.Lesson, c lessons.ToolCall) (bool, error) {
	if len(l.Triggers.Errors) > 0 {
		return matchLessonError(l, c)
	}
	rec, err := compileLesson(l, lessons.ScopeGlobal, false, nil)
	if err != nil {
		return false, err
	}
	call := CallOf(c)
	if !toolMatches(l.Triggers.ImpliedTools(), call.Tool) {
		return false, nil
	}
	e := &encoder{}
	rec.encodeTriggers(e)
	var mt Matcher
	kinds, err := mt.matchRecord(e.b, newSubject(&call))
	return kinds != "", err
}

// CallOf turns a lesson example into a Call.
func CallOf(c lessons.ToolCall) Call {
	call := Call{Tool: lessons.CanonicalTool(c.EffectiveTool()), Command: c.Command, Background: c.Background}
	if c.Path != "" {
		call.Paths = []string{c.Path}
	}
	if c.Content != "" {
		call.Contents = []string{c.Content}
	}
	return call
}

func toolMatches(tools []string, tool string) bool {
	for _, t := range tools {
		if t == tool || isToolPattern(t) && matchTool(t, tool) {
			return true
		}
	}
	return false
}

// matchRecord decides one lesson: paths first (no regex), then the
// prefilters of commands and content, then their regexes, then unless.
// It returns the matched kinds, "" for no match.
func (mt *Matcher) matchRecord(rec []byte, s *subject) (string, error) {
	mt.Counters.Considered++
	d := decoder{b: rec}
	if d.uvarint()&flagForeground != 0 && s.call.Background {
		mt.Counters.Prefiltered++
		return "", d.err
	}
	var kinds []string

	if n := d.count(); n > 0 {
		ok := false
		for ; n > 0 && d.err == nil; n-- {
			g := d.raw()
			if !ok {
				ok = anyPathMatches(string(g), s.call.Paths)
			}
		}
		if !ok {
			mt.Counters.Prefiltered++
			return "", d.err
		}
		kinds = append(kinds, "paths")
	}

	// Commands and content: note the patterns whose prefilters pass.
	cmdStart := len(mt.live)
	nCmd := mt.collect(&d, [][]byte{s.command}, [][]byte{s.cmdLower}, s.call.Command != "")
	cntStart := len(mt.live)
	nCnt := mt.collect(&d, s.contents, s.lowers, len(s.contents) > 0)
	defer func() { mt.live = mt.live[:cmdStart] }()
	if d.err != nil {
		return "", d.err
	}
	if nCmd < 0 || nCnt < 0 {
		mt.Counters.Prefiltered++
		return "", nil
	}
	if nCmd > 0 {
		ok, err := mt.search(mt.live[cmdStart:cntStart], []string{s.text})
		if err != nil || !ok {
			return "", err
		}
		kinds = append(kinds, "commands")
	}
	if nCnt > 0 {
		ok, err := mt.search(mt.live[cntStart:], s.call.Contents)
		if err != nil || !ok {
			return "", err
		}
		kinds = append(kinds, "content")
	}
	if len(kinds) == 0 {
		kinds = append(kinds, "tools")
	}

	// Unless: any pattern found in the command or written text vetoes.
	unlessStart := len(mt.live)
	texts, lowers, subjects := s.contents, s.lowers, s.call.Contents
	if s.call.Command != "" {
		texts = append([][]byte{s.command}, texts...)
		lowers = append([][]byte{s.cmdLower}, lowers...)
		subjects = append([]string{s.text}, subjects...)
	}
	if n := mt.collect(&d, texts, lowers, len(texts) > 0); n > 0 {
		veto, err := mt.search(mt.live[unlessStart:], subjects)
		if err != nil || veto {
			return "", err
		}
	}
	if d.err != nil {
		return "", d.err
	}
	mt.Counters.Matched++
	return strings.Join(kinds, "+"), nil
}

// collect reads one list of patterns and keeps, in mt.live, the sources
// of those whose prefilter passes on one of the texts. It returns 0 when
// the list is empty, -1 when it is not but nothing passes (or the call
// has nothing for it to search, have is false), else how many passed.
func (mt *Matcher) collect(d *decoder, texts, lowers [][]byte, have bool) int {
	n := d.count()
	if n == 0 {
		return 0
	}
	passed := 0
	for ; n > 0 && d.err == nil; n-- {
		src := d.raw()
		pass := true
		if mt.Brute {
			skipPrefilter(d)
		} else {
			pass = prefilterPasses(d, texts, lowers)
		}
		if have && pass {
			mt.live = append(mt.live, src)
			passed++
		}
	}
	if passed == 0 {
		return -1
	}
	return passed
}

// prefilterPasses reads an encoded prefilter and reports whether one of
// texts may match it. It always consumes the whole prefilter.
func prefilterPasses(d *decoder, texts, lowers [][]byte) bool {
	kind := d.byte()
	if kind == 0 {
		return true
	}
	subjects := texts
	if kind == 2 {
		subjects = lowers
	}
	// A text passes when it passes every clause; a clause needs one of
	// its literals. Track passing texts as a bit set (texts beyond 64
	// count as passing).
	alive := ^uint64(0)
	if len(subjects) < 64 {
		alive = 1<<len(subjects) - 1
	}
	for nc := d.count(); nc > 0 && d.err == nil; nc-- {
		var hit uint64
		for nl := d.count(); nl > 0 && d.err == nil; nl-- {
			lit := d.raw()
			for t, text := range subjects {
				if t < 64 && alive&(1<<t) != 0 && hit&(1<<t) == 0 && bytes.Contains(text, lit) {
					hit |= 1 << t
				}
			}
		}
		if len(subjects) < 64 {
			alive &= hit
		}
	}
	return alive != 0
}

// search reports whether any of the patterns finds a match in any subject.
func (mt *Matcher) search(srcs [][]byte, subjects []string) (bool, error) {
	for _, src := range srcs {
		re, err := mt.compile(string(src))
		if err != nil {
			return false, err
		}
		for _, s := range subjects {
			mt.Counters.Run++
			if re.LinearOn(s) {
				if ok, _ := re.MatchString(s); ok {
					return true, nil
				}
				continue
			}
			limit := lessons.PatternTimeout
			if mt.patient {
				limit = BlockBudget - mt.patientSpent
				if limit <= 0 {
					mt.Counters.TimedOut++
					return false, fmt.Errorf("%w: the call spent its %v on blocking lessons' second tries before %q", ErrTimeout, BlockBudget, src)
				}
			} else if mt.spent >= CallBudget {
				mt.Counters.TimedOut++
				return false, fmt.Errorf("%w: the call spent its %v on backtracking patterns before %q", ErrTimeout, CallBudget, src)
			}
			start := time.Now()
			ok, err := re.MatchWithin(s, limit)
			if err != nil && time.Since(start) < limit {
				// regexp2 times out by a clock goroutine that a busy
				// machine starves: its deadline was set from a stale
				// time. Not a real timeout, so try again.
				ok, err = re.MatchWithin(s, limit)
			}
			mt.spent += time.Since(start)
			if mt.patient {
				mt.patientSpent += time.Since(start)
			}
			if err != nil {
				mt.Counters.TimedOut++
				// regexp2's error quotes the whole subject: keep it out.
				return false, fmt.Errorf("%w after %v: pattern %q on %d bytes", ErrTimeout, limit, src, len(s))
			}
			if ok {
				return true, nil
			}
		}
	}
	return false, nil
}

func (mt *Matcher) compile(src string) (*lessons.Pattern, error) {
	if re, ok := mt.cache[src]; ok {
		return re, nil
	}
	re, err := lessons.CompilePattern(src)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", src, err)
	}
	if mt.cache == nil {
		mt.cache = map[string]*lessons.Pattern{}
	}
	mt.cache[src] = re
	mt.Counters.Compiled++
	return re, nil
}

func anyPathMatches(glob string, paths []string) bool {
	for _, p := range paths {
		if matchGlob(glob, p) {
			return true
		}
	}
	return false
}

// SetTimeoutCheckPeriod makes regexp2 check its match timeouts every
// 2 ms instead of every 100 ms, so a backtracking pattern costs a call
// about lessons.PatternTimeout, not a tenth of a second. Call it once.
func SetTimeoutCheckPeriod() { regexp2.SetTimeoutCheckPeriod(2 * time.Millisecond) }
