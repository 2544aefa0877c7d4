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

// maxPhrase is the most words of a keyword that is also indexed as one
// phrase term ("dev server", "git add", "input device is not a tty" is
// not): a phrase the request names in order is the surest evidence.
const maxPhrase = 3

// document is what a prompt can find a lesson by.
type document struct {
	// terms are its keywords (counted twice: someone chose them), each
	// keyword of two or three words also as one phrase term (its stems
	// joined by a space), its summary and the values of its tags.
	terms []string
	// anchors are its keywords of one word (or of more words than a
	// phrase term holds) and the phrase terms of the others: what names
	// what the lesson is about; a summary says more, in words that also name other
	// things ("real" in "world-writable … rarely fixes the real problem").
	// A lesson without keywords anchors on all its terms.
	anchors map[string]bool
}

func documentOf(l *lessons.Lesson) document {
	d := document{anchors: map[string]bool{}}
	var phrases []string
	for _, k := range l.Triggers.Keywords {
		t := tokenize(k)
		d.terms = append(d.terms, t...)
		d.terms = append(d.terms, t...)
		if len(t) > 1 && len(t) <= maxPhrase {
			p := strings.Join(t, " ")
			phrases = append(phrases, p)
			d.terms = append(d.terms, p, p)
		}
	}
	summary := tokenize(l.Summary)
	d.terms = append(d.terms, summary...)
	for _, tag := range l.Tags {
		_, v, _ := strings.Cut(tag, ":")
		d.terms = append(d.terms, tokenize(v)...)
	}
	if len(l.Triggers.Keywords) == 0 {
		for _, t := range d.terms {
			d.anchors[t] = true
		}
		return d
	}
	for _, k := range l.Triggers.Keywords {
		// A word of a keyword of two or three words is not evidence
		// alone: "context" of "build context" names no subject; the
		// phrase does. Nor are the words of the summary and the tags:
		// they also name other things ("real" in "world-writable …
		// rarely fixes the real problem", "control" in
		// topic:version-control).
		if t := tokenize(k); len(t) == 1 || len(t) > maxPhrase {
			for _, w := range t {
				d.anchors[w] = true
			}
		}
	}
	for _, p := range phrases {
		d.anchors[p] = true
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

// relevanceFloor is the share of the best lesson's score a lesson with
// evidence of its own needs to come up beside it. A prompt about two
// things can lose the weaker thing's lesson (the labelled set keeps such
// a case): without the floor, lessons for a passing mention came along
// (labelled set: precision 0.91 instead of 1.00).
const relevanceFloor = 0.6

// Relevant scores every lesson against the request of a prompt (see
// requestText) with BM25, scaled by the share of the request's words
// each lesson has, and returns at most k lessons at or above minScore
// (unscaled), best first. A lesson must share two distinct terms with
// the request (one when the request has only one word) and have
// evidence (see enough): anchors (its keywords' words and phrases) that
// are neither weak terms nor common among the lessons, since a word such
// as "test", "fix" or, among many git lessons, "git" says nothing about
// relevance on its own. The best lesson comes alone unless another has
// evidence of its own, a subject of the request the evidence of the
// lessons before it does not name, and reaches relevanceFloor of the
// best score.
func (m *Manifest) Relevant(prompt string, minScore float64, k int) ([]Scored, error) {
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
		doc      int
		score    float64
		shared   int      // distinct request terms the lesson has
		evidence []string // of them, anchors neither weak nor common
	}
	// A lesson's match is ms[slot[doc]-1], 0 for none: a slice the
	// size of the manifest and one of matches, instead of a map and an
	// allocation for each of the hundreds of lessons a common term
	// brings.
	slot := make([]int32, m.count)
	var ms []match
	words := tokenize(requestText(prompt))
	seen := map[string]bool{}
	for _, q := range queryTerms(words) {
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
		common := isWeak(q) || m.count >= commonMinLessons && docs*commonShare > m.count
		doc := 0
		for c := docs; c > 0 && t.err == nil; c-- {
			delta := int(t.uvarint())
			doc += delta >> 1
			anchor := delta&1 == 1
			if doc < 0 || doc >= len(slot) {
				return nil, errCorrupt
			}
			if slot[doc] == 0 {
				ms = append(ms, match{doc: doc})
				slot[doc] = int32(len(ms))
			}
			mt := &ms[slot[doc]-1]
			mt.score += float64(t.f32())
			mt.shared++
			if anchor && !common {
				mt.evidence = append(mt.evidence, q)
			}
		}
		if t.err != nil {
			return nil, t.err
		}
	}
	distinct := map[string]bool{}
	for _, w := range words {
		distinct[w] = true
	}
	need := min(2, len(distinct))
	type candidate struct {
		Scored
		evidence []string
	}
	var cs []candidate
	best := 0.0
	for _, mt := range ms {
		if mt.score >= minScore && mt.shared >= need && enough(mt.evidence, len(distinct)) {
			s := mt.score * float64(mt.shared) / float64(max(len(distinct), 1))
			cs = append(cs, candidate{Scored{mt.doc, s}, mt.evidence})
			best = max(best, s)
		}
	}
	sort.Slice(cs, func(a, b int) bool {
		if cs[a].Score != cs[b].Score {
			return cs[a].Score > cs[b].Score
		}
		return cs[a].Index < cs[b].Index
	})
	var out []Scored
	named := map[string]bool{}
	for _, c := range cs {
		if len(out) == k || c.Score < relevanceFloor*best {
			break
		}
		if slices.ContainsFunc(c.evidence, func(e string) bool { return named[e] || overlaps(e, named) }) {
			continue
		}
		out = append(out, c.Scored)
		for _, e := range c.evidence {
			named[e] = true
		}
	}
	return out, nil
}

// shortRequest is the most distinct words a request may have for one
// one-word keyword to name its subject: in "pytest hangs in CI" the
// request is about pytest; in a paragraph that mentions a "feature" or a
// "prompt" in passing, the keyword is one word among many.
const shortRequest = 10

// enough reports whether a lesson's evidence names its subject: a phrase
// of its keywords, two of its one-word keywords ("django" and
// "migration"), or one in a short request.
func enough(evidence []string, words int) bool {
	if len(evidence) >= 2 || len(evidence) == 1 && words <= shortRequest {
		return true
	}
	return slices.ContainsFunc(evidence, func(e string) bool { return strings.Contains(e, " ") })
}

// queryTerms are a request's words and, for phrase keywords, each run of
// two and three of them joined by a space.
func queryTerms(words []string) []string {
	out := slices.Clone(words)
	for n := 2; n <= maxPhrase; n++ {
		for i := 0; i+n <= len(words); i++ {
			out = append(out, strings.Join(words[i:i+n], " "))
		}
	}
	return out
}

// overlaps reports whether a phrase shares a word with evidence already
// named: "dev server" names no new subject after "server" did.
func overlaps(e string, named map[string]bool) bool {
	for _, w := range strings.Fields(e) {
		if named[w] {
			return true
		}
	}
	return false
}
