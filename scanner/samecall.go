package scanner

import (
	"regexp"
	"strings"
)

// When two calls are the same call. A lesson that says "the same call
// worked when run again unchanged" or "the next call worked, with the
// same arguments" must be literally true, so the comparison covers all
// the agent sent: a shell command's words (but for what only shapes
// its output: 2>&1, a last | head), its settings and the directory it
// ran in; any other tool's whole input, digested (Call.Sum), since its
// Args keep only short scalar settings and leave out nested objects,
// the command, the written text and a freeform tool's input.

// sameCall reports whether b is a run of a again, unchanged.
func sameCall(a, b *Call) bool {
	if a.Path != b.Path || a.Args != b.Args || a.Dir != b.Dir {
		return false
	}
	if a.Tool != "Bash" {
		return a.Command == b.Command && a.Sum == b.Sum
	}
	return a.Command == b.Command || doing(a.Command) == doing(b.Command)
}

// doing is what a command does: its words and operators as the shell
// reads them, without redirections (2>&1, >out.log) and without the
// last stages of a pipeline that only show part of its output (| head,
// | tail -20, | sed -n '1,80p'). Quoted text stays, whatever it holds:
// an awk program with <= in it is the program, not a redirection.
func doing(cmd string) string {
	segs := shellStages(stripHeredocs(cmd))
	return stagesText(shownStages(segs))
}

// shownStages is a command line's stages but the last that only view its
// output.
func shownStages(segs []stage) []stage {
	for len(segs) > 1 && segs[len(segs)-1].op == "|" && viewer(segs[len(segs)-1].words) {
		segs = segs[:len(segs)-1]
	}
	return segs
}

// stagesText writes simple commands back as one line, with the
// operators between them.
func stagesText(segs []stage) string {
	var b strings.Builder
	for i, s := range segs {
		if i > 0 {
			b.WriteString(" " + s.op + " ")
		}
		b.WriteString(strings.Join(s.words, " "))
	}
	return b.String()
}

// viewer reports whether a pipeline stage only shows part of what comes
// in: head, tail, less, more, cat with no file, sed printing a range.
func viewer(words []string) bool {
	if len(words) == 0 {
		return false
	}
	switch words[0] {
	case "head", "tail", "less", "more":
		return true
	case "cat":
		return len(words) == 1
	case "sed":
		return len(words) == 3 && words[1] == "-n" && printRange.MatchString(words[2])
	}
	return false
}

// printRange is a sed script that prints a range of lines (1,80p).
var printRange = regexp.MustCompile(`^\d+(,\d+)?p$`)

// stage is a simple command of a command line and the operator before
// it ("" for the first).
type stage struct {
	op    string
	words []string
}

// redirection matches the start of an unquoted word that redirects:
// 2>&1, >out, >>log, &>all, <in, 2>.
var redirection = regexp.MustCompile(`^[0-9]*(&>>?|>>?&?|<<?&?)`)

// shellStages splits a command line into its simple commands, quote
// aware: operators and redirections count only outside quotes; a word
// keeps its quoted text without the quotes.
func shellStages(s string) []stage {
	var out []stage
	cur := stage{}
	var w strings.Builder
	inWord, raw, dropNext := false, "", false // raw: the word's text before its first quote
	quoted := false
	flush := func() {
		if !inWord {
			return
		}
		word := w.String()
		w.Reset()
		inWord = false
		prefix := raw
		if !quoted {
			prefix = word
		}
		switch {
		case dropNext:
			dropNext = false // the file a bare > sends to
		case redirection.MatchString(prefix):
			m := redirection.FindString(prefix)
			dropNext = m == word && !strings.HasSuffix(m, "&") // "2>" then its file
		default:
			cur.words = append(cur.words, word)
		}
		raw, quoted = "", false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			if !quoted {
				raw, quoted = w.String(), true
			}
			j := i + 1
			for j < len(s) && s[j] != c {
				if c == '"' && s[j] == '\\' && j+1 < len(s) {
					j++
				}
				j++
			}
			w.WriteString(s[i+1 : min(j, len(s))])
			inWord, i = true, j
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i++
		case c == '\\' && i+1 < len(s):
			if !quoted {
				raw, quoted = w.String(), true
			}
			w.WriteByte(s[i+1])
			inWord = true
			i++
		case c == ' ' || c == '\t':
			flush()
		case c == '&' && (i > 0 && (s[i-1] == '>' || s[i-1] == '<') || i+1 < len(s) && s[i+1] == '>'):
			w.WriteByte(c)
			inWord = true
		case c == '\n' || c == ';' || c == '|' || c == '&' || c == '(' || c == ')':
			flush()
			op := string(c)
			if i+1 < len(s) && (c == '|' || c == '&') && s[i+1] == c {
				op += op
				i++
			}
			if len(cur.words) > 0 {
				out = append(out, cur)
			}
			cur = stage{op: op}
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	flush()
	if len(cur.words) > 0 {
		out = append(out, cur)
	}
	return out
}
