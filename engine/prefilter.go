package engine

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// A prefilter holds literals that any match of a pattern must contain:
// every clause must have one of its strings in the subject. When fold is
// set the literals are lower case and are looked for in the lower-cased
// subject. A pattern without one must always be run.
//
// This is google/codesearch's idea (index/regexp.go) cut down to what a
// single tool call needs: strings.Contains before the regex engine.
type prefilter struct {
	fold    bool
	clauses [][]string
}

// Limits on the literal sets the extraction keeps, so a pattern like
// [a-z]{3} does not expand into thousands of strings.
const (
	maxExactSet  = 16
	maxAltSet    = 32
	maxClauses   = 4
	maxClassSize = 4
)

// extractPrefilter returns the literals any match of the ECMAScript
// pattern src must contain, or false when it cannot say.
//
// It parses the pattern with regexp/syntax after removing lookaround
// groups: lookarounds match no text, so the rest of the pattern is still
// required. Escapes that RE2 reads differently from ECMAScript make it
// give up rather than guess.
func extractPrefilter(src string) (prefilter, bool) {
	stripped, ok := stripLookaround(src)
	if !ok {
		return prefilter{}, false
	}
	re, err := syntax.Parse(stripped, syntax.Perl)
	if err != nil {
		return prefilter{}, false
	}
	var fold bool
	in := analyze(re.Simplify(), &fold)
	clauses := in.clauses
	if in.exact != nil {
		clauses = addClause(clauses, in.exact)
	}
	if len(clauses) == 0 {
		return prefilter{}, false
	}
	// Keep the most selective clauses: the ones whose shortest literal
	// is longest.
	slices.SortStableFunc(clauses, func(a, b []string) int { return minLen(b) - minLen(a) })
	if len(clauses) > maxClauses {
		clauses = clauses[:maxClauses]
	}
	if fold {
		for _, c := range clauses {
			for i := range c {
				c[i] = strings.ToLower(c[i])
			}
		}
	}
	return prefilter{fold: fold, clauses: clauses}, true
}

// info is what analysis knows of a node: exact, when not nil, is every
// string the node can match; clauses are what any match must contain.
type info struct {
	exact   []string
	clauses [][]string
}

var emptyExact = []string{""}

func analyze(re *syntax.Regexp, fold *bool) info {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			*fold = true
		}
		return info{exact: []string{string(re.Rune)}}
	case syntax.OpCharClass:
		return info{exact: classStrings(re.Rune)}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return info{exact: emptyExact}
	case syntax.OpCapture:
		return analyze(re.Sub[0], fold)
	case syntax.OpQuest:
		sub := analyze(re.Sub[0], fold)
		if sub.exact != nil && len(sub.exact) < maxExactSet {
			return info{exact: union(emptyExact, sub.exact)}
		}
		return info{}
	case syntax.OpPlus:
		return required(analyze(re.Sub[0], fold))
	case syntax.OpRepeat:
		if re.Min == 0 {
			return info{}
		}
		return required(analyze(re.Sub[0], fold))
	case syntax.OpConcat:
		return concat(re.Sub, fold)
	case syntax.OpAlternate:
		return alternate(re.Sub, fold)
	}
	return info{} // any character, star: nothing is required
}

// required turns what one repetition of a node needs into clauses.
func required(in info) info {
	if in.exact != nil {
		in.clauses = addClause(in.clauses, in.exact)
	}
	return info{clauses: in.clauses}
}

func concat(subs []*syntax.Regexp, fold *bool) info {
	var out info
	run, whole := emptyExact, true
	for _, sub := range subs {
		in := analyze(sub, fold)
		out.clauses = append(out.clauses, in.clauses...)
		switch {
		case in.exact == nil:
			out.clauses = addClause(out.clauses, run)
			run, whole = emptyExact, false
		case len(run)*len(in.exact) <= maxExactSet:
			run = product(run, in.exact)
		default:
			out.clauses = addClause(out.clauses, run)
			run, whole = in.exact, false
		}
	}
	if whole {
		out.exact = run
	} else {
		out.clauses = addClause(out.clauses, run)
	}
	return out
}

func alternate(subs []*syntax.Regexp, fold *bool) info {
	ins := make([]info, len(subs))
	exact := true
	var all []string
	for i, sub := range subs {
		ins[i] = analyze(sub, fold)
		if ins[i].exact == nil {
			exact = false
		} else {
			all = union(all, ins[i].exact)
		}
	}
	if exact && len(all) <= maxExactSet {
		return info{exact: all}
	}
	// Any match matches one branch, so it holds one of the branches'
	// best clauses.
	var any []string
	for _, in := range ins {
		best := bestClause(in)
		if best == nil {
			return info{}
		}
		any = union(any, best)
	}
	if len(any) > maxAltSet {
		return info{}
	}
	return info{clauses: [][]string{any}}
}

func bestClause(in info) []string {
	var best []string
	if in.exact != nil && !slices.Contains(in.exact, "") {
		best = in.exact
	}
	for _, c := range in.clauses {
		if best == nil || minLen(c) > minLen(best) {
			best = c
		}
	}
	return best
}

// addClause adds set as a clause unless it holds the empty string, which
// every subject contains.
func addClause(clauses [][]string, set []string) [][]string {
	if len(set) == 0 || slices.Contains(set, "") {
		return clauses
	}
	return append(clauses, set)
}

func product(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return union(nil, out)
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// classStrings lists a small character class's characters, or nil.
func classStrings(ranges []rune) []string {
	var out []string
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i+1]-ranges[i] >= maxClassSize {
			return nil
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			out = append(out, string(r))
			if len(out) > maxClassSize {
				return nil
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func minLen(set []string) int {
	m := -1
	for _, s := range set {
		if n := utf8.RuneCountInString(s); m < 0 || n < m {
			m = n
		}
	}
	return m
}

// stripLookaround removes (?=…), (?!…), (?<=…) and (?<!…) groups from an
// ECMAScript pattern, and turns a backreference \1–\9 outside a class
// into [\s\S]*: text nothing here knows, which keeps what the rest of
// the pattern requires. It reports false for escapes that RE2 would read
// with another meaning: \1–\9 in a class (octal in RE2), \a, \Q and
// \x{…}.
func stripLookaround(src string) (string, bool) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\':
			if i+1 >= len(src) {
				return "", false
			}
			n := src[i+1]
			if n >= '1' && n <= '9' && !inClass {
				b.WriteString(`[\s\S]*`)
				i++
				continue
			}
			if n >= '1' && n <= '9' || n == 'a' || n == 'Q' || n == 'x' && i+2 < len(src) && src[i+2] == '{' {
				return "", false
			}
			b.WriteByte(c)
			b.WriteByte(n)
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
			b.WriteByte(c)
		case c == '[':
			inClass = true
			b.WriteByte(c)
		case c == '(' && isLookaround(src[i:]):
			end := groupEnd(src, i)
			if end < 0 {
				return "", false
			}
			i = end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

func isLookaround(s string) bool {
	for _, p := range []string{"(?=", "(?!", "(?<=", "(?<!"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// groupEnd is the index of the parenthesis closing the group opened at
// start, or -1.
func groupEnd(src string, start int) int {
	depth, inClass := 0, false
	for i := start; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
