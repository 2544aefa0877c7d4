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

// documentTerms are the words a prompt can find a lesson by: its
// keywords (counted twice: someone chose them), its summary and the
// values of its tags.
func documentTerms(l *lessons.Lesson) []string {
	var terms []string
	for _, k := range l.Triggers.Keywords {
		t := tokenize(k)
		terms = append(terms, t...)
		terms = append(terms, t...)
	}
	terms = append(terms, tokenize(l.Summary)...)
	for _, tag := range l.Tags {
		_, v, _ := strings.Cut(tag, ":")
		terms = append(terms, tokenize(v)...)
	}
	return terms
}

// encodeTerms writes the postings: the term count, a table of u32 term
// offsets relative to the table's start (for binary search), then per
// term its text and (lesson index delta, weight) pairs. The weight is the
// term's whole BM25 contribution, so a query only adds numbers.
func encodeTerms(e *encoder, docs [][]string) {
	type posting struct {
		doc int
		tf  int
	}
	postings := map[string][]posting{}
	total := 0
	for i, doc := range docs {
		total += len(doc)
		tf := map[string]int{}
		for _, t := range doc {
			tf[t]++
		}
		for t, n := range tf {
			postings[t] = append(postings[t], posting{i, n})
		}
	}
	avgdl := 1.0
	if len(docs) > 0 && total > 0 {
		avgdl = float64(total) / float64(len(docs))
	}
	terms := make([]string, 0, len(postings))
	for t := range postings {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	e.int(len(terms))
	tableAt := len(e.b)
	e.b = append(e.b, make([]byte, 4*len(terms))...)
	n := float64(len(docs))
	for i, t := range terms {
		e.putU32(tableAt+4*i, uint32(len(e.b)-tableAt))
		ps := postings[t]
		sort.Slice(ps, func(a, b int) bool { return ps[a].doc < ps[b].doc })
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		e.str(t)
		e.int(len(ps))
		prev := 0
		for _, p := range ps {
			dl := float64(len(docs[p.doc]))
			tf := float64(p.tf)
			w := idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dl/avgdl))
			e.int(p.doc - prev)
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

// relevanceFloor is the share of the best lesson's score another lesson
// needs to come up with it: a lesson that shares one word with the prompt
// rides along with one that shares three.
const relevanceFloor = 0.5

// Relevant scores every lesson against a prompt with BM25 and returns the
// best k at or above min and at or above relevanceFloor of the best, best
// first. A lesson must share two distinct terms with the prompt (one when
// the prompt has only one), and at least one of them must not be a weak
// term: a common word such as "test" or "fix" says nothing about
// relevance on its own.
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
		shared, strong int // distinct prompt terms the lesson has, and of them not weak
	}
	matches := map[int]*match{}
	seen := map[string]bool{}
	weak := weakTerms()
	for _, q := range tokenize(prompt) {
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
		doc := 0
		for c := t.count(); c > 0 && t.err == nil; c-- {
			doc += int(t.uvarint())
			mt := matches[doc]
			if mt == nil {
				mt = &match{}
				matches[doc] = mt
			}
			mt.score += float64(t.f32())
			mt.shared++
			if !weak[q] {
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
