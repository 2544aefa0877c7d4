package engine

import (
	"math"
	"sort"
	"strings"
	"sync"

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

// tokenize lower-cases text and splits it into words of two or more
// letters or digits, leaving out common English words.
func tokenize(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
	out := words[:0]
	for _, w := range words {
		if len(w) >= 2 && !stopwords()[w] {
			out = append(out, w)
		}
	}
	return out
}

// stopwords is built on first use: PreToolUse calls never need it.
var stopwords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by can do does for from has have how i if in
		into is it its me my no not of on or so that the their then there this to too up use was we were what
		when where which while why will with you your should would could please just also it's don't`) {
		m[w] = true
	}
	return m
})

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

// Relevant scores every lesson against a prompt with BM25 and returns the
// best k at or above min, best first. A lesson must also share two
// distinct terms with the prompt, unless the prompt has only one: a single
// common word such as "fix" or "slow" says nothing about relevance.
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
	scores := map[int]float64{}
	shared := map[int]int{} // distinct prompt terms each lesson has
	seen := map[string]bool{}
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
			scores[doc] += float64(t.f32())
			shared[doc]++
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
	for i, s := range scores {
		if s >= min && shared[i] >= need {
			out = append(out, Scored{i, s})
		}
	}
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
