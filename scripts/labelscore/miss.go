package main

// Why a failed call no learned lesson caught was missed, from the trace
// alone; the first that holds, in this order:
const (
	// missTold: an earlier call of the same session with the same key
	// was prevented or shortened; the hook says a lesson once a session.
	missTold = "told"
	// missUnmatched: a lesson learned from a failure with this key was
	// live, and its triggers did not match this call or its output.
	missUnmatched = "unmatched"
	// missBelow: a lesson was learned from a failure with this key, and
	// was not live (below minConfidence, or folded into another).
	missBelow = "below"
	// missNothing: no lesson had been learned from a failure with this
	// key (its cause may have been learned under another key).
	missNothing = "nothing"
)

// missReasons lists them in the order the report prints them.
var missReasons = []string{missTold, missUnmatched, missBelow, missNothing}

// missTracker follows a trace in order: the learned lessons' last form,
// and the keys a learned lesson caught in the current session.
type missTracker struct {
	lessons map[string]traceLesson
	file    string
	told    map[string]bool
}

// learned records a lesson line.
func (m *missTracker) learned(l traceLesson) {
	if m.lessons == nil {
		m.lessons = map[string]traceLesson{}
	}
	m.lessons[l.Slug] = l
}

// call reads a call line and returns, for a failed call no lesson
// caught, why; "" for the others.
func (m *missTracker) call(c traceCall) string {
	if c.File != m.file {
		m.file, m.told = c.File, map[string]bool{}
	}
	key := c.Family + " | " + c.Class
	if caught(c.Verdict) {
		m.told[key] = true
		return ""
	}
	if c.Outcome != "failed" {
		return ""
	}
	if m.told[key] {
		return missTold
	}
	why := missNothing
	for _, l := range m.lessons {
		for _, k := range l.Keys {
			if k != key {
				continue
			}
			if l.Live {
				return missUnmatched
			}
			why = missBelow
		}
	}
	return why
}
