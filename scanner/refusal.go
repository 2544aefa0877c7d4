package scanner

import (
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// A tool call the user refused is a lesson only when the refusal is the
// user's: Claude Code 2.0 wrote what the user typed at the permission
// prompt in place of the tool's result, with no marker, so a terse error
// of the tool itself ("File does not exist.") reads the same. What tells
// them apart is time: a person has to read the prompt and type the
// words, a tool answers at once. And a call that asks the user something
// (a question, a plan to approve) is answered, not refused, whatever the
// answer says.

// Human typing bounds: the least time to read a prompt and start
// answering, and a fast typist's time per character (about 120 words a
// minute).
const (
	readPrompt  = 2 * time.Second
	typePerChar = 100 * time.Millisecond
)

// typedByUser reports whether the text of a guessed refusal of call rec
// can have been typed by a person: the result came at least readPrompt
// plus typePerChar per character after the call. When either time is
// unknown it cannot tell, and trusts the text's shape.
func typedByUser(rec *callRec, e Event) bool {
	if !e.Guessed || rec.at == "" || e.Time == "" {
		return true
	}
	t0, err0 := time.Parse(time.RFC3339Nano, rec.at)
	t1, err1 := time.Parse(time.RFC3339Nano, e.Time)
	if err0 != nil || err1 != nil {
		return true
	}
	return t1.Sub(t0) >= readPrompt+time.Duration(utf8.RuneCountInString(e.Text))*typePerChar
}

// toolError turns a guessed refusal that came too fast for a person into
// the failed result it is, and reports whether it did.
func (a *analyzer) toolError(e Event) (Event, bool) {
	rec := a.calls[e.CallID]
	if e.Kind != Rejection || rec == nil || typedByUser(rec, e) {
		return e, false
	}
	return Event{Kind: ToolResult, Line: e.Line, UID: e.UID, CallID: e.CallID, Time: e.Time,
		Result: &Result{IsError: true, ExitCode: -1, Output: keepOutput(e.Text)}}, true
}

// What was refused: a user who refuses `git add docs/plan.md` with
// "don't commit this" refused adding that file, not every git add. The
// command trigger of a call the user stopped (refused it, or interrupted
// it and said why) keeps the arguments that made the call the one refused:
// those the user's words name; none when the words name the command
// itself or a replacement for it ("never stash", "use pnpm"):
// the user spoke of every such call; else the first positional argument,
// the subcommand's target (a file, a task, a branch).

// replacement is an instruction to call something else ("re-use" is not
// "use").
var replacement = regexp.MustCompile(`(?i)(?:^|[^-\w])(use|prefer|instead|rather)\b`)

// refusedPattern is the command trigger for a call the user stopped with
// these words, or "" when the command has no head: its
// head and at most one argument.
func refusedPattern(cmd, words string) string {
	for _, seg := range segments(cmd) {
		exe, sub := commandHead(seg)
		if exe == "" || exe == "cd" || exe == "export" || exe == "set" || exe == "source" {
			continue
		}
		p := headPattern(exe, sub)
		for _, a := range refusedArgs(headArgs(seg), exe, sub, words) {
			p += `.*` + argPattern(a)
		}
		return p
	}
	return ""
}

// refusedArgs picks, from the arguments of a refused simple command,
// those its trigger keeps.
func refusedArgs(args []string, exe, sub, words string) []string {
	spoken := lowerWords(words)
	names := func(token string) bool {
		for _, w := range spoken {
			if w == token || len(token) >= 3 && strings.HasPrefix(w, token) {
				return true // lint → linting, test → tests
			}
		}
		return false
	}
	var named, targets []string
	for _, a := range args {
		if a == "" || len(a) > 100 || strings.ContainsAny(a, " \t\n<>") {
			continue // free text, or a redirection
		}
		for _, t := range lowerWords(a) {
			if t != exe && t != sub && names(t) {
				named = append(named, a)
				break
			}
		}
		if !strings.HasPrefix(a, "-") {
			targets = append(targets, a)
		}
	}
	switch {
	case len(named) > 0:
		return named[:1] // the first: a second would only narrow what the words say
	case slices.Contains(spoken, strings.ToLower(exe)) || sub != "" && names(sub) || replacement.MatchString(words):
		return nil
	case len(targets) > 0:
		return targets[:1]
	}
	return nil
}

// lowerWords are the runs of letters and digits of s, lower-cased.
func lowerWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// namesCall reports whether a user's words about a shell command name
// anything of it: a word of its command line, or of what the failed call
// printed (a correction may answer the error: "install foo first" after
// "No module named foo"), three letters or more (sameWord). Words that name nothing
// of the call ("don't open a pull request, a commit is enough", said when
// a lint run was refused) are about the task, not the call.
func namesCall(words, cmd, output string) bool {
	var callWords []string
	for _, seg := range segments(cmd) {
		for _, a := range seg {
			if !strings.ContainsAny(a, " \t\n") {
				callWords = append(callWords, lowerWords(a)...)
			}
		}
	}
	callWords = append(callWords, lowerWords(output)...)
	said := slices.DeleteFunc(lowerWords(words), func(w string) bool { return len(w) < 3 })
	return anySameWord(said, callWords)
}

// anySameWord reports whether a word of said names a word of of
// (sameWord).
func anySameWord(said, of []string) bool {
	for _, w := range said {
		if slices.ContainsFunc(of, func(c string) bool { return sameWord(w, c) }) {
			return true
		}
	}
	return false
}

// sameWord reports whether a user's word names a word of a call: the
// same word, or, both four letters or more, one holding the other
// ("linting" names lint). A shorter word inside a longer one is chance:
// "the" in "theme", "use" in "user" ("use pnpm" names what to run
// instead: replacement).
func sameWord(w, c string) bool {
	if w == c {
		return true
	}
	return len(w) >= 4 && len(c) >= 4 && (strings.Contains(w, c) || strings.Contains(c, w))
}

// namesChange reports whether a user's words about a call they refused
// name what the agent's next call changed in it: a word it added or
// dropped, or a command it ran first or put before it. That call is the
// agent's reading of the words; when they name nothing it changed ("wait
// for CI, don't merge yet", then the same call sleeping longer), the
// change is not the user's lesson. It reports true when the two calls do
// not compare.
func namesChange(words, failed, fixed string) bool {
	d, ok := diffCommands(failed, fixed)
	if !ok {
		return true
	}
	var changed []string
	for _, part := range [][]string{d.added, d.removed, d.prelude, d.wrapper} {
		for _, a := range part {
			changed = append(changed, lowerWords(a)...)
		}
	}
	if d.quoted != "" {
		changed = append(changed, "quote")
	}
	return len(changed) == 0 || anySameWord(lowerWords(words), changed)
}
