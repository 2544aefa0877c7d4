package scanner

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine/secret"
)

// A lesson on the error as a candidate: its trigger on the error's stable
// text, its text, and how it folds when its failure is seen again.

// errorText writes a lesson on the error: what failed, and what got past
// it; for one nothing got past, the sessions it was seen in so far.
func (c *Candidate) errorText(unit, fix string, sandboxed bool) {
	line := errorHeadline(c.Problem)
	if len(c.Examples.Match) > 0 && c.Examples.Match[0].Error != "" {
		line = c.Examples.Match[0].Error
	}
	head := unit + " failed with: "
	class := lessons.ErrorClass(c.Problem)
	if said := lessons.RefusalSaid(class); said != "" {
		// the sandbox or the machine, not the command: any command meets it
		head = said + " (" + unit + "): "
	} else if sandboxed {
		head = "The agent's sandbox refused " + unit + ": "
	}
	line = lessons.StripANSI(line) // the trigger keeps the colours the hook will see; the words do not
	if len(head)+len(line) > maxSummary {
		line = clipPaths(line)
	}
	if room := maxSummary - len(head); room >= minErrorRoom {
		line = shorten(line, room) // cut within the error, never at the head's own ": "
	}
	c.Summary = secret.Sentence(shorten(head+line, maxSummary))
	if fix != "" {
		where := " in this project"
		if slices.Contains(lessons.FileTools, c.Tool) {
			where = "" // a file tool's own error is one lesson across projects (build)
		}
		said := fixSaid
		if c.Signals.OneOff {
			said = taskFixSaid // that task's call: its way, not its values (a reminder only)
		}
		c.Solution = "This error came before" + where + said + fix + "."
		return
	}
	when := "in an earlier session of this project" // its first: the sessions are counted as they come back
	if n := len(c.Sessions); n > 1 {
		when = "in " + strconv.Itoa(n) + " sessions of this project"
	}
	said := "This error came before, " + when + ", and no retry of " + unit + " got past it in the session"
	if len(c.Tried) > 0 {
		var tried []string
		for _, t := range c.Tried {
			tried = append(tried, "`"+commandGist(t)+"`")
		}
		said += ": " + strings.Join(tried, " and ") + " failed too"
	}
	said += "."
	if c.Reading != "" {
		said += " The agent read it then as: \u201c" + c.Reading + "\u201d"
		if !strings.ContainsAny(c.Reading[len(c.Reading)-1:], ".!") {
			said += "."
		}
	}
	if c.Skipped != "" {
		said += " It went through only with `" + clip(c.Skipped, 80) + "`, which switches the check off: that is not a fix, so do not take it unasked."
	}
	if c.Instead != "" {
		c.Solution = said + " What worked after it was another call of the same program, `" + commandGist(c.Instead) +
			"`: go that way, and do not retry the failed call unchanged."
		return
	}
	if lessons.AgentRefusal(class) {
		c.Solution = said + " The agent's permission settings refused the call: ask the user to run it or to allow it, and do not work around the refusal."
		return
	}
	c.Solution = said + " Do not retry it unchanged: read what the error says is missing or wrong, " +
		"check that before the next call, or say that it fails and go on without it."
}

// minErrorRoom is the least of a summary an error's words are cut to
// after its head; a head that leaves less is cut with them.
const minErrorRoom = 30

// How a lesson on an error introduces what got past it: a fix, or one
// task's own call (OneOff), whose way to take and not its values.
const (
	fixSaid     = ". What got past it then: "
	taskFixSaid = ". What got past it then was that task's own call; take its way, not its values: "
)

// fixSeenAgain clears a lesson on an error of its one-off mark when its
// fix came back in another session: the fix is the lesson's, not one
// task's, and its text says it as a fix.
func (c *Candidate) fixSeenAgain() {
	c.Signals.OneOff = false
	c.Solution = strings.Replace(c.Solution, taskFixSaid, fixSaid, 1)
}

// commandGist is a command as a lesson quotes it: its first line, clipped.
func commandGist(cmd string) string {
	first, _, more := strings.Cut(strings.TrimSpace(cmd), "\n")
	if more {
		first += " …"
	}
	return clip(first, 160)
}

// errorUnit names what failed for a lesson on its error: the failed
// command's family, or the tool.
func errorUnit(tool string, fam lessons.Family) string {
	if tool == "Bash" && fam.Exe != "" {
		return "`" + fam.String() + "`"
	}
	return cmp.Or(tool, "the call")
}

// errorTrigger builds the triggers of a lesson on an error of class: the first
// sentence of the line its class was read from, as a linear pattern, for the failed command's family or
// the tool (the words passed, what a tool other than the shell was given,
// masked), or a shell error about a named object, for any shell command
// (objectTrigger), or an environment's refusal another tool met, for that
// tool (refusalTrigger); ok is false when the error has too little stable text.
func errorTrigger(tool, trigger, errLine, class string, fam lessons.Family, passed string) (lessons.Trigger, lessons.Examples, bool) {
	if t, ok := objectTrigger(class, errLine); ok && tool == "Bash" && fam.Exe != "" {
		return t, lessons.Examples{Match: []lessons.ToolCall{{Tool: tool, Command: trigger, Error: errLine}}}, true
	}
	if t, ok := refusalTrigger(tool, class, errLine); ok && tool != "Bash" {
		return t, lessons.Examples{Match: []lessons.ToolCall{fileExample(tool, trigger, errLine)}}, true
	}
	var p string
	if tool == "Bash" {
		p = callPattern(lessons.FirstSentence(errLine), trigger, fam.Sub)
	} else {
		// the words the tool was given (a page's heading it did not
		// find) are this call's, and what follows them: cut there, so
		// the next call's match
		set := passedSet(passed)
		p = linePattern(beforePassed(lessons.FirstSentence(errLine), set), true, set)
	}
	if p == "" {
		return lessons.Trigger{}, lessons.Examples{}, false
	}
	t := lessons.Trigger{Errors: []string{p}}
	ex := lessons.ToolCall{Tool: tool, Error: errLine}
	switch {
	case tool == "Bash" && fam.Exe != "":
		sub := fam.Sub
		if sub != "" && !containsWord(strings.ToLower(errLine), strings.ToLower(sub)) {
			sub = "" // an error the program prints whatever it was asked to do
		}
		t.Commands = []string{headPattern(fam.Exe, sub)}
		ex.Command = trigger
		if !commandFires(t, trigger) {
			return lessons.Trigger{}, lessons.Examples{}, false
		}
	case tool == "Bash":
		return lessons.Trigger{}, lessons.Examples{}, false
	default:
		t.Tools = []string{tool}
		ex = fileExample(tool, trigger, errLine)
	}
	return t, lessons.Examples{Match: []lessons.ToolCall{ex}}, true
}

// fileExample is the example of a lesson on an error a tool other than
// the shell printed: the tool, its path when its trigger reads as one,
// and the error.
func fileExample(tool, trigger, errLine string) lessons.ToolCall {
	ex := lessons.ToolCall{Tool: tool, Error: errLine}
	if strings.ContainsAny(trigger, "/.") && !strings.ContainsAny(trigger, " \n") {
		ex.Path = trigger
	}
	return ex
}

// longPath is an absolute or home path of four names or more.
var longPath = regexp.MustCompile(`(?:~|[A-Za-z]:)?(?:[/\\][^\s/\\'"` + "`" + `:]+){4,}[/\\]?`)

// clipPaths writes the long paths of an error line as their last two
// names ("…/skills/SKILL.md"): in a summary the rest of the line says
// what went wrong, and a cut would leave only the path's start.
func clipPaths(line string) string {
	return longPath.ReplaceAllStringFunc(line, func(p string) string {
		names := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
		return "…/" + strings.Join(names[len(names)-2:], "/")
	})
}

// familyOf is the family of a Bash trigger's failing command, read again
// from the candidate's key ("Bash go test | …").
func familyOf(key string) lessons.Family {
	fam, _, _ := strings.Cut(key, " | ")
	rest, ok := strings.CutPrefix(fam, "Bash ")
	if !ok {
		return lessons.Family{}
	}
	exe, sub, _ := strings.Cut(rest, " ")
	return lessons.Family{Exe: exe, Sub: sub}
}

// foldError folds a lesson on an error seen again into c, before merge
// counts it: the first fix found is kept, and one that had none, or only
// one task's (OneOff, never said), takes the new one's: a fix one task's
// until seen again is only the latest found.
func (c *Candidate) foldError(n Candidate) {
	if c.Kind == KindPath {
		c.foldPath(n)
		return
	}
	if c.Kind == KindError && c.Fixed != "" && n.Fixed != "" && !c.holds(n) {
		if n.Solution == c.Solution {
			c.Signals.FixAgain = true
		} else {
			c.Signals.FixVaries = true
		}
	}
	if c.Kind != KindError || c.Fixed != "" && !(c.Signals.OneOff && n.Fixed != "") {
		return
	}
	if n.Fixed == "" {
		// nothing got past it again: what failed and what worked
		// instead, from every session, as far as the text names them
		for _, t := range n.Tried {
			if len(c.Tried) < maxTried && !slices.ContainsFunc(c.Tried, func(u string) bool { return doing(u) == doing(t) }) {
				c.Tried = append(c.Tried, t)
			}
		}
		c.Instead, c.Reading, c.Skipped = cmp.Or(c.Instead, n.Instead), cmp.Or(c.Reading, n.Reading), cmp.Or(c.Skipped, n.Skipped)
		return
	}
	c.Tried, c.Instead, c.Reading, c.Skipped = nil, "", "", ""
	c.Summary, c.Problem, c.Solution, c.Fixed = n.Summary, n.Problem, n.Solution, n.Fixed
	c.Signals.OneOff = n.Signals.OneOff
}

// holds reports whether every occurrence of n is one of c's already.
func (c *Candidate) holds(n Candidate) bool {
	for _, p := range n.Provenance {
		if !slices.ContainsFunc(c.Provenance, func(q Provenance) bool { return q.Key == p.Key || p.Call != "" && q.Call == p.Call }) {
			return false
		}
	}
	return true
}

// retext writes a keyed candidate's text again for the sessions it was
// seen in: a known failure, or a lesson on an error nothing got past.
func (c *Candidate) retext() {
	switch {
	case c.Kind == KindKnown:
		c.knownText()
	case c.Kind == KindPath:
		if c.Fixed == "" {
			c.pathText()
		}
		c.pathAfterError()
	case c.Kind == KindError && c.Fixed == "":
		c.errorText(c.Family, "", false)
	}
}

// keyed reports whether a candidate is one per project, family and
// class, its id saying which (a known failure, a lesson on an error):
// never folded into another, nor another into it.
func (c *Candidate) keyed() bool {
	return c.Kind == KindKnown || c.Kind == KindError || c.Kind == KindPath
}

// onError fills a lesson on an error from its finding: its triggers on
// the error, its text and how specific its fix is. ok is false when the
// error has too little stable text for a trigger.
func (c *Candidate) onError(f finding) bool {
	_, class, _ := strings.Cut(f.Change, " | ")
	if f.Sandboxed && f.ErrLine == "" && c.Tool == "Bash" {
		return c.onSilentSandbox(familyOf(f.Change))
	}
	t, ex, ok := errorTrigger(c.Tool, c.Trigger, Redact(f.ErrLine), class, familyOf(f.Change), f.Passed)
	if !ok {
		return false
	}
	if f.Sandboxed && c.Tool == "Bash" {
		t = sandboxTrigger(t) // the sandbox's refusal: any shell command meets it
	}
	c.Triggers, c.Examples = t, ex
	for _, t := range f.Tried {
		c.Tried = append(c.Tried, Redact(t))
	}
	if in := Redact(f.Instead); in != "" && !oneOff(in, c.Problem) && !freeText(in) {
		c.Instead = in // a way that worked, unless it is one task's (its files, one machine's paths)
	}
	if f.Reading != "" {
		c.Reading = Redact(f.Reading)
	}
	c.Skipped = Redact(f.Skipped)
	fix := c.Solution
	if lessons.AgentRefusal(class) {
		// a way around the agent's permission settings (the same work by
		// another command) is no fix a lesson may teach: ask the user
		fix, c.Fixed, c.Instead, c.Tried, c.Signals.FixConfirmed = "", "", "", nil, false
	}
	c.Family = errorUnit(c.Tool, familyOf(f.Change))
	// a path, an id, a message or a script of one task; a setting of the
	// shell tool (the sandbox's, the background) is the agent's, whatever
	// its name
	c.Signals.OneOff = !f.Sandboxed && !f.Setting && fix != "" && (oneOff(askedValues(fix, c.Problem), c.Problem) || freeText(fix))
	c.Signals.Sandboxed = f.Sandboxed
	c.errorText(c.Family, fix, f.Sandboxed)
	return true
}

// beforePassed is line up to the first word of passed it quotes, when
// two words or more come before it and the cut falls outside quotes:
// "No matches found for ### Glassware — 12 items" is "No matches found
// for" when the call was given the heading.
func beforePassed(line string, passed map[string]bool) string {
	if len(passed) == 0 {
		return line
	}
	fields := strings.Fields(line)
	for i, f := range fields {
		if !passed[strings.Trim(f, "()[]{}<>,;:!?.\"'`")] {
			continue
		}
		head := strings.Join(fields[:i], " ")
		if i >= 2 && strings.Count(head, `"`)%2 == 0 && strings.Count(head, "'")%2 == 0 {
			return head
		}
		break
	}
	return line
}

// passedSet is Call.Passed's words as a set, nil for none.
func passedSet(passed string) map[string]bool {
	if passed == "" {
		return nil
	}
	set := map[string]bool{}
	for _, w := range strings.Split(passed, "\n") {
		set[w] = true
	}
	return set
}
