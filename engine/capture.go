package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// Live capture asks the agent for a #lesson block at the moment it fixed
// a mistake, while it still knows what the mistake was. The hook keeps,
// per session, a small record of failed shell calls by command family;
// when a later call of the same family succeeds and differs, or right
// after the user rejected a call with a reason, it answers that outcome
// event with a short nudge. At most captureNudges a session, once per
// family, never for probes, never when an active lesson already matches
// the failed call.
//
// The state lives beside the session's claims, in
// <state>/sessions/<hash>.capture/:
//
//	f-<hash of agent id and family>  the family's last failure (JSON),
//	                                 or blanks once a success answered it
//	d-<hash of family>               the family had its nudge
//	n-<i>                            nudge i of the session was given
//
// A success with no failure on record costs one failed open, or one
// read of blanks. A record is a file of its own per family, so parallel
// calls never write the same one unless they are of one family; once
// made, it is written in place (see overwriteRecord), not removed.

// maxNudge caps the nudge text.
const maxNudge = 400

// failure is a failed call on record. Its command and error are scrubbed.
type failure struct {
	Family  string `json:"family"`
	Command string `json:"command"`
	Error   string `json:"error"`
	// Limit is captureNudges when the failure was recorded: the success
	// that answers it opens no manifest.
	Limit   int    `json:"limit"`
	Project string `json:"project,omitempty"`
}

// Capture triggers, as the event log names them.
const (
	nudgeFix       = "fix"
	nudgeRejection = "rejection"
)

// outcomeEvent answers PostToolUse and PostToolUseFailure: live
// capture's nudge, then the lessons on the error a failed call printed
// (see afterfailure.go) and, for an agent that reads a call's lessons
// only with its result, those lessons. A failure of live capture goes to
// the hook log and leaves the lessons be.
func (r *run) outcomeEvent() (any, error) {
	event := r.pf.Event(r.p.HookEventName)
	nudge, err := r.capture(event)
	if err != nil {
		r.note("live capture: %v", err)
		nudge = ""
	}
	var text string
	if toolLessons := event == "PostToolUse" && r.pf.ToolLessonsAt() == "PostToolUse"; toolLessons || len(r.onError) > 0 {
		if text, err = r.outcomeLessons(toolLessons); err != nil {
			if nudge == "" {
				return nil, err
			}
			r.note("%v (answering with the nudge only)", err) // it was claimed: say it
		}
	}
	// The nudge goes first: Gemini CLI's text must end with the
	// injection note.
	if text = strings.TrimSpace(nudge + "\n\n" + text); text == "" {
		return noOutput, nil
	}
	return r.pf.Context(r.p.HookEventName, text), nil
}

// capture plays an outcome event's part in live capture: it records a
// failure, or answers a fix or a rejection with the nudge text; "" when
// there is nothing to say.
func (r *run) capture(event string) (string, error) {
	call, err := r.p.Call()
	if err != nil {
		return "", nil // the lessons part of the event reports it
	}
	var fam lessons.Family
	platform := platformName(r.pf)
	if call.Tool == "Bash" {
		if fam = lessons.CommandFamily(call.Command); fam.Probe {
			if platform == "codex" {
				return "", nil // before outcome, which reads Codex's session file
			}
			if out := r.p.outcome(platform, event, call.Command); out.failed {
				return "", r.failed(call, lessons.Family{}, out) // its lessons, but no nudge for a probe
			}
			return "", nil
		}
	}
	out := r.p.outcome(platform, event, call.Command)
	switch {
	case out.reason != "":
		return r.rejected(call, fam, out.reason)
	case out.failed:
		return "", r.failed(call, fam, out)
	case call.Tool != "Bash" || fam.Exe == "":
		return "", nil
	}
	for _, f := range lessons.FixFamilies(call.Command) {
		if text, err := r.fixed(call, f); text != "" || err != nil {
			return text, err
		}
	}
	return "", nil
}

// forgetFailures drops the session's failures on record: after /clear
// the agent no longer knows them, so a fix could not teach it anything.
// Its nudges given stay counted.
func (r *run) forgetFailures() {
	records, _ := filepath.Glob(filepath.Join(r.captureDir(), "f-*"))
	for _, p := range records {
		_ = os.Remove(p)
	}
}

func (r *run) captureDir() string {
	return SessionOf(r.dirs.State, r.p.SessionID).Dir + ".capture"
}

// recordPath is where a family's failure waits for its fix: per agent of
// the session, since a subagent's fix answers its own failures.
func (r *run) recordPath(fam string) string {
	return filepath.Join(r.captureDir(), "f-"+scope.NameHash(r.p.AgentID+"\x00"+fam))
}

func (r *run) donePath(fam string) string {
	return filepath.Join(r.captureDir(), "d-"+scope.NameHash(fam))
}

// recordFailure keeps a failed call for the fix that may follow, unless
// the family had its nudge, the session has had all its nudges, or an
// active lesson already covers the call. m is the project's manifest.
func (r *run) recordFailure(m *Manifest, call Call, fam lessons.Family, errLine string) error {
	limit := r.cfg.Nudges()
	if limit == 0 || exists(r.donePath(fam.String())) || exists(r.slotPath(limit)) {
		return nil // no nudge left to give: nothing to match for
	}
	_, covered, err := r.limitIn(m, call)
	if err != nil || covered {
		return err
	}
	data := failure{
		Family: fam.String(), Command: clip(scrub(call.Command), 600), Error: clip(scrub(errLine), 200),
		Limit: limit, Project: r.project,
	}.marshal()
	return saveRecord(r.captureDir(), r.recordPath(fam.String()), data)
}

// saveRecord keeps a failure at path, in dir: over the family's record
// when there is one (overwriteRecord), else in a new file (createRecord),
// making dir only when that finds it missing, so that a failure of a
// family on record costs one open and two writes.
func saveRecord(dir, path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|noFollow, 0)
	if err == nil {
		return overwriteRecord(f, path, data)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return writeRecord(path, data) // a link, a pipe with no reader
	}
	err = createRecord(path, data)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		err = createRecord(path, data)
	}
	if errors.Is(err, fs.ErrExist) {
		return writeRecord(path, data) // a parallel failure of the family made it
	}
	return err
}

// createRecord writes the family's first failure straight to its name:
// a new file, created with O_EXCL and without following a link, written
// in one write. On this machine's ext4 that costs 0.2 ms against 0.6 ms
// for writing beside it and renaming; a reader that opens it between
// the create and the write sees it empty, and leaves it (see fixed). A
// record already there is written over (see saveRecord).
func createRecord(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|noFollow, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// overwriteRecord writes a family's failure over the record at path,
// open in f, in place: a family that fails again, as a retry loop's does,
// allocates no inode, which costs this machine's ext4 0.15 to 0.4 ms a
// create (and a rename another), against tens of microseconds for
// writing a page in place. The record goes in two writes: itself with a
// blank for its opening '{', padded with blanks over what the old one
// held past its end, then the '{'. A reader takes a record only from
// its '{' (see takeRecord), so it never takes half of one. A file that
// is not a regular file with one link (what the agent may have put at
// a name it guessed) is never written through: writeRecord replaces it.
// Not synced, like writeRecord's. It closes f.
func overwriteRecord(f *os.File, path string, data []byte) error {
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !soleLink(fi) {
		f.Close()
		return writeRecord(path, data)
	}
	body := append([]byte(nil), data...)
	for int64(len(body)) < fi.Size() {
		body = append(body, ' ')
	}
	body[0] = ' '
	if _, err := f.WriteAt(body, 0); err != nil {
		return err
	}
	_, err = f.WriteAt(data[:1], 0)
	return err
}

// writeRecord replaces a capture record: written beside it under a
// random name, created with O_EXCL and without following a link (what
// the agent may have put at a name it guessed is never written
// through), and renamed, so a reader never sees half of one. Not
// synced: a record a crash loses costs one nudge, and an fsync would
// cost every failure a millisecond.
func writeRecord(path string, data []byte) error {
	var f *os.File
	var err error
	for range 4 {
		tmp := path + ".tmp" + strconv.FormatUint(rand.Uint64(), 36)
		f, err = os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY|noFollow, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// captureLimit opens the manifest for captureNudges, and says whether an
// active lesson already matches the call.
func (r *run) captureLimit(call Call) (limit int, covered bool, err error) {
	m, err := r.open()
	if err != nil {
		return 0, false, err
	}
	defer m.Close()
	return r.limitIn(m, call)
}

// limitIn is captureLimit on a manifest already open.
func (r *run) limitIn(m *Manifest, call Call) (limit int, covered bool, err error) {
	limit = r.cfg.Nudges()
	if limit == 0 {
		return 0, false, nil
	}
	hits, err := r.match.Match(m, call)
	if err != nil && !errors.Is(err, ErrTimeout) {
		return 0, false, err
	}
	return limit, len(hits) > 0, nil
}

// fixed answers a successful call whose family failed before with a
// nudge, when the call differs from the failed one.
func (r *run) fixed(call Call, fam lessons.Family) (string, error) {
	path := r.recordPath(fam.String())
	data, err := takeRecord(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil || data == nil {
		return "", err
	}
	f, err := unmarshalFailure(data)
	if err != nil {
		return "", fmt.Errorf("capture record %s: %w", path, err)
	}
	if clip(scrub(call.Command), 600) == f.Command {
		return "", nil // the same call worked this time: nothing changed
	}
	r.project = f.Project
	if !r.claimNudge(f.Family, f.Limit) {
		return "", nil
	}
	r.nudged(call.Tool, nudgeFix)
	return fixNudge(f), nil
}

// rejected answers a call the user rejected with a reason.
func (r *run) rejected(call Call, fam lessons.Family, reason string) (string, error) {
	key := fam.String()
	if call.Tool != "Bash" || key == "" {
		key = call.Tool
		if len(call.Paths) > 0 {
			key += " " + call.Paths[0]
		}
	}
	if exists(r.donePath(key)) {
		return "", nil
	}
	limit, covered, err := r.captureLimit(call)
	if err != nil || limit == 0 || covered || !r.claimNudge(key, limit) {
		return "", err
	}
	r.nudged(call.Tool, nudgeRejection)
	return rejectionNudge(reason), nil
}

// claimNudge takes the family's one nudge and one of the session's
// limit nudges; false when either is gone. Both are files created with
// O_EXCL, so parallel calls never nudge twice.
func (r *run) claimNudge(fam string, limit int) bool {
	if err := os.MkdirAll(r.captureDir(), 0o700); err != nil || !create(r.donePath(fam)) {
		return false
	}
	for i := 1; i <= limit; i++ {
		if create(r.slotPath(i)) {
			return true
		}
	}
	return false
}

func (r *run) slotPath(i int) string {
	return filepath.Join(r.captureDir(), "n-"+strconv.Itoa(i))
}

// nudged logs the nudge, under the session's own hash (not a
// subagent's), which is how `lessons stats` joins it with the scan.
func (r *run) nudged(tool, trigger string) {
	r.events = append(r.events, Event{
		Time: r.h.now().UTC(), Session: SessionHash(r.p.SessionID), Project: r.project, Event: EventNudge,
		Hook: r.p.HookEventName, Tool: tool, Trigger: trigger, Agent: platformName(r.pf),
	})
}

// fixNudge asks for a lesson after a fix.
func fixNudge(f failure) string {
	head := "Live capture: `" + quoteSafe(clip(scrub(f.Family), 40)) + "` failed earlier in this session"
	tail := " and this changed call worked. If the change is a fix worth knowing next time, write a #lesson block now " +
		"(tool, trigger, problem, solution); if it was a one-off such as a typo or a wrong path, write nothing."
	if room := maxNudge - len(head) - len(tail) - len(" ()"); f.Error != "" && room > 20 {
		head += " (" + clip(quoteSafe(f.Error), room) + ")"
	}
	return head + tail
}

// rejectionNudge asks for a lesson after the user rejected a call.
func rejectionNudge(reason string) string {
	head := "Live capture: the user rejected this call, saying: \""
	tail := "\". If the user stated a rule for calls like this one, write a #lesson block now (tool, trigger, problem, " +
		"solution); if it was a question or applies only here, write nothing."
	return head + clip(quoteSafe(scrub(reason)), maxNudge-len(head)-len(tail)) + tail
}

// quoteSafe keeps angle brackets out of the text: Gemini CLI shows them
// escaped, and the agents read text in tags as markup.
func quoteSafe(s string) string {
	return strings.NewReplacer("<", "(", ">", ")").Replace(s)
}

// platformName names a platform as Platforms does, "" for another one.
// Platforms are comparable values, so equality finds the name.
func platformName(pf Platform) string {
	for name, p := range Platforms {
		if p == pf {
			return name
		}
	}
	return ""
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// create makes an empty file, reporting whether this call made it.
func create(path string) bool {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return false
	}
	return f.Close() == nil
}

// takeRecord reads the failure on record at path and blanks it, in
// place: answered, nudge or not, and left for the family's next failure
// to write over (see overwriteRecord). It returns nil data for a record
// being written (empty, or its '{' not yet there: the failure's hook
// still runs) or answered already (blanks). A record that is not a
// regular file is an error; one with other links is removed, not
// written through.
func takeRecord(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDWR|noFollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err == nil {
		err = scope.CheckRegular(path, fi)
	}
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxRecord+1))
	if err == nil && len(data) > maxRecord {
		err = fmt.Errorf("capture record %s is over %d bytes", path, maxRecord)
	}
	if err != nil || len(data) == 0 || data[0] != '{' {
		return nil, err
	}
	if soleLink(fi) {
		_, _ = f.WriteAt(bytes.Repeat([]byte{' '}, len(data)), 0)
	} else {
		f.Close() // Windows removes no open file
		_ = os.Remove(path)
	}
	return data, nil
}

// maxRecord caps what a capture record read may hold.
const maxRecord = 4 << 10

// readSmall reads a capture record: a regular file of at most maxRecord
// bytes.
func readSmall(path string) ([]byte, error) {
	f, err := scope.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecord+1))
	if err == nil && len(data) > maxRecord {
		err = fmt.Errorf("capture record %s is over %d bytes", path, maxRecord)
	}
	return data, err
}
