package scanner

import (
	"slices"
	"strings"

	"github.com/lessons-dev/lessons"
)

// A mistake fixed in one session may be that task's: a heuristic's
// lesson is proposed to the team once another session got past the same
// failure the same way (fixedOnce). Until then it is said only after its
// error, as a reminder (design.md "Reminders"): the second time the
// failure comes, the lesson is there right after it. A scan counts the
// sessions the failure was seen in under any lesson on it (comebacks),
// for a reviewer: "its failure in 4". The same failure is the same
// command family and error class, whatever the lesson on it (a retry in
// one session, a lesson on the error in the next). On the blind-labelled
// sets, lessons fixed in one session whose failure came back fixed
// another way or not at all were kept 3 times in 9.

// comebackKeys are what groups the lessons on one failure in one project
// (a failure of another project is another project's mistake): the tool
// and the error triggers, and, as a replay counts a repeat, the tool, the
// failed command's family and the error's class ("Bash python3 |
// ModuleNotFoundError: No module named <q>"): two lessons on one error may
// be triggered by patterns of two breadths. They are keys of project p.
func comebackKeys(c *Candidate, p string) []string {
	var keys []string
	if len(c.Triggers.Errors) > 0 {
		keys = append(keys, p+"\x00t "+c.Tool+"\x00"+strings.Join(c.Triggers.Errors, "\x00"))
	}
	if f := c.failure(); f != "" {
		keys = append(keys, p+"\x00f "+f)
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

// fixedOnce reports whether c is a heuristic whose fix was seen in a
// single session so far, however often its failure came back. What a
// user said, the agent's own report and a wrong path have their own
// rules (toldOnce, tags, onePath).
func (c *Candidate) fixedOnce() bool {
	switch c.Kind {
	case KindTag, KindRejection, KindCorrection, KindPath:
		return false
	}
	return len(c.Sessions) < 2
}

// failedSessions holds, by comeback key, the sessions the failure was
// seen in, up to maxSupport, as support is counted; FailedIn is counted
// up to it.
type failedSessions map[string][]string

// add adds c's sessions, from its provenance, to its keys in each
// project.
func (f failedSessions) add(c *Candidate) {
	keys := map[string][]string{} // by project
	for _, p := range c.Provenance {
		if p.SessionID == "" {
			continue
		}
		ks, ok := keys[p.Project]
		if !ok {
			ks = comebackKeys(c, p.Project)
			keys[p.Project] = ks
		}
		for _, k := range ks {
			if ss := f[k]; len(ss) < maxSupport && !slices.Contains(ss, p.SessionID) {
				f[k] = append(ss, p.SessionID)
			}
		}
	}
}

// recount sets c's FailedIn from the sessions of its keys and reports
// whether it changed on a candidate of status new.
func (f failedSessions) recount(c *Candidate) bool {
	var n []string
	for _, p := range c.Projects {
		for _, k := range comebackKeys(c, p) {
			for _, s := range f[k] {
				if len(n) < maxSupport && !slices.Contains(n, s) {
					n = append(n, s)
				}
			}
		}
	}
	if c.FailedIn == len(n) {
		return false
	}
	c.FailedIn = len(n)
	return c.Status == StatusNew
}

// comebacks sets, for each of cs, the sessions its failure was seen in
// under any lesson of cs on it (comebackKeys), and returns those of
// status new whose count changed.
func comebacks(cs []*Candidate) []*Candidate {
	f := failedSessions{}
	for _, c := range cs {
		f.add(c)
	}
	var changed []*Candidate
	for _, c := range cs {
		if f.recount(c) {
			changed = append(changed, c)
		}
	}
	return changed
}

// AsReminder is c as the hook says it before anyone reviews it, after its
// error, and ok when it says it at all (Reminder): a lesson with error
// triggers as it is, and one seen once that fires before its command
// (keyed on the option it dropped) narrowed to its error, until it is
// proposed; a sandbox's silent failure has no error to come after, and
// comes before its command (silentSandbox).
func (c Candidate) AsReminder(cfg lessons.Config) (said Candidate, ok bool) {
	if c.Status != StatusNew || c.capped() || !cfg.Admits(c.Confidence, true) {
		return Candidate{}, false
	}
	if len(c.Triggers.Errors) > 0 || c.silentSandbox() {
		return c, true
	}
	if !c.fixedOnce() {
		return Candidate{}, false
	}
	c.Examples.Match = slices.Clone(c.Examples.Match)
	c.Triggers.Commands = slices.Clone(c.Triggers.Commands)
	return c, c.narrowToError()
}
