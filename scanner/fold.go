package scanner

import (
	"cmp"
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons"
)

// One failure, two keys. The scanner may learn one failure twice, under
// keys that differ: as a lesson on its error in one session and as a known
// failure in another (the error keyed by the failed command's family,
// `go build`, the known failure by the missing program, `go`), or as a
// precondition fix in one session and a lesson on its error in another,
// or under two subcommands of one program, when a chain's failure was
// put down to one stage in one session and to another in the next.
// A team adds one lesson for a failure, so the better supported of the
// two is listed, and the other is folded into it: it adds its evidence
// and leaves the review list.

// StatusFolded marks a candidate folded into another that is the same
// failure (foldKinds); it is never listed for review.
const StatusFolded Status = "folded"

// failureKind reports whether c is a lesson at a failure that may have a
// twin of another kind: a lesson on an error, a known failure or a
// precondition fix, with triggers on the error.
func failureKind(c *Candidate) bool {
	return (c.Kind == KindError || c.Kind == KindKnown || c.Kind == KindPrecondition) && len(c.Triggers.Errors) > 0
}

// failureKey groups the candidates foldKinds compares: tool and error
// triggers; "" for one of another kind.
func failureKey(c *Candidate) string {
	if !failureKind(c) {
		return ""
	}
	return c.Tool + "\x00" + strings.Join(c.Triggers.Errors, "\x00")
}

// sameFailure reports whether a and b are one failure: the same tool
// and the same error triggers, and either they are of two kinds, one's
// trigger fires on the other's failing example, and for a file tool both
// are about the same file or both about the tool (a missing file is not
// the tool's error); or they are shell commands of one program in one
// project (oneProgram); or they are of one kind with the same triggers
// in a project in common, learned under two keys (a web tool's known
// failure on two hosts whose error trigger takes any host): the hook
// would say both at one failure.
func sameFailure(a, b *Candidate) bool {
	if a.Tool != b.Tool || !slices.Equal(a.Triggers.Errors, b.Triggers.Errors) {
		return false
	}
	if oneProgram(a, b) || a.Kind == b.Kind && reflect.DeepEqual(a.Triggers, b.Triggers) && shareProject(a, b) {
		return true
	}
	if a.Kind == b.Kind || a.Tool != "Bash" && exampleFile(a) != exampleFile(b) {
		return false
	}
	return firesOn(ToLesson(*a), b.Examples.Match) || firesOn(ToLesson(*b), a.Examples.Match)
}

// oneProgram reports whether two shell candidates with the same error
// triggers are one failure learned under two stages of a chain: their
// failing examples run the same program (`git push` and `git status`,
// read from `git pull && git push && git status`), and they were seen in
// one project. One error of one program in one project is one lesson,
// whichever of its subcommands a chain's failure was put down to.
func oneProgram(a, b *Candidate) bool {
	if a.Tool != "Bash" || len(a.Examples.Match) == 0 || len(b.Examples.Match) == 0 || !shareProject(a, b) {
		return false
	}
	ea, eb := a.Examples.Match[0], b.Examples.Match[0]
	pa := lessons.FailedFamily(ea.Command, ea.Error).Exe
	return pa != "" && pa == lessons.FailedFamily(eb.Command, eb.Error).Exe
}

// shareProject reports whether a and b were seen in a project in common.
func shareProject(a, b *Candidate) bool {
	return slices.ContainsFunc(a.Projects, func(p string) bool { return slices.Contains(b.Projects, p) })
}

// exampleFile is the file name a file tool's candidate is about, "" for
// one about the tool: its trigger names no file.
func exampleFile(c *Candidate) string {
	if len(c.Triggers.Paths) == 0 || len(c.Examples.Match) == 0 {
		return ""
	}
	return path.Base(c.Examples.Match[0].Path)
}

// supportOrder orders the candidates of one failure best first: one
// that is not capped (a capped one is never said: a one-off fix waits
// for a second session), then one that found a fix over a known failure
// it refutes, then the higher confidence (it counts sessions, and a fix of one task's words
// lowers it), then a fix that worked, then more sessions; then a
// lesson with a fix by kind (a lesson on the error says what got past it,
// a precondition what came before the call), one without a fix by kind
// the other way (a known failure says what not to do, a lesson on the
// error nothing got past only that it failed); then the id.
func supportOrder(a, b *Candidate) int {
	fixed := func(c *Candidate) bool { return c.Signals.FixConfirmed || c.Fixed != "" }
	rank := func(c *Candidate) int {
		kinds := []string{KindError, KindPrecondition, KindKnown}
		if !fixed(c) {
			kinds = []string{KindKnown, KindPrecondition, KindError}
		}
		return slices.Index(kinds, c.Kind)
	}
	bi := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	return cmp.Or(
		cmp.Compare(bi(a.capped()), bi(b.capped())),
		cmp.Compare(bi(refuted(a, b)), bi(refuted(b, a))),
		cmp.Compare(b.Confidence, a.Confidence),
		cmp.Compare(bi(fixed(b)), bi(fixed(a))),
		cmp.Compare(len(b.Sessions), len(a.Sessions)),
		cmp.Compare(rank(a), rank(b)),
		strings.Compare(a.ID, b.ID),
	)
}

// refuted reports whether known failure k is refuted by c, a reading of
// the same failure that found a fix: it did not fail whatever was done.
func refuted(k, c *Candidate) bool {
	return k.Kind == KindKnown && c.Kind != KindKnown && c.Fixed != ""
}

// foldKinds folds, among cs, each failure learned under two keys
// (sameFailure) into the better supported candidate: that one is new and gains the others'
// evidence, the others are folded. Only new and folded candidates take
// part (a person's verdict stands). It returns the candidates it changed.
func foldKinds(cs []*Candidate) []*Candidate {
	var open []*Candidate
	for _, c := range cs {
		if (c.Status == StatusNew || c.Status == StatusFolded) && failureKind(c) {
			open = append(open, c)
		}
	}
	if len(open) < 2 {
		return nil
	}
	// the same error triggers first: few candidates share them
	var changed []*Candidate
	for _, group := range groupBy(open, failureKey) {
		if len(group) < 2 {
			continue
		}
		slices.SortFunc(group, supportOrder)
		done := make([]bool, len(group))
		for i, best := range group {
			if done[i] {
				continue
			}
			// a twin's evidence may make another one of the same failure
			// (a project it adds), so look again until none joins
			var twins []*Candidate
			grew := false
			for joined := true; joined; {
				joined = false
				for j := i + 1; j < len(group); j++ {
					if done[j] || !sameFailure(best, group[j]) {
						continue
					}
					done[j], joined = true, true
					t := group[j]
					twins = append(twins, t)
					for _, p := range t.Provenance {
						grew = best.add(p) || grew
					}
				}
			}
			if best.Status == StatusFolded && len(twins) == 0 {
				continue // its twin is folded into a better one
			}
			grew = grew || best.Status != StatusNew
			best.Status = StatusNew
			for _, t := range twins {
				if t.Status != StatusFolded {
					t.Status = StatusFolded
					changed = append(changed, t)
				}
			}
			if grew {
				changed = append(changed, best)
			}
		}
	}
	return changed
}

// foldFolders folds, among cs, a lesson on a wrong path into the lesson
// on the wrong folder it lies under (wrongFolder): the file was guessed
// under a folder that is not there, and where the one file was instead
// (often another file of the same name) says less than where the folder
// is. It returns the candidates it changed.
func foldFolders(cs []*Candidate) []*Candidate {
	var folders []*Candidate
	for _, c := range cs {
		if c.Kind == KindPath && c.Status == StatusNew && c.onFolder() {
			folders = append(folders, c)
		}
	}
	if len(folders) == 0 {
		return nil
	}
	var changed []*Candidate
	for _, c := range cs {
		if c.Kind != KindPath || c.Status != StatusNew || c.onFolder() {
			continue
		}
		for _, f := range folders {
			if !firesOn(ToLesson(*f), c.Examples.Match) {
				continue
			}
			grew := false
			for _, p := range c.Provenance {
				grew = f.add(p) || grew
			}
			c.Status = StatusFolded
			changed = append(changed, c)
			if grew && !slices.Contains(changed, f) {
				changed = append(changed, f)
			}
			break
		}
	}
	return changed
}

// foldShifts folds, among cs, the lessons on wrong folders that are one
// mistake made again on folder after folder: each was guessed the same
// level off (App/Data read for App/App/Data, then App/Domain for
// App/App/Domain), the same parent on both sides and the folder of the
// same name. The lesson the team is asked about says every such folder
// and fires on each (its paths); it returns the candidates it changed.
func foldShifts(cs []*Candidate) []*Candidate {
	var changed []*Candidate
	for _, g := range groupBy(cs, shiftKey) {
		if len(g) < 2 {
			continue
		}
		into := slices.MaxFunc(g, func(a, b *Candidate) int {
			return cmp.Or(cmp.Compare(len(a.Triggers.Paths), len(b.Triggers.Paths)), cmp.Compare(len(a.Sessions), len(b.Sessions)))
		})
		for _, c := range g {
			if c == into {
				continue
			}
			for _, p := range c.Triggers.Paths {
				if !slices.Contains(into.Triggers.Paths, p) {
					into.Triggers.Paths = append(into.Triggers.Paths, p)
				}
			}
			into.Examples.Match = append(into.Examples.Match, c.Examples.Match...)
			for _, p := range c.Provenance {
				into.add(p)
			}
			c.Status = StatusFolded
			changed = append(changed, c)
		}
		into.pathText()
		changed = append(changed, into)
	}
	return changed
}

// shiftKey is what groups the lessons on wrong folders guessed the same
// level off (foldShifts): the project, the parent of the wrong folder and
// that of the right one; "" for any other lesson.
func shiftKey(c *Candidate) string {
	if c.Kind != KindPath || c.Status != StatusNew || !c.onFolder() || c.Fixed == "" {
		return ""
	}
	wrong, right := strings.TrimSuffix(c.Family, "/"), strings.TrimSuffix(c.Fixed, "/")
	if path.Base(wrong) != path.Base(right) {
		return ""
	}
	return strings.Join(c.Projects, "\x00") + "\x00" + path.Dir(wrong) + "\x00" + path.Dir(right)
}

// groupBy groups cs by key, in the order each key is first met; a
// candidate whose key is "" is left out.
func groupBy(cs []*Candidate, key func(*Candidate) string) [][]*Candidate {
	at := map[string]int{}
	var groups [][]*Candidate
	for _, c := range cs {
		k := key(c)
		if k == "" {
			continue
		}
		i, ok := at[k]
		if !ok {
			i = len(groups)
			at[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], c)
	}
	return groups
}

// foldWordings folds, among cs, a precondition fix learned under two
// wordings of its error into the better supported one: the same step
// before the same command in a project in common, after errors that
// differ in words a mask keeps ("in the above file", "in 2 files"). A
// precondition is one per step and error, so that the same step before
// another failure is another lesson; when the step and the command are
// the same, it is the same lesson, and the hook would say it twice. The
// kept one gains the others' evidence and their error triggers, so it
// comes after either wording. It returns the candidates it changed.
func foldWordings(cs []*Candidate) []*Candidate {
	var open []*Candidate
	for _, c := range cs {
		if stepKey(c) != "" && len(c.Triggers.Errors) > 0 && (c.Status == StatusNew || c.Status == StatusFolded) {
			open = append(open, c)
		}
	}
	var changed []*Candidate
	for _, group := range groupBy(open, stepKey) {
		if len(group) < 2 {
			continue
		}
		slices.SortFunc(group, supportOrder)
		best, grew := group[0], group[0].Status != StatusNew
		for _, t := range group[1:] {
			if !shareProject(best, t) {
				continue
			}
			for _, p := range t.Provenance {
				grew = best.add(p) || grew
			}
			added := false
			for _, e := range t.Triggers.Errors {
				if !slices.Contains(best.Triggers.Errors, e) {
					best.Triggers.Errors = append(best.Triggers.Errors, e)
					added = true
				}
			}
			if added && len(t.Examples.Match) > 0 {
				best.Examples.Match = append(best.Examples.Match, t.Examples.Match[0]) // its wording's example
			}
			grew = grew || added
			if t.Status != StatusFolded {
				t.Status = StatusFolded
				changed = append(changed, t)
			}
		}
		if grew {
			best.Status = StatusNew
			changed = append(changed, best)
		}
	}
	return changed
}

// stepKey groups the precondition fixes foldWordings compares: tool,
// step and command triggers; "" for a candidate of another kind.
func stepKey(c *Candidate) string {
	if c.Kind != KindPrecondition || c.Step == "" {
		return ""
	}
	return c.Tool + "\x00" + c.Step + "\x00" + strings.Join(c.Triggers.Commands, "\x00")
}
