package scanner

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons"
)

// addresses reports whether a fix changed what the error complained
// about. An error that names words of the failing call (a file, an
// argument) and none of the words the fix added or removed was about
// something the fix left alone: the retry worked for another reason (the
// state changed, the failure was flaky), and the change teaches nothing.
// An error that names no word of the call addresses the fix only when
// it names a word the fix added or removed, or is about how the command
// was called (invocationError) rather than what it found, and quotes
// nothing the two commands do not hold; a
// change the shell reads (quoting, a prelude or wrapper) is taken as
// addressing it, and a pattern marked with -e or -- only where the error
// is about an option or names the pattern.
func addresses(d cmdDiff, res *Result) bool {
	if d.dash != "" {
		// a pattern read as an option: the error says so, or names it
		lower := res.headLower()
		return misuse.MatchString(lower) || strings.Contains(lower, "option") || said(lower, strings.ToLower(d.dash))
	}
	if d.quoted != "" || d.prelude != nil || d.wrapper != nil || d.gexe != d.exe ||
		slices.ContainsFunc(d.added, assignment.MatchString) {
		return true // the shell's reading, another program, or the environment changed
	}
	if slices.ContainsFunc(d.removed, substitution) {
		// a value the shell computed when it ran (an empty list of
		// pids) may be what failed; the log does not show it, so a fix
		// that dropped it does not say the option was wrong
		return false
	}
	if len(d.removed) > 0 && testsFailed(res.Output) {
		// tests ran and some failed; the same run with words dropped
		// (a filter, an option), or others in their place (--test '*'
		// for --lib), passed: it ran other tests, or the failure came
		// and went
		return false
	}
	lower := res.headLower()
	if replacedMissing(d, lower) {
		return true // the error did not find the path the fix replaced
	}
	mentioned := mentionedIn(lower)
	if listNamed(listDrop(flagValue(d)), res.Output) {
		return true // a value dropped from a flag's list, which the error names
	}
	if misuse.MatchString(lower) && blamesUnnamedFlags(d, mentioned) {
		return false
	}
	changed, named := namedWords(d, mentioned)
	if changed {
		return true // the fix changed a word the error named
	}
	if slices.ContainsFunc(d.added, mentioned) || slices.ContainsFunc(d.removed, mentioned) {
		return true
	}
	if droppedAbbreviated(d, lower) {
		return true // the one option dropped is what the error spells out ("no library targets": --lib)
	}
	// an error that names nothing of the call and nothing the fix
	// changed is about how the command was called only when it says so
	// (a usage error, a missing tool, a refused environment); an error
	// about what the command found (a failing test, a lint error) was
	// got around (--no-verify past a failing hook), not fixed
	return !named && (misuse.MatchString(lower) || invocationError.MatchString(lower) && quotesOnlyTheCall(res.Output, d))
}

// mentionedIn reports whether an error's head (lower case) names a word
// of a command: a flag's name or value, a one-letter flag as a word.
func mentionedIn(lower string) func(string) bool {
	return func(w string) bool {
		w = strings.ToLower(strings.Trim(w, `'"`))
		if k, v, ok := strings.Cut(w, "="); ok && k != "" {
			return said(lower, k) || said(lower, v)
		}
		if len(w) == 2 && w[0] == '-' && w[1] != '-' {
			return containsWord(lower, w) // a one-letter flag the output names as a word ("Use -f if you really want")
		}
		return said(lower, w)
	}
}

// namedWords reports whether an error (mentioned) names words of the
// failing call past its program and subcommand: one the fix changed
// (changed), and one it kept (kept, read only when none changed).
func namedWords(d cmdDiff, mentioned func(string) bool) (changed, kept bool) {
	for _, w := range d.f {
		if w == d.exe || w == d.sub || path.Base(w) == d.exe || !mentioned(w) {
			continue
		}
		if !slices.Contains(d.g, w) {
			return true, kept
		}
		kept = true
	}
	return false, kept
}

// leftAlone reports whether an error names words of the failing call,
// past its program and subcommand, that the fix kept, and none that it
// changed: the failure was about them (a module a test file imports),
// and the fix worked for another reason.
func leftAlone(d cmdDiff, res *Result) bool {
	mentioned := mentionedIn(res.headLower())
	changed, kept := namedWords(d, mentioned)
	return kept && !changed && !slices.ContainsFunc(d.added, mentioned) && !slices.ContainsFunc(d.removed, mentioned)
}

// testsFailed reports whether a failure's error line is a tally of
// failed tests ("1 failing", "Tests: 2 failed") or a runner's word that
// tests failed: the tests ran.
func testsFailed(out string) bool {
	line, _ := lessons.ErrorLine(out)
	return lessons.TallyLine(line) || testFailedLine.MatchString(line)
}

// testFailedLine is a runner's line that tests failed, without counting
// them (cargo's "error: test failed, to rerun pass `--lib`", npm's "Test
// failed."), or one test's failure as cargo ("test a::b ... FAILED") and
// pytest ("FAILED tests/a.py::test_b") print it.
var testFailedLine = regexp.MustCompile(`(?i)\btests? failed\b|^test\s\S+\s\.\.\.\s+failed$|^FAILED\s+\S+::`)

// substitution reports whether a word of a simple command is a command
// substitution's value (segments leaves "$" where "$(" began) or holds one.
func substitution(w string) bool {
	return w == "$" || strings.Contains(w, "$(")
}

// blamesUnnamedFlags reports whether a fix dropped flags besides the
// one a usage error names ("unknown flag: --no-pager" after dropping
// --json and --no-pager): the error was about the flag it names, the
// others worked as they were, and the lesson on the named flag alone is
// learned where a fix dropped only it. A flag the fix added may be the
// named one's correction (--featurs, then --features).
func blamesUnnamedFlags(d cmdDiff, mentioned func(string) bool) bool {
	named, other := false, false
	for _, w := range d.removed {
		if !strings.HasPrefix(w, "-") || optionEnds[w] {
			continue // an argument or a bare --, not a flag
		}
		if mentioned(w) {
			named = true
		} else {
			other = true
		}
	}
	return named && other
}

// quotesOnlyTheCall reports whether the error line of a failure quotes
// no path (a file, a scoped module) but those the failing or the fixed
// command holds: a file it quotes that neither names (the tests a commit
// hook ran) was someone else's failure. A bare name ('.pytest_cache')
// may be what an option of the fix governs. A usage error is not asked: it may quote
// its help ("Enter \".help\" for usage").
func quotesOnlyTheCall(out string, d cmdDiff) bool {
	line, _ := lessons.ErrorLine(out)
	words := strings.Join(d.f, " ") + " " + strings.Join(d.g, " ")
	for _, q := range quotedValue.FindAllStringSubmatch(line, 4) {
		if v := q[1] + q[2]; strings.Contains(v, "/") && !strings.Contains(words, v) {
			return false
		}
	}
	return true
}

// addressesHead is how much of an output addresses reads: the head,
// where a tool says what it could not do.
const addressesHead = 4096

// headLower is the head of a failure's output (addressesHead) without
// the agents' status lines (errorBody), lower case: what a fix is judged
// against.
func (r *Result) headLower() string {
	return strings.ToLower(errorBody(r.Output[:min(len(r.Output), addressesHead)]))
}

// said reports whether an error text holds a word of a command: as a
// whole word when it is short, anywhere when it is long enough not to
// occur by chance.
func said(text, w string) bool {
	switch n := len(strings.TrimLeft(w, "-")); {
	case n >= 3:
		return strings.Contains(text, w)
	case n == 2:
		return containsWord(text, w)
	}
	return false
}

// abbreviates reports whether an option's name of three letters or
// more is cut from a longer word of text: the thing it names, as the
// error spells it out ("no library targets" for --lib, "binary" for
// --bin, "environment" for --env). A word that is the name inflected
// ("fixable" for --fix, "claimed" for --claim) speaks of the option's
// act, not of what it abbreviates.
func abbreviates(text, name string) bool {
	if len(name) < 3 || strings.ContainsAny(name, "=-_") {
		return false
	}
	for off := 0; ; {
		i := strings.Index(text[off:], name)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(name)
		j := end
		for j < len(text) && text[j] >= 'a' && text[j] <= 'z' {
			j++
		}
		if (i == 0 || !isWordByte(text[i-1])) && j > end && !inflection[text[end:j]] {
			return true
		}
		off = i + 1
	}
}

// abbreviatedFlag reports whether w is an option (--lib, not its value)
// whose name text spells out as a longer word (abbreviates).
func abbreviatedFlag(text, w string) bool {
	name, _, _ := strings.Cut(w, "=")
	return strings.HasPrefix(name, "-") && abbreviates(text, strings.ToLower(strings.TrimLeft(name, "-")))
}

// droppedAbbreviated reports whether a retry's only change dropped one
// option that text spells out (abbreviatedFlag): with anything else
// changed, a longer word of the error ("repository" for --repo) may be
// about what else changed.
func droppedAbbreviated(d cmdDiff, text string) bool {
	return len(d.added) == 0 && len(d.removed) == 1 && abbreviatedFlag(text, d.removed[0])
}

// inflection are the endings that make a word of the option's name
// itself rather than of a longer word it abbreviates.
var inflection = map[string]bool{"s": true, "es": true, "d": true, "ed": true, "ing": true, "er": true, "ers": true,
	"able": true, "ible": true, "ly": true, "ment": true, "ion": true, "ions": true}
