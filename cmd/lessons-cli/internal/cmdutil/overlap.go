package cmdutil

import (
	"slices"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
)

// SameMistake reports whether two lessons fire on the same calls: each
// one's trigger fires on a call the other gives as an example of its
// mistake. It returns the example of b that a's trigger fires on. Two such
// lessons inject together at every call; they are the same mistake only
// when they also say the same thing (SaysSame).
func SameMistake(a, b *lessons.Lesson) (example string, ok bool) {
	if len(a.Examples.Match) == 0 || len(b.Examples.Match) == 0 || !shareTool(a, b) {
		return "", false
	}
	ex, ok := firesOnAny(a, b.Examples.Match)
	if !ok {
		return "", false
	}
	if _, ok := firesOnAny(b, a.Examples.Match); !ok {
		return "", false
	}
	return ex, true
}

func shareTool(a, b *lessons.Lesson) bool {
	tb := b.Triggers.ImpliedTools()
	return slices.ContainsFunc(a.Triggers.ImpliedTools(), func(t string) bool { return slices.Contains(tb, t) })
}

// firesOnAny returns the first of calls l's trigger fires on.
func firesOnAny(l *lessons.Lesson, calls []lessons.ToolCall) (string, bool) {
	for _, c := range calls {
		if ok, err := engine.MatchLesson(l, c); err == nil && ok {
			return c.Command + c.Path, true
		}
	}
	return "", false
}

// SaysSameThreshold is the TextOverlap from which two lessons that fire on
// the same calls say the same thing. It sits between what pairs about one
// command that teach different things share (at most 0.36 among the
// built-in lessons whose triggers overlap, and for a project lesson
// "terraform apply here must target one module at a time" against the
// built-in about applying without a reviewed plan) and what a candidate
// that restated the built-in jest lesson in its own words shares with it
// (0.53): set on those few pairs, see TestSaysSame.
const SaysSameThreshold = 0.45

// TextOverlap is the share of the distinct content terms of the lesson
// with fewer of them that the other lesson has too; a lesson's terms are
// the stemmed words of its summary, problem and solution, stopwords left
// out (engine.Terms). 1 when one lesson's terms are all in the other's,
// 0 when they share none or either has none.
func TextOverlap(a, b *lessons.Lesson) float64 {
	ta, tb := terms(a), terms(b)
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	common := 0
	for w := range ta {
		if tb[w] {
			common++
		}
	}
	return float64(common) / float64(min(len(ta), len(tb)))
}

// SaysSame reports whether two lessons' texts say the same thing.
func SaysSame(a, b *lessons.Lesson) bool { return TextOverlap(a, b) >= SaysSameThreshold }

func terms(l *lessons.Lesson) map[string]bool {
	set := map[string]bool{}
	for _, t := range engine.Terms(l.Summary + "\n" + l.Problem + "\n" + l.Solution) {
		set[t] = true
	}
	return set
}
