package scanner

import (
	"regexp"
	"strings"
)

// A user who rejects a tool call often explains why, but the reason is not
// always an instruction: it may be a question ("will this work in CI?"),
// feedback on the plan or the task ("please add the favicon too first"),
// a remark ("you always pick that flag"), an acknowledgement, or a
// takeover ("I'll run it myself"). Such a rejection stays a candidate,
// since the user said something about the call, but it rarely makes a
// lesson: it is marked, scored lower and listed last.
//
// The reason is read clause by clause, by the grammar of its first words
// rather than by a list of topics: a clause that opens with a verb (an
// imperative), a negation, "let's" or a subject stating what should be
// (I want, you should) is an instruction; one that opens with a subject
// and a verb is a statement; one that opens with an auxiliary or a
// question word is a question; a lone interjection is chatter; and "I'll"
// or "let me" is the user taking the work over. An instruction counts
// when it also says what to do (use, don't, never, instead...).

// questionStart is how a question begins; "do not" begins an order.
var (
	questionStart = regexp.MustCompile(`(?i)^(what|why|how|can|could|should|is|are|do|does)\b`)
	doNot         = regexp.MustCompile(`(?i)^do\s+not\b`)
)

// instruction is a word that tells the agent what to do next time; a
// word after a hyphen is part of another ("re-use" is not "use").
var instruction = regexp.MustCompile(`(?i)(?:^|[^-\w])(use|don'?t|do not|never|always|instead|stop|avoid|prefer)\b`)

// neverMind is not an instruction, though it starts with one.
var neverMind = regexp.MustCompile(`(?i)\bnever\s?mind\b`)

// clauseBreak splits a reason into clauses.
var clauseBreak = regexp.MustCompile(`[.!?;,:\n()]+|\s[-–—]\s|\s(?:but|and|so)\s`)

// subordinate starts a subordinate clause inside another ("even if I
// don't ask", "if we can help it"): its words say what holds, neither
// what to do nor who does it.
var subordinate = regexp.MustCompile(`(?i)\s(?:if|unless|when|because|although|though|since|while)\s`)

// mainClause is a clause up to the subordinate clause it holds, if any.
func mainClause(c string) string {
	if loc := subordinate.FindStringIndex(c); loc != nil {
		return c[:loc[0]]
	}
	return c
}

// Closed word classes of English, which open clauses of each kind.
var (
	subjects = wordSet("i i'm i've i'd we we're we've we'd you you're you've you'd it it's this that that's " +
		"there there's these those they they're he she one everything nothing")
	takeover     = wordSet("i'll we'll i'm") // I'll do it, I'm going to
	desire       = wordSet("want need needs should must prefer have has rather like wanted")
	auxiliaries  = wordSet("is are was were do does did can could would will should shall may might has have had isn't aren't wasn't doesn't didn't won't wouldn't shouldn't couldn't can't hasn't haven't")
	interjection = wordSet("ok okay yes yeah yep sure thanks thank great nice good cool fine lgtm hmm huh hm wait hold really wow lol oh ah no nope actually well sorry right perfect done")
	// sentence adverbs open a clause without being its verb: "instead
	// the cursor should stay" is a statement, "instead, use pnpm" an
	// instruction
	sentenceAdverb = wordSet("instead also then now rather otherwise")
	determiners    = wordSet("the a an my our your its their all some every each any both his her")
	questionWord   = wordSet("what why how when where which who whose whom")
	hortative      = wordSet("let's lets please")
	negation       = wordSet("don't dont never stop avoid")
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// clause kinds
const (
	clauseNone = iota
	clauseInstruction
	clauseStatement
	clauseQuestion
	clauseChatter
	clauseTakeover
)

// clauseWords are a clause's words, lower-cased, with typographic
// apostrophes made plain and quotes dropped.
func clauseWords(c string) []string {
	return strings.Fields(strings.ToLower(strings.NewReplacer("’", "'", "`", "", "\"", "").Replace(c)))
}

// clauseKind reads a clause's first words.
func clauseKind(c string) int {
	w := clauseWords(c)
	if len(w) == 0 {
		return clauseNone
	}
	first, second, third := w[0], "", ""
	if len(w) > 1 {
		second = w[1]
	}
	if len(w) > 2 {
		third = w[2]
	}
	switch {
	case first == "let" && (second == "me" || second == "us" && third != ""):
		if second == "me" {
			return clauseTakeover
		}
		return clauseInstruction
	case negation[first] && len(w) == 1:
		return clauseChatter // "stop" alone: a halt, with nothing said of what not to do
	case negation[first], hortative[first], first == "do" && second == "not", first == "no" && second != "":
		return clauseInstruction
	case takeover[first] && (first != "i'm" || second == "going" || second == "gonna"):
		return clauseTakeover
	case (first == "i" || first == "we") && (second == "will" || second == "can" && third != "you"):
		return clauseTakeover
	case subjects[first]:
		if desire[second] || desire[third] || second == "'d" {
			return clauseInstruction // I want, we need, you should, I'd rather
		}
		return clauseStatement
	case questionWord[first] || auxiliaries[first]:
		return clauseQuestion
	case interjection[first], sentenceAdverb[first]:
		if len(w) == 1 {
			return clauseChatter
		}
		return clauseKind(strings.Join(w[1:], " ")) // "no, use pnpm"
	case determiners[first], auxiliaries[second], second == "not":
		return clauseStatement // the tests ..., golang doesn't ...
	}
	return clauseInstruction // a verb first: an imperative
}

// classifyReason says whether a rejection's reason is only a question, or
// feedback without an instruction (a remark, chatter, or the user taking
// over). At most one of the two is set; an empty reason is neither.
func classifyReason(reason string) (question, feedback bool) {
	r := strings.TrimSpace(reason)
	if r == "" {
		return false, false
	}
	if strings.HasSuffix(strings.TrimRight(r, ") \t\n"), "?") || (questionStart.MatchString(r) && !doNot.MatchString(r)) {
		return true, false
	}
	if instructionClause(r) == "" {
		return false, true
	}
	return false, false
}

// instructionClause is the sentence of a reason that holds its first
// instruction, or "" when none does or the user takes the work over.
func instructionClause(reason string) string {
	r := neverMind.ReplaceAllString(reason, "")
	found := ""
	for _, sentence := range sentences(r) {
		for _, c := range clauseBreak.Split(sentence, -1) {
			c = mainClause(c)
			switch clauseKind(c) {
			case clauseTakeover:
				return ""
			case clauseInstruction:
				if found == "" && instruction.MatchString(c) {
					found = sentence
				}
			}
		}
	}
	return found
}

// sentences splits a text after '.', '!', '?' or a line break.
func sentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '.' || c == '!' || c == '?' || c == '\n' {
			if t := strings.TrimSpace(s[start : i+1]); t != "" {
				out = append(out, t)
			}
			start = i + 1
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// Weak reports whether the evidence is a rejection whose reason is only a
// question or feedback: such candidates are scored lower and listed last.
func (s Signals) Weak() bool { return s.Question || s.Feedback }

// A reason may tell the agent what to do and still be about the one call
// it refused rather than every such call: it points at the call ("don't
// commit this", "this has grown apart"), bounds itself in time ("for
// now", "not yet"), or sets a condition ("if we go this way, ...", "I'd
// rather use a slice here"). A team keeps what reads as a rule; such a reason
// is a one-off until another session gives it again.

// Closed word classes that tie a clause to the call at hand.
var (
	demonstratives = wordSet("this these those here")
	temporal       = wordSet("yet currently temporarily today")
	conditional    = wordSet("if unless")
	hedged         = wordSet("i'd we'd")
	particles      = wordSet("in out up down on off back again for to from with")
	scopes         = wordSet("in on for across throughout within inside at of")
)

// temporalPhrase is a time bound of more than one word.
var temporalPhrase = regexp.MustCompile(`(?i)\b(for now|right now|just now|at the moment|for the moment|for the time being|at this point)\b`)

// particular reports whether a user's reason speaks of the call at hand
// rather than of every such call.
func particular(reason string) bool {
	if temporalPhrase.MatchString(reason) {
		return true
	}
	for _, sentence := range sentences(reason) {
		for _, c := range clauseBreak.Split(sentence, -1) {
			w := clauseWords(c)
			if len(w) == 0 {
				continue
			}
			if conditional[w[0]] || hedged[w[0]] || len(w) > 1 && subjects[w[0]] && w[1] == "would" {
				return true // a condition, or a wish for this case
			}
			if w[0] == "that's" || (demonstratives[w[0]] || w[0] == "that") && (len(w) == 1 || auxiliaries[w[1]]) {
				return true // the subject is the thing at hand (not "this repo uses pnpm")
			}
			instructs := clauseKind(c) == clauseInstruction
			verb := leadingVerb(w)
			for i, x := range w {
				x = strings.Trim(x, ",;:!?.()'")
				switch {
				case temporal[x]:
					return true
				case !instructs, i > 0 && scopes[w[i-1]]:
					// a clause that does not instruct, or a scope: in this repo
				case demonstratives[x], (x == "it" || x == "that") && i == verb+1:
					return true // don't commit this, run it with -v
				case x == "that" && (i == len(w)-1 || particles[strings.Trim(w[i+1], ",;:!?.()'")]):
					return true // don't do that; don't check that in (not "the flag that prints")
				}
			}
		}
	}
	return false
}

// leadingVerb is the index of the verb an instruction opens with, after
// its subject, auxiliary, negation or softener (we, should, don't, never,
// please, just, do not): "it" right after it is the call at hand ("don't
// run it", "we don't need it"), elsewhere it may be anything ("if we can
// help it").
func leadingVerb(w []string) int {
	i := 0
	if len(w) > 1 && subjects[w[0]] {
		i = 1 // we don't need it; you should run it
	}
	for i < len(w) && (negation[w[i]] || hortative[w[i]] || w[i] == "just" || w[i] == "always" ||
		i > 0 && subjects[w[0]] && auxiliaries[w[i]] ||
		w[i] == "do" && i+1 < len(w) && w[i+1] == "not" || w[i] == "not") {
		i++
	}
	return i
}

// maxRuleWords is the longest sentence a standing rule takes: "never
// stash, read the files you need" and "use the staging database, never
// the shared one" take eight words, a direction for the task ("revert the
// recent changes … I want the page to show … instead of …") forty.
const maxRuleWords = 25

// direction reports whether a reason's instruction comes in a sentence
// longer than a rule is said in: what the task is to do next, not how
// every such call is made.
func direction(reason string) bool {
	return len(strings.Fields(instructionClause(reason))) > maxRuleWords
}
