package scanner

import (
	"slices"
	"strings"

	"github.com/lessons-dev/lessons"
)

// A mistake seen in one session may be that task's: a heuristic's lesson
// is proposed to the team once its failure came back in another session,
// fixed the same way, another way or not at all. Until then it is said
// only after its error, as a reminder (design.md "Reminders"): the second
// time the failure comes, the lesson is there right after it. The same
// failure is the same command family and error class, whatever the
// lesson on it (a retry in one session, a lesson on the error in the
// next).

// comebackKeys are what groups the lessons on one failure: the tool and
// the error triggers, and, as a replay counts a repeat, the tool, the
// failed command's family and the error's class ("Bash python3 |
// ModuleNotFoundError: No module named <q>"): two lessons on one error may
// be triggered by patterns of two breadths. None for a lesson that does
// not come after its error (its own sessions count).
func comebackKeys(c *Candidate) []string {
	var keys []string
	if len(c.Triggers.Errors) > 0 {
		keys = append(keys, "t "+c.Tool+"\x00"+strings.Join(c.Triggers.Errors, "\x00"))
	}
	if f := c.failure(); f != "" {
		keys = append(keys, "f "+f)
	}
	return keys
}

// failure is c's Failure, worked out from its first failing example and
// its problem when not yet known.
func (c *Candidate) failure() string {
	if c.Failure != "" || len(c.Examples.Match) == 0 {
		return c.Failure
	}
	if class := lessons.ErrorClass(c.Problem); class != "" {
		k := c.Tool
		if cmd := c.Examples.Match[0].Command; cmd != "" {
			k += " " + lessons.FailedFamily(cmd, c.Problem).String()
		}
		c.Failure = k + " | " + class
	}
	return c.Failure
}

// seenOnce reports whether c is a heuristic whose failure was seen in a
// single session so far. What a user said and the agent's own report
// have their own rules (toldOnce, tags).
func (c *Candidate) seenOnce() bool {
	switch c.Kind {
	case KindTag, KindRejection, KindCorrection, KindPath:
		return false
	}
	return max(len(c.Sessions), c.FailedIn) < 2
}

// comebacks sets, for each of cs, the sessions its failure was seen in
// under any lesson of cs on it (comebackKeys), and returns those of
// status new whose count changed.
func comebacks(cs []*Candidate) []*Candidate {
	groups := map[string][]*Candidate{}
	for _, c := range cs {
		for _, k := range comebackKeys(c) {
			groups[k] = append(groups[k], c)
		}
	}
	var changed []*Candidate
	for _, c := range cs {
		if recount(c, func(k string) []*Candidate { return groups[k] }) {
			changed = append(changed, c)
		}
	}
	return changed
}

// recount sets c's FailedIn from the lessons on its failure (group gives
// them by key) and reports whether it changed on a candidate of status
// new.
func recount(c *Candidate, group func(key string) []*Candidate) bool {
	keys := comebackKeys(c)
	if len(keys) == 0 {
		return false
	}
	var sessions []string
	for _, k := range keys {
		for _, o := range group(k) {
			for _, s := range o.Sessions {
				if !slices.Contains(sessions, s) {
					sessions = append(sessions, s)
				}
			}
		}
	}
	if c.FailedIn == len(sessions) {
		return false
	}
	c.FailedIn = len(sessions)
	return c.Status == StatusNew
}

// AsReminder is c as the hook says it before anyone reviews it, after its
// error (Reminder): a lesson seen once that fires before its command
// (keyed on the option it dropped) comes after its error instead, until
// it is proposed; others are said as they are.
func (c Candidate) AsReminder() Candidate {
	if len(c.Triggers.Errors) > 0 || !c.seenOnce() {
		return c
	}
	c.Examples.Match = slices.Clone(c.Examples.Match)
	c.Triggers.Commands = slices.Clone(c.Triggers.Commands)
	if !c.narrowToError() {
		return Candidate{}
	}
	return c
}
