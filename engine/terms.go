package engine

import (
	"strings"

	"github.com/kljensen/snowball/english"
)

// tokenize lower-cases text, splits it into words of two or more letters
// or digits, leaves out stopwords and stems the rest with the Snowball
// (Porter2) English stemmer, so "hangs", "hanging" and "hang" are one
// term. A word is left out when it or its stem is a stopword: "running"
// goes with "run".
func tokenize(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
	out := words[:0]
	for _, w := range words {
		if len(w) < 2 || isStopword(w) {
			continue
		}
		s := english.Stem(w, true)
		if len(s) < 2 || isStopword(s) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// isStopword reports whether w is a word that says nothing about which
// lesson a prompt needs: English function words, and the verbs and fillers of requests to an
// agent ("run", "make", "have", "use", "then", "please", "check"), whose
// presence in a lesson's summary once brought lessons up for any request.
// A word is checked before and after stemming, so the list holds base
// forms, irregular forms, and stems where they differ from the word
// ("tri" for "tries", "chang" for "changed"). Words that name a tool or
// a flag stay terms even when common ("go", "ci", "fix"); see isWeak
// for those that count only beside a more specific word. A switch, not
// a map: nothing to build, on the prompt path or at init.
func isStopword(w string) bool {
	switch w {
	case "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "aren",
		"as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
		"can", "cannot", "could", "couldn", "did", "didn", "do", "does", "doesn", "doing", "don", "done",
		"down", "during", "each", "either", "else", "even", "ever", "every", "few", "for", "from",
		"further", "had", "hadn", "has", "hasn", "have", "haven", "having", "he", "her", "here", "hers",
		"herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "isn", "it", "its",
		"itself", "just", "let", "me", "might", "more", "most", "much", "must", "mustn", "my", "myself",
		"no", "nor", "not", "now", "of", "off", "often", "on", "once", "one", "only", "or", "other", "our",
		"ours", "ourselves", "out", "over", "own", "per", "same", "shall", "shan", "she", "should",
		"shouldn", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves",
		"then", "there", "these", "they", "this", "those", "through", "thus", "to", "too", "under", "until",
		"up", "upon", "us", "very", "was", "wasn", "we", "were", "weren", "what", "whatever", "when",
		"where", "whether", "which", "while", "who", "whom", "whose", "why", "will", "with", "within",
		"without", "won", "would", "wouldn", "yet", "you", "your", "yours", "yourself", "yourselves", "ll",
		"re", "ve", "already", "always", "another", "anyway", "anything", "everything", "everyth", "away",
		"back", "etc", "instead", "maybe", "never", "nothing", "really", "rather", "something", "sometimes",
		"still", "sure", "though", "together", "yes", "ok", "okay", "hey", "hi", "hello", "thanks",
		"please", "lot", "bit", "kind", "sort", "way", "thing", "stuff", "first", "last", "next", "new",
		"old", "whole", "different", "quick", "good", "better", "best", "bad", "fine", "great", "nice",
		"right", "wrong", "well", "run", "ran", "rerun", "make", "made", "use", "got", "try", "tri", "want",
		"need", "like", "see", "saw", "seen", "look", "show", "shown", "tell", "told", "give", "gave",
		"given", "take", "took", "taken", "keep", "kept", "put", "call", "goe", "went", "gone", "come",
		"came", "know", "knew", "known", "think", "thought", "seem", "say", "said", "ask", "help", "check",
		"add", "work", "start", "stop", "set", "write", "wrote", "written", "read", "find", "found", "open",
		"close", "creat", "remov", "delet", "chang", "updat", "move", "edit":
		return true
	}
	return false
}

// isWeak reports whether w is a stem too common in requests to tell
// lessons apart on their own ("test", "build", "error", "fix", "file"): they add to a
// lesson's score only when the prompt shares a more specific term with
// it, so "the tests fail" brings up nothing while "pytest hangs in the
// tests" still scores the pytest lesson above the others.
func isWeak(w string) bool {
	switch w {
	case "test", "suit", "build", "rebuild", "error", "fail", "failur", "fix", "bug", "issu", "problem",
		"file", "folder", "directori", "dir", "code", "app", "applic", "project", "repo", "repositori",
		"script", "command", "tool", "function", "method", "class", "modul", "packag", "librari", "version",
		"instal", "depend", "commit", "branch", "merg", "config", "configur", "set", "setup", "output",
		"input", "log", "line", "path", "data", "server", "servic", "shell", "agent", "environ", "system",
		"local", "remot", "default", "option", "flag", "valu", "name", "hang", "slow", "break", "broken",
		"crash", "time", "timeout", "wait", "exit", "process", "job", "task", "step", "pass", "find",
		"python", "javascript", "typescript", "node", "go", "rust":
		return true
	}
	return false
}
