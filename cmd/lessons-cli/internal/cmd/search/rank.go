package search

import (
	"cmp"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons/scope"
)

// Field weights: a word in the summary says more than one in the solution.
var weights = []struct {
	weight float64
	text   func(r *scope.Resolved) string
}{
	{4, func(r *scope.Resolved) string { return r.Summary + " " + r.Slug }},
	{3, func(r *scope.Resolved) string { return strings.Join(r.Tags, " ") }},
	{2, func(r *scope.Resolved) string { return r.Problem }},
	{2, func(r *scope.Resolved) string { return r.Solution }},
}

// Hit is a lesson that matches a query, with its score.
type Hit struct {
	scope.Resolved
	Score float64
}

// Rank scores each lesson against the words of query and returns those
// that contain every word, best first. A word counts fully when a word of
// the lesson equals it and half when one starts with it; each field counts
// once per query word, weighted by the field.
func Rank(rs []scope.Resolved, query string) []Hit {
	terms := tokens(query)
	if len(terms) == 0 {
		return nil
	}
	var hits []Hit
	for i := range rs {
		if s := score(&rs[i], terms); s > 0 {
			hits = append(hits, Hit{Resolved: rs[i], Score: s})
		}
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Slug, b.Slug))
	})
	return hits
}

func score(r *scope.Resolved, terms []string) float64 {
	fields := make([][]string, len(weights))
	for i, w := range weights {
		fields[i] = tokens(w.text(r))
	}
	total := 0.0
	for _, term := range terms {
		t := 0.0
		for i, words := range fields {
			t += weights[i].weight * matchWord(words, term)
		}
		if t == 0 {
			return 0
		}
		total += t
	}
	return total
}

func matchWord(words []string, term string) float64 {
	m := 0.0
	for _, w := range words {
		switch {
		case w == term:
			return 1
		case strings.HasPrefix(w, term):
			m = 0.5
		}
	}
	return m
}

// tokens splits text into lower-case words of letters and digits; tags
// such as "lang:python" give "lang" and "python".
func tokens(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
}
