package replay

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

// maxListed caps the lessons that never fired listed on a terminal.
const maxListed = 8

// printReport prints the report for a person: the summary, the lessons
// table, what never fired and what is noisy, the learning curve, and
// what could not be read.
func printReport(ios *iostreams.IOStreams, r *Report) error {
	w := ios.Out
	fmt.Fprintf(w, "replayed %d calls in %d sessions through %d lessons in %s: %d failed, %d rejected\n",
		r.Calls, r.Sessions, r.Input.Lessons, r.Duration.Round(time.Millisecond), r.Failed, r.Rejected)
	fmt.Fprintf(w, "injections: %d (%.2f per 100 calls), %d bytes of lesson text (%.0f per 100 calls)\n",
		r.Injections, r.InjectionsPer100, r.InjectedBytes, r.BytesPer100)
	fmt.Fprintf(w, "blocks: %d\n", r.Blocks)
	for _, b := range r.Refused {
		fmt.Fprintf(w, "  %s refused %s:%d (%s, %s): %s\n", iostreams.EscapeLine(b.Slug), iostreams.EscapeLine(b.File), b.Line,
			b.Outcome, b.Agent, iostreams.EscapeLine(clip(b.Call, 100)))
	}
	printPrompts(w, &r.PromptReport)
	if len(r.Lessons) > 0 {
		fmt.Fprintln(w)
		t := ios.NewTable()
		if ios.IsStdoutTTY() {
			t.Row("LESSON", "MATCHES", "FIRES", "BEFORE FAILED", "BEFORE FINE", "SESSIONS", "CAUGHT", "NOISE")
		}
		for _, l := range r.Lessons {
			slug := l.Slug
			if l.Provisional {
				slug += " (learned)"
			}
			t.Row(slug, strconv.Itoa(l.Matches), strconv.Itoa(l.Fires), strconv.Itoa(l.FiresBeforeFailed),
				strconv.Itoa(l.FiresBeforeFine), strconv.Itoa(l.Sessions), strconv.Itoa(l.Caught),
				fmt.Sprintf("%.2f%%", l.Noise*100))
		}
		if err := t.Flush(); err != nil {
			return err
		}
	}
	if n := len(r.NeverFired); n > 0 {
		list := r.NeverFired
		if ios.IsStdoutTTY() && n > maxListed {
			list = append(slices.Clip(list[:maxListed]), fmt.Sprintf("and %d more (--json lists them)", n-maxListed))
		}
		fmt.Fprintf(w, "\nnever fired (%d): %s\n", n, iostreams.EscapeLine(strings.Join(list, ", ")))
	}
	if len(r.Noisiest) > 0 {
		fmt.Fprintf(w, "noisiest (most fires before fine calls): %s\n", iostreams.EscapeLine(strings.Join(r.Noisiest, ", ")))
	}
	if l := r.Learn; l != nil {
		fmt.Fprintf(w, "\nrepeated mistakes: %d; caught: %d (learning from %s, %d provisional lessons by the last session)\n",
			l.Repeated, l.Caught, map[string]string{LearnAll: "every candidate", LearnTags: "#lesson reports"}[l.Mode], l.Provisional)
		for _, g := range []struct {
			head string
			rows []GroupReport
		}{{"AGENT", l.Agents}, {"PROJECT", l.Projects}} {
			if len(g.rows) == 0 {
				continue
			}
			t := ios.NewTable()
			if ios.IsStdoutTTY() {
				t.Row(g.head, "REPEATED", "CAUGHT")
			}
			for _, row := range g.rows {
				t.Row(row.Name, strconv.Itoa(row.Repeated), strconv.Itoa(row.Caught))
			}
			if err := t.Flush(); err != nil {
				return err
			}
		}
	}
	if g := r.Gate; g != nil {
		if len(g.Noisy) == 0 {
			fmt.Fprintf(w, "\nnoise gate %g: passed\n", g.MaxNoise)
		} else {
			fmt.Fprintf(w, "\nnoise gate %g: failed by %s\n", g.MaxNoise, iostreams.EscapeLine(strings.Join(g.Noisy, ", ")))
		}
	}
	printInput(ios, &r.Input)
	return nil
}

// printInput says, on the error output, what could not be read.
func printInput(ios *iostreams.IOStreams, in *InputReport) {
	s := in.Skipped
	var skipped []string
	for _, k := range []struct {
		n    int
		what string
	}{
		{s.UnreadableFiles, "unreadable files"}, {s.UnknownFiles, "files of unknown format"},
		{s.InvalidLines, "lines that are not JSON records"}, {s.OverlongLines, "overlong lines"},
		{len(in.LessonsLeftOut), "lessons left out"}, {in.Timeouts, "regex searches that timed out"},
	} {
		if k.n > 0 {
			skipped = append(skipped, fmt.Sprintf("%d %s", k.n, k.what))
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(ios.ErrOut, "skipped: %s\n", strings.Join(skipped, ", "))
	}
	for _, e := range in.LessonsLeftOut {
		fmt.Fprintf(ios.ErrOut, "warning: %s\n", iostreams.EscapeLine(e))
	}
	for _, e := range in.Errors {
		fmt.Fprintf(ios.ErrOut, "warning: %s\n", iostreams.EscapeLine(e))
	}
}

// clip cuts s to n runes, marking the cut.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
