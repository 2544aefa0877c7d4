package engine

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/lessons-dev/lessons/scope"
)

// Event is one line of the event log: a lesson injected, a call blocked,
// or live capture's nudge (which has no slug). Nothing in it leaves the
// machine.
type Event struct {
	Time    time.Time `json:"time"`
	Session string    `json:"session"` // SessionHash of the session id
	Project string    `json:"project,omitempty"`
	Slug    string    `json:"slug,omitempty"`
	// Event is "inject", "block" or "nudge".
	Event string `json:"event"`
	// Decision is deny or ask, for a block.
	Decision string `json:"decision,omitempty"`
	// Hook is the hook event: PreToolUse, SessionStart, UserPromptSubmit.
	Hook string `json:"hook"`
	Tool string `json:"tool,omitempty"`
	// Trigger is what matched: trigger kinds such as "commands" or
	// "paths+content", "sessionStart", or "prompt"; for a nudge, "fix"
	// or "rejection".
	Trigger string `json:"trigger,omitempty"`
	// Agent is the platform a nudge went to (claude, codex, gemini,
	// opencode).
	Agent string `json:"agent,omitempty"`
}

// Event kinds.
const (
	EventInject = "inject"
	EventBlock  = "block"
	EventNudge  = "nudge"
)

// maxLogSize is where the event log and the hook log rotate: the current
// file becomes ".1", replacing the previous one.
const maxLogSize = 1 << 20

// EventsPath is the event log in a state directory.
func EventsPath(state string) string { return filepath.Join(state, "events.jsonl") }

// HookLogPath is the hook's diagnostic log in a state directory.
func HookLogPath(state string) string { return filepath.Join(state, "hook.log") }

// appendEvents writes events to the log in one append.
func appendEvents(path string, evs []Event) error {
	if len(evs) == 0 {
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, e := range evs {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return appendRotated(path, buf.Bytes())
}

// appendRotated appends data to a log file, rotating it first when it
// has grown past maxLogSize. One write with O_APPEND keeps lines from
// parallel hooks whole. Anything at path but a regular file (a named
// pipe, a symbolic link, a device: the agent can make one) is refused
// before and after the open, which neither follows a link nor waits on
// a pipe: a log never holds or redirects the hook.
func appendRotated(path string, data []byte) error {
	fi, err := os.Lstat(path)
	if err == nil {
		if err := scope.CheckRegular(path, fi); err != nil {
			return err
		}
		if fi.Size() >= maxLogSize {
			_ = os.Rename(path, path+".1")
		}
	}
	f, err := openLog(path)
	if os.IsNotExist(err) {
		if err = os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
			f, err = openLog(path)
		}
	}
	if err != nil {
		return err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return cmp.Or(err, scope.CheckRegular(path, fi))
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func openLog(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY|noFollow, 0o600)
}
