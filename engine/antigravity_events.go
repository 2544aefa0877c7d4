package engine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons/scope"
)

// ownEvents is a platform that answers some events its own way; the
// others go the common way.
type ownEvents interface {
	answerOwn(r *run) (out any, handled bool, err error)
}

func (p antigravityPlatform) answerOwn(r *run) (any, bool, error) {
	if r.p.HookEventName == "" {
		r.p.HookEventName = r.h.Event // agy's payloads name no event
	}
	if r.p.HookEventName == "" && r.p.ToolCall != nil {
		// A hooks.json written without --event: a call is a call to
		// decide on, or a force push would get the explicit allow.
		r.p.HookEventName = "PreToolUse"
	}
	switch p.Event(r.p.HookEventName) {
	case "PreToolUse":
		out, err := r.antigravityPreToolUse()
		return out, true, err
	case "PostToolUse":
		return noOutput, true, nil // agy reads no text there
	case "PreInvocation":
		out, err := r.preInvocation()
		return out, true, err
	}
	return nil, false, nil
}

// antigravityPreToolUse refuses a call a lesson blocks; the lessons it
// brings up wait for the next model call.
func (r *run) antigravityPreToolUse() (any, error) {
	call, m, blocks, injects, err := r.matchCall()
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if len(blocks) > 0 {
		return r.block(blocks, call), nil
	}
	var slugs []string
	for _, c := range injects {
		slugs = append(slugs, c.Slug)
	}
	if err := nextCall(r.sess).hold(slugs); err != nil {
		return nil, fmt.Errorf("session state: %w", err)
	}
	return noOutput, nil
}

// protocolClaim marks, among a session's claims, that the protocol was
// given: Antigravity CLI has no session start to give it at.
const protocolClaim = "lessons-protocol"

// preInvocation answers Antigravity CLI's PreInvocation: at a session's
// first model call the protocol and the session's lessons (what
// SessionStart gives other agents), then, at any call, the lessons of
// the tool calls since the last one.
func (r *run) preInvocation() (any, error) {
	var texts []string
	first, err := r.sess.Claim(protocolClaim)
	if err != nil {
		return nil, fmt.Errorf("session state: %w", err)
	}
	if first {
		out, err := r.sessionStart()
		if err != nil {
			return nil, err
		}
		texts = append(texts, injectedMessage(out))
	}
	next := nextCall(r.sess)
	if held := next.held(); len(held) > 0 {
		text, err := r.heldText(held)
		if err != nil {
			return nil, err
		}
		texts = append(texts, text)
		var done []string
		for _, slug := range held {
			if r.sess.Claimed(slug) {
				done = append(done, slug)
			}
		}
		if err := next.release(done); err != nil {
			r.note("session state: %v", err)
		}
	}
	text := strings.TrimSpace(strings.Join(texts, "\n\n"))
	if text == "" {
		return noOutput, nil
	}
	return r.pf.Context(r.p.HookEventName, text), nil
}

// heldText selects among the held lessons, ranked, and claims them.
func (r *run) heldText(held []string) (string, error) {
	m, err := r.open()
	if err != nil {
		return "", err
	}
	defer m.Close()
	var cs []Candidate
	for i := range m.Len() {
		e, err := m.Entry(i)
		if err != nil {
			return "", err
		}
		if slices.Contains(held, e.Slug) && !r.sess.Claimed(e.Slug) {
			cs = append(cs, Candidate{Entry: e, Trigger: "tool call"})
		}
	}
	rankCandidates(cs)
	return r.selectText("", "from your recent tool calls", cs)
}

// injectedMessage is the text of an Antigravity CLI answer, "" for none.
func injectedMessage(v any) string {
	if o, ok := v.(antigravityOutput); ok && len(o.InjectSteps) > 0 {
		return o.InjectSteps[0].EphemeralMessage
	}
	return ""
}

// heldLessons are the lessons a session's tool calls brought up that
// wait for its next model call: a directory beside the session's claims
// (swept with them) holding one file per lesson.
type heldLessons struct{ s Session }

func nextCall(s Session) heldLessons { return heldLessons{s} }

func (h heldLessons) dir() string { return h.s.Dir + ".next-model-call" }

func (h heldLessons) hold(slugs []string) error {
	if len(slugs) == 0 {
		return nil
	}
	if err := os.MkdirAll(h.dir(), 0o700); err != nil {
		return err
	}
	var errs []error
	for _, slug := range slugs {
		errs = append(errs, os.WriteFile(filepath.Join(h.dir(), filepath.Base(h.s.claimPath(slug))), []byte(slug), 0o600))
	}
	return errors.Join(errs...)
}

func (h heldLessons) held() []string {
	ents, _ := os.ReadDir(h.dir())
	var out []string
	for _, e := range ents {
		if slug, ok := readHeld(filepath.Join(h.dir(), e.Name())); ok {
			out = append(out, slug)
		}
	}
	return out
}

// maxHeld caps a held lesson's file, which holds its slug.
const maxHeld = 256

// readHeld reads a held lesson's slug. It opens only a regular file and
// reads at most maxHeld bytes: a named pipe put there blocked the hook
// until its watchdog, and a link to /dev/zero read until memory ran out.
func readHeld(path string) (string, bool) {
	f, err := scope.OpenRegular(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	slug, err := io.ReadAll(io.LimitReader(f, maxHeld))
	return string(slug), err == nil && len(slug) < maxHeld
}

func (h heldLessons) release(slugs []string) error {
	var errs []error
	for _, slug := range slugs {
		err := os.Remove(filepath.Join(h.dir(), filepath.Base(h.s.claimPath(slug))))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
