package engine

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// maxPayload caps what the hook reads from stdin: a Write of a large
// file is the biggest payload an agent sends.
const maxPayload = 32 << 20

// promptTopK caps the lessons a prompt brings up.
const promptTopK = 3

// Hook answers one agent hook event: it reads the payload, and writes one
// JSON object, "{}" when it has nothing to say or anything went wrong.
// It never fails the agent: errors go to the hook log in the state
// directory.
type Hook struct {
	// Platform adapts the hook to the agent; nil recognises the agent
	// from the payload's shape (see Payload.Recognise).
	Platform Platform
	// Getenv reads LESSONS_*, XDG_* and HOME; nil means os.Getenv.
	Getenv func(string) string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Rebuild builds the manifest of the project around dir. The hook
	// calls it, under a lock, when the manifest is missing or stale; nil
	// means stale manifests are used as they are.
	Rebuild func(dir string) error
	// OnStartup is the seam for work a new session starts in the
	// background, such as a scan of session logs. It must not block.
	OnStartup func(StartInfo)
	// Event names the event when the payload does not: Antigravity CLI's
	// hooks.json passes it on the command line.
	Event string
}

// StartInfo tells OnStartup about the session that started.
type StartInfo struct {
	Dirs    scope.Dirs
	Project string
	Cwd     string
	Config  lessons.Config
}

// run is one hook invocation.
type run struct {
	h       *Hook
	dirs    scope.Dirs
	p       Payload
	pf      Platform
	cwd     string
	project string
	sess    Session
	cfg     lessons.Config
	events  []Event
	notes   []string
	match   Matcher
	// aggMembers are the lessons each aggregate candidate stands for.
	aggMembers map[string][]string
	// onError are the lessons on the error of the failed call the
	// outcome event reports, not yet claimed in the session, ranked.
	onError []Candidate
	// failedCall is that call.
	failedCall Call
	// matched is set once the call was matched against a manifest that
	// opened and decoded: from then on an error is not the manifest's,
	// and the built-in blocks do not stand in for it.
	matched bool
	// builtinCands are the built-in blocks that match builtinCall, once
	// builtinTried (see builtinMatch).
	builtinTried bool
	builtinCands []Candidate
	builtinCall  Call
	// call is the payload's call once matchCall decoded it.
	call *Call
}

// Run reads a payload from stdin and writes the answer to stdout in one
// Write, then logs: the answer never waits on the event log or the hook
// log, which are best effort. When the project's manifest fails a
// PreToolUse call (missing and not buildable, torn, faulting, over the
// payload cap) the built-in blocks compiled into the binary answer it,
// never "{}" alone; one that denies the call answers it before any
// rebuild or lock wait.
func (h *Hook) Run(stdin io.Reader, stdout io.Writer) {
	// The manifest is mapped: a fault on a page its file no longer has
	// becomes a panic that safely recovers from, not a crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	getenv := h.getenv()
	start := h.now()
	r := &run{h: h, dirs: scope.DefaultDirs(getenv), pf: h.Platform}
	out, err := r.safely(stdin)
	switch {
	case errors.Is(err, errBuiltinDenies):
		out, _ = r.builtinAnswer()
	case err != nil:
		r.note("error: %v", err)
		out = noOutput
		if r.matched {
			break
		}
		if b, ok := r.builtinAnswer(); ok {
			r.note("answered from the built-in blocks")
			out = b
		}
	}
	if s, ok := r.pf.(silencer); ok && out == any(noOutput) {
		out = s.Silence(cmp.Or(r.p.HookEventName, h.Event)) // {} would refuse an Antigravity CLI call
	}
	if err := writeOutput(stdout, out); err != nil {
		r.note("write answer: %v", err)
	}
	if len(r.events) > 0 {
		if err := appendEvents(EventsPath(r.dirs.State), r.events); err != nil {
			r.note("event log: %v", err)
		}
	}
	if getenv("LESSONS_DEBUG") != "" {
		r.note("%s %v in %v", r.p.HookEventName, r.match.Counters, h.now().Sub(start))
	}
	r.flushNotes(start)
}

// safely answers, turning a panic into an error.
func (r *run) safely(stdin io.Reader) (out any, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, fmt.Errorf("panic: %v\n%s", v, debug.Stack())
		}
	}()
	data, err := readPayload(stdin, maxPayload+1)
	if err != nil {
		return nil, fmt.Errorf("read payload: %w", err)
	}
	if len(data) > maxPayload {
		return r.oversized(data, stdin)
	}
	if err := decodePayload(data, &r.p); err != nil {
		return nil, fmt.Errorf("payload is not a JSON object: %w", err)
	}
	r.pf = r.h.Platform
	if r.pf == nil {
		r.pf = Platforms[r.p.Recognise()]
	}
	if err := r.bracketSubagent(); err != nil {
		r.note("subagent state: %v", err)
	}
	r.sess = SessionOf(r.dirs.State, r.sessionKey())
	return r.answer()
}

// bracketSubagent marks a Gemini CLI session while its invoke_agent call
// runs: the subagent runs inside that call, and its calls carry the
// session's id and nothing to tell them from the parent's (0.61.0), so
// while the mark is there they claim lessons for the subagent. Gemini
// sends AfterTool for a refused call too, which removes the mark.
func (r *run) bracketSubagent() error {
	if _, ok := r.pf.(geminiPlatform); !ok || r.p.ToolName != "invoke_agent" {
		return nil
	}
	switch r.pf.Event(r.p.HookEventName) {
	case "PreToolUse":
		return startSubagent(r.dirs.State, r.p.SessionID, r.h.now())
	case "PostToolUse":
		return endSubagent(r.dirs.State, r.p.SessionID)
	}
	return nil
}

// sessionKey names whose claims a call counts against: the session, or a
// subagent of it. Claude Code's subagents send their parent's session_id
// with an agent_id of their own, and their context never held what the
// parent was told, so they claim lessons for themselves; so do Gemini
// CLI's, while bracketSubagent's mark is there.
func (r *run) sessionKey() string {
	if r.p.AgentID != "" {
		return r.p.SessionID + "/agent/" + r.p.AgentID
	}
	if _, ok := r.pf.(geminiPlatform); ok && r.p.ToolName != "invoke_agent" { // invoke_agent is the parent's
		if id := runningSubagent(r.dirs.State, r.p.SessionID); id != "" {
			return r.p.SessionID + "/agent/" + id
		}
	}
	return r.p.SessionID
}

func (r *run) answer() (any, error) {
	if own, ok := r.pf.(ownEvents); ok {
		if out, handled, err := own.answerOwn(r); handled {
			return out, err
		}
	}
	switch r.pf.Event(r.p.HookEventName) {
	case "PreToolUse":
		return r.preToolUse()
	case "PostToolUse", "PostToolUseFailure":
		return r.outcomeEvent()
	case "SessionStart":
		return r.sessionStart()
	case "SubagentStart":
		return r.sessionStart()
	case "UserPromptSubmit":
		return r.promptSubmit()
	case "":
		return nil, errors.New("payload has no hook_event_name")
	}
	return noOutput, nil // an event lessons has nothing to say on
}

// open finds the project, opens its manifest (rebuilding it when stale)
// and applies LESSONS_* variables to its config.
func (r *run) open() (*Manifest, error) {
	r.cwd = r.p.Cwd
	if r.cwd == "" {
		r.cwd, _ = os.Getwd()
	}
	r.project = scope.FindProject(r.cwd)
	r.sess = SessionOf(r.dirs.State, r.sessionKey())
	m, err := r.loadManifest(r.dirs.ManifestPath(r.project))
	if err != nil {
		return nil, err
	}
	r.cfg, err = m.Config.ApplyEnv(r.h.getenv())
	if err != nil {
		r.note("%v (using the manifest's config)", err)
		r.cfg = m.Config
	}
	return m, nil
}

func (r *run) preToolUse() (any, error) {
	call, m, blocks, injects, err := r.matchCall()
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if len(blocks) > 0 {
		return r.block(blocks, call), nil
	}
	if gp, ok := r.pf.(geminiPlatform); ok && r.p.ToolName == "invoke_agent" {
		return r.subagentPrompt(m, gp)
	}
	if r.pf.ToolLessonsAt() != "PreToolUse" {
		return noOutput, nil
	}
	return r.inject(call.Tool, describeCall(call), injects)
}

// matchCall matches the payload's tool call and sorts the lessons that
// matched into blocks and ranked candidates not yet injected in the
// session. The caller closes the manifest.
func (r *run) matchCall() (call Call, m *Manifest, blocks, injects []Candidate, err error) {
	call, err = r.p.Call()
	if err != nil {
		return call, nil, nil, nil, fmt.Errorf("tool_input of %s: %w", r.p.ToolName, err)
	}
	r.call = &call
	m, err = r.open()
	if err != nil {
		return call, nil, nil, nil, err
	}
	hits, err := r.match.Match(m, call)
	if err != nil {
		if !errors.Is(err, ErrTimeout) {
			m.Close()
			return call, nil, nil, nil, err
		}
		r.note("%v", err) // the lesson is skipped, the others go on
	}
	for _, hit := range hits {
		e, err := m.Entry(hit.Index)
		if err != nil {
			m.Close()
			return call, nil, nil, nil, err
		}
		c := hit.candidate(e)
		switch {
		case e.Block:
			blocks = append(blocks, c)
		case !r.sess.Claimed(e.Slug):
			injects = append(injects, c)
		}
	}
	rankCandidates(injects)
	if r.cfg.InjectAggregates {
		aggs, err := m.Aggregates()
		if err != nil {
			m.Close()
			return call, nil, nil, nil, err
		}
		injects, r.aggMembers = withAggregates(injects, aggs)
	}
	r.matched = true
	return call, m, blocks, injects, nil
}

// block answers with the strongest decision of the top-ranked blocking
// lessons: deny wins over ask.
func (r *run) block(blocks []Candidate, call Call) any {
	rankCandidates(blocks)
	top := blocks[0]
	for _, b := range blocks {
		if b.Decision == lessons.DecisionDeny {
			top = b
			break
		}
	}
	r.event(top.Slug, EventBlock, string(top.Decision), call.Tool, top.Trigger)
	return r.pf.Decide(top.Decision, top.Reason(call.Command))
}

// inject answers the payload's event with the text of the lessons
// selectText picks, or with nothing.
func (r *run) inject(tool, about string, cs []Candidate) (any, error) {
	text, err := r.selectText(tool, about, cs)
	if err != nil || text == "" {
		return noOutput, err
	}
	return r.pf.Context(r.p.HookEventName, text), nil
}

// selectText selects among ranked candidates, claims them for the
// session and returns their text, "" when none is selected.
func (r *run) selectText(tool, about string, cs []Candidate) (string, error) {
	var claimErr error
	sel := selectLessons(cs, r.cfg, func(c Candidate) bool {
		slug := c.Slug
		if c.Again {
			won, err := r.sess.ClaimAgain(slug, r.cfg.Again())
			if err != nil && claimErr == nil {
				claimErr = fmt.Errorf("session state: %w", err)
			}
			return won
		}
		won, err := r.sess.Claim(slug)
		for _, member := range r.aggMembers[slug] {
			if won && err == nil {
				_, err = r.sess.Claim(member) // the aggregate said it
			}
		}
		if err != nil && claimErr == nil {
			claimErr = fmt.Errorf("session state: %w", err)
		}
		return won
	})
	if claimErr != nil {
		return "", claimErr
	}
	if len(sel.Injected) == 0 {
		return "", nil
	}
	for _, p := range sel.Injected {
		r.event(p.Slug, EventInject, "", tool, p.Trigger)
	}
	return injectionText(about, sel), nil
}

func (r *run) sessionStart() (any, error) {
	m, err := r.open()
	if err != nil {
		r.note("%v (answering with the protocol only)", err)
		return r.pf.Context(r.p.HookEventName, Protocol), nil
	}
	defer m.Close()
	source := r.p.Source
	if r.pf.Event(r.p.HookEventName) == "SubagentStart" {
		source = "subagent" // a fresh context inside the session
	}
	switch source {
	case "subagent":
	case "clear":
		if err := r.sess.Reset(); err != nil {
			return nil, fmt.Errorf("clear session state: %w", err)
		}
		r.forgetFailures()
	case "compact":
		if err := r.forgetImportant(m); err != nil {
			return nil, err
		}
	case "resume":
		if err := r.forgetLost(m, r.pf.ResumeKeeps()); err != nil {
			return nil, fmt.Errorf("forget the resumed session's claims: %w", err)
		}
	default: // startup
		sweepSessions(r.dirs.State, r.h.now())
		if r.h.OnStartup != nil {
			r.h.OnStartup(StartInfo{Dirs: r.dirs, Project: r.project, Cwd: r.cwd, Config: r.cfg})
		}
	}
	text, err := r.startText(m, !(r.p.Source == "resume" && r.pf.ResumeKeeps().Start))
	if err != nil {
		return nil, err
	}
	if text == "" {
		return noOutput, nil
	}
	return r.pf.Context(r.p.HookEventName, text), nil
}

// startText is what a fresh context gets: the protocol, unless the
// context still holds it, and the session-start lessons the session has
// not claimed, which it claims.
func (r *run) startText(m *Manifest, protocol bool) (string, error) {
	idx, err := m.SessionStart()
	if err != nil {
		return "", err
	}
	var cs []Candidate
	for _, i := range idx {
		e, err := m.Entry(i)
		if err != nil {
			return "", err
		}
		if !r.sess.Claimed(e.Slug) {
			cs = append(cs, Candidate{Entry: e, Trigger: "sessionStart"})
		}
	}
	rankCandidates(cs)
	lessonText, err := r.selectText("", "for this session", cs)
	if err != nil {
		return "", err
	}
	text := ""
	if protocol {
		text = Protocol
	}
	if lessonText != "" {
		text = strings.TrimSpace(text + "\n\n" + lessonText)
	}
	return text, nil
}

// subagentPrompt gives a Gemini CLI subagent what SubagentStart gives a
// Claude Code one, the protocol and the session's lessons: Gemini has no
// such event, so the text goes at the end of the invoke_agent call's
// prompt, through BeforeTool's tool_input, which Gemini 0.61.0 applies
// and tells the parent model it did. bracketSubagent has marked the
// session, so the lessons are claimed for the subagent.
func (r *run) subagentPrompt(m *Manifest, gp geminiPlatform) (any, error) {
	var in map[string]any
	id := runningSubagent(r.dirs.State, r.p.SessionID)
	if json.Unmarshal(r.p.ToolInput, &in) != nil || id == "" {
		return noOutput, nil
	}
	prompt, _ := in["prompt"].(string)
	if prompt == "" {
		return noOutput, nil
	}
	r.sess = SessionOf(r.dirs.State, r.p.SessionID+"/agent/"+id)
	text, err := r.startText(m, true)
	if err != nil || text == "" {
		return noOutput, err
	}
	// Gemini validates the replaced arguments whole: all of them go back.
	in["prompt"] = prompt + "\n\n" + text
	return gp.toolInput(r.p.HookEventName, in), nil
}

// forgetLost makes the lessons whose text a resumed session lost
// eligible again: every claim when it lost the calls' text, the
// session-start lessons when it lost the start's.
func (r *run) forgetLost(m *Manifest, kept Resumed) error {
	switch {
	case !kept.Calls:
		return r.sess.Reset()
	case !kept.Start:
		idx, err := m.SessionStart()
		if err != nil {
			return err
		}
		var forget []string
		for _, i := range idx {
			e, err := m.Entry(i)
			if err != nil {
				return err
			}
			forget = append(forget, e.Slug)
		}
		return r.sess.Forget(forget)
	}
	return nil
}

// forgetImportant makes lessons at or above the compaction threshold
// eligible again: compaction may have dropped them from the context.
func (r *run) forgetImportant(m *Manifest) error {
	claimed := map[string]bool{}
	for _, slug := range r.sess.Claims() {
		claimed[slug] = true
	}
	if len(claimed) == 0 {
		return nil
	}
	var forget []string
	for i := range m.Len() {
		e, err := m.Entry(i)
		if err != nil {
			return err
		}
		if claimed[e.Slug] && e.Priority >= r.cfg.CompactionReinjectionThreshold {
			forget = append(forget, e.Slug)
		}
	}
	return r.sess.Forget(forget)
}

// promptSubmit answers a prompt with the lessons relevant to it.
func (r *run) promptSubmit() (any, error) {
	if strings.TrimSpace(r.p.Prompt) == "" {
		return noOutput, nil
	}
	m, err := r.open()
	if err != nil {
		return nil, err
	}
	defer m.Close()
	r.cfg.MaxLessonsPerInjection = min(max(r.cfg.MaxLessonsPerInjection, 1), promptTopK)
	cs, err := m.PromptCandidates(r.p.Prompt, r.cfg, r.sess.Claimed)
	if err != nil {
		return nil, err
	}
	return r.inject("", "relevant to this prompt", cs)
}

func (r *run) event(slug, kind, decision, tool, trigger string) {
	r.events = append(r.events, Event{
		Time: r.h.now().UTC(), Session: r.sess.Hash, Project: r.project, Slug: slug,
		Event: kind, Decision: decision, Hook: r.p.HookEventName, Tool: tool, Trigger: trigger,
	})
}

// note keeps a diagnostic for the hook log.
func (r *run) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

// flushNotes appends the notes to the hook log, one line each. Failing
// to log is not worth failing the agent for. A note may quote the
// payload (its event name, cwd or command), so its control characters
// become spaces: a person reads this log on a terminal.
func (r *run) flushNotes(at time.Time) {
	if len(r.notes) == 0 {
		return
	}
	var b strings.Builder
	for _, n := range r.notes {
		line := fmt.Sprintf("%s %s session=%s: %s", at.UTC().Format(time.RFC3339), r.p.HookEventName,
			SessionHash(r.p.SessionID), strings.ReplaceAll(n, "\n", " | "))
		b.WriteString(strings.Map(printable, line))
		b.WriteByte('\n')
	}
	_ = appendRotated(HookLogPath(r.dirs.State), []byte(b.String()))
}

func (h *Hook) getenv() func(string) string {
	if h.Getenv == nil {
		return os.Getenv
	}
	return h.Getenv
}

func (h *Hook) now() time.Time {
	if h.Now == nil {
		return time.Now()
	}
	return h.Now()
}
