package engine

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lessons-dev/lessons/scope"
)

// Session is one agent session's once-per-session state: a directory
// holding one claim file per lesson injected. Creating a claim with
// O_EXCL is atomic, so parallel tool calls and subagents of the same
// session never inject a lesson twice.
type Session struct {
	Dir  string
	Hash string // scope.NameHash of the session id
}

// SessionOf is the state of session id under the state directory.
func SessionOf(state, id string) Session {
	h := SessionHash(id)
	return Session{Dir: filepath.Join(state, "sessions", h), Hash: h}
}

// SessionHash names a session without storing its id.
func SessionHash(id string) string {
	return scope.NameHash(id)
}

func (s Session) claimPath(slug string) string {
	if slug == "" || slug[0] == '.' || strings.ContainsAny(slug, `/\`) {
		slug = SessionHash(slug)
	}
	return filepath.Join(s.Dir, slug)
}

// Claimed reports whether the lesson was injected in this session.
func (s Session) Claimed(slug string) bool {
	_, err := os.Lstat(s.claimPath(slug))
	return err == nil
}

// Claim marks the lesson injected and reports whether this call won it:
// false means another call of the session already has it.
func (s Session) Claim(slug string) (bool, error) {
	p := s.claimPath(slug)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(s.Dir, 0o700); err != nil {
			return false, err
		}
		f, err = os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	}
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, f.Close()
}

// ClaimAgain claims the next of times more sayings of a claimed lesson
// (claims "slug~1", "slug~2", …) and reports whether this call won one:
// false when the session has heard it times more already.
func (s Session) ClaimAgain(slug string, times int) (bool, error) {
	for k := 1; k <= times; k++ {
		won, err := s.Claim(slug + "~" + strconv.Itoa(k))
		if won || err != nil {
			return won, err
		}
	}
	return false, nil
}

// Forget makes the lessons eligible again in this session.
func (s Session) Forget(slugs []string) error {
	var errs []error
	for _, slug := range slugs {
		if err := os.Remove(s.claimPath(slug)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Reset forgets every claim of the session.
func (s Session) Reset() error {
	return os.RemoveAll(s.Dir)
}

// subagentPath marks a session whose subagent is running, for agents
// whose subagents' calls carry nothing of their own (Gemini CLI).
func subagentPath(state, id string) string {
	return filepath.Join(state, "sessions", SessionHash(id)+".subagent")
}

// startSubagent marks the session: its calls are a new subagent's.
func startSubagent(state, id string, now time.Time) error {
	p := subagentPath(state, id)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	return writeRecord(p, []byte(strconv.FormatInt(now.UnixNano(), 36)))
}

// endSubagent removes the mark.
func endSubagent(state, id string) error {
	if err := os.Remove(subagentPath(state, id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// runningSubagent names the session's running subagent, "" when none is.
func runningSubagent(state, id string) string {
	data, err := readSmall(subagentPath(state, id)) // never waits on a pipe put there
	if err != nil || len(data) > 32 {
		return ""
	}
	return string(data)
}

// Claims lists the slugs claimed in this session.
func (s Session) Claims() []string {
	ents, _ := os.ReadDir(s.Dir)
	out := make([]string, 0, len(ents))
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// sessionMaxAge is how long an idle session's claims are kept.
const sessionMaxAge = 7 * 24 * time.Hour

// sweepSessions removes the state of sessions idle for a week; session
// starts call it, so the directory does not grow without bound.
func sweepSessions(state string, now time.Time) {
	dir := filepath.Join(state, "sessions")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > sessionMaxAge {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}
