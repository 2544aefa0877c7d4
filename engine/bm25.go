package engine

import (
	"math"
	"slices"
	"sort"
	"strings"

	lessons "github.com/lessons-dev/lessons"
)

// BM25 parameters: the usual ones.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// document is what a prompt can find a lesson by.
type document struct {
	// terms are its keywords (counted twice: someone chose them), its
	// summary and the values of its tags.
	terms []string
	// anchors are the terms of its keywords and tags, which name what the
	// lesson is about; a summary says more, in words that also name other
	// things ("real" in "world-writable … rarely fixes the real problem").
	// A lesson without keywords anchors on all its terms.
	anchors map[string]bool
}

func documentOf(l *lessons.Lesson) document {
	d := document{anchors: map[string]bool{}}
	for _, k := range l.Triggers.Keywords {
		t := tokenize(k)
		d.terms = append(d.terms, t...)
		d.terms = append(d.terms, t...)
	}
	summary := tokenize(l.Summary)
	d.terms = append(d.terms, summary...)
	for _, tag := range l.Tags {
		_, v, _ := strings.Cut(tag, ":")
		d.terms = append(d.terms, tokenize(v)...)
	}
	for _, t := range d.terms {
		d.anchors[t] = true
	}
	if len(l.Triggers.Keywords) > 0 {
		for _, t := range summary {
			d.anchors[t] = false
		}
		for _, k := range l.Triggers.Keywords {
			for _, t := range tokenize(k) {
				d.anchors[t] = true
			}
		}
		for _, tag := range l.Tags {
			_, v, _ := strings.Cut(tag, ":")
			for _, t := range tokenize(v) {
				d.anchors[t] = true
			}
		}
	}
	return d
}

// encodeTerms writes the postings: the term count, a table of u32 term
// offsets relative to the table's start (for binary search), then per
// term its text and (lesson index delta × 2 + 1 if the term anchors the
// lesson, weight) pairs. The weight is the term's whole BM25
// contribution, so a query only adds numbers.
func encodeTerms(e *encoder, docs []document) {
	type posting struct {
		doc    int
		tf     int
		anchor bool
	}
	postings := map[string][]posting{}
	total, counted := 0, 0
	for i, doc := range docs {
		if len(doc.terms) > 0 { // a lesson on an error has none: no prompt reads it
			counted++
		}
		total += len(doc.terms)
		tf := map[string]int{}
		for _, t := range doc.terms {
			tf[t]++
		}
		for t, n := range tf {
			postings[t] = append(postings[t], posting{i, n, doc.anchors[t]})
		}
	}
	avgdl := 1.0
	if counted > 0 && total > 0 {
		avgdl = float64(total) / float64(counted)
	}
	terms := make([]string, 0, len(postings))
	for t := range postings {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	e.int(len(terms))
	tableAt := len(e.b)
	e.b = append(e.b, make([]byte, 4*len(terms))...)
	n := float64(counted)
	for i, t := range terms {
		e.putU32(tableAt+4*i, uint32(len(e.b)-tableAt))
		ps := postings[t]
		sort.Slice(ps, func(a, b int) bool { return ps[a].doc < ps[b].doc })
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		e.str(t)
		e.int(len(ps))
		prev := 0
		for _, p := range ps {
			dl := float64(len(docs[p.doc].terms))
			tf := float64(p.tf)
			w := idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dl/avgdl))
			delta := 2 * (p.doc - prev)
			if p.anchor {
				delta++
			}
			e.int(delta)
			e.f32(float32(w))
			prev = p.doc
		}
	}
}

// Scored is a lesson index with its relevance to a prompt.
type Scored struct {
	Index int
	Score float64
}

// A term in more than one lesson in commonShare counts as weak too, in
// a manifest of commonMinLessons or more: "git" says little among fifteen
// git lessons, while "stash" or "rebase" tells one from the others.
const (
	commonShare      = 8
	commonMinLessons = 24
)

// relevanceFloor is the share of the best lesson's score another lesson
// needs to come up with it: the pytest-asyncio lesson, which shares
// "pytest" and "test" with "pytest hangs when I run the tests", gives way
// to the one about pytest hanging. A prompt about two things loses the
// weaker thing's lesson too (the labelled set keeps such a case): sparing
// lessons for another part of the prompt brought more noise on real
// prompts than it saved.
const relevanceFloor = 0.6

// Relevant scores every lesson against the user's words in a prompt (see
// userWords) with BM25, scaled by the share of the prompt's terms each
// lesson has, and returns the best k at or above min (unscaled) and at or
// above relevanceFloor of the best, best first. A lesson must share two distinct terms with the prompt (one when
// the prompt has only one), and at least one of them must anchor it (a
// word of its keywords or tags) and be neither a weak term nor common
// among the lessons: a word such as "test", "fix" or, among many git
// lessons, "git" says nothing about relevance on its own.
func (m *Manifest) Relevant(prompt string, min float64, k int) ([]Scored, error) {
	d := decoder{b: m.data, off: m.sec[secTerms]}
	n := d.count()
	tableAt := d.off
	if d.err != nil || tableAt+4*n > len(m.data) {
		return nil, errCorrupt
	}
	termAt := func(i int) *decoder {
		at := decoder{b: m.data, off: tableAt + 4*i}
		return &decoder{b: m.data, off: tableAt + int(at.u32())}
	}
	type match struct {
		score          float64
		shared, strong int // distinct prompt terms the lesson has, and of them anchors neither weak nor common
	}
	matches := map[int]*match{}
	seen := map[string]bool{}
	weak := weakTerms()
	for _, q := range tokenize(userWords(prompt)) {
		if seen[q] {
			continue
		}
		seen[q] = true
		i := sort.Search(n, func(i int) bool { return string(termAt(i).raw()) >= q })
		if i == n {
			continue
		}
		t := termAt(i)
		if string(t.raw()) != q {
			continue
		}
		docs := t.count()
		common := weak[q] || m.count >= commonMinLessons && docs*commonShare > m.count
		doc := 0
		for c := docs; c > 0 && t.err == nil; c-- {
			delta := int(t.uvarint())
			doc += delta >> 1
			anchor := delta&1 == 1
			mt := matches[doc]
			if mt == nil {
				mt = &match{}
				matches[doc] = mt
			}
			mt.score += float64(t.f32())
			mt.shared++
			if anchor && !common {
				mt.strong++
			}
		}
		if t.err != nil {
			return nil, t.err
		}
	}
	var out []Scored
	need := 2
	if len(seen) < need {
		need = len(seen)
	}
	best := 0.0
	for i, mt := range matches {
		if mt.score >= min && mt.shared >= need && mt.strong > 0 {
			s := mt.score * float64(mt.shared) / float64(len(seen))
			out = append(out, Scored{i, s})
			best = max(best, s)
		}
	}
	out = slices.DeleteFunc(out, func(s Scored) bool { return s.Score < relevanceFloor*best })
	sort.Slice(out, func(a, b int) bool {
		if out[a].Score != out[b].Score {
			return out[a].Score > out[b].Score
		}
		return out[a].Index < out[b].Index
	})
	if len(out) > k {
		out = out[:k]
	}
	return out, nil
}
