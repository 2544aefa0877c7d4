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

// printReport prints the report for a person: the summary, the
// learning figures it is judged by, the lessons table (with its header
// wherever it prints, a pipe included), what never fired and what is
// noisy, and what could not be read.
func printReport(ios *iostreams.IOStreams, r *Report) error {
	w := ios.Out
	fmt.Fprintf(w, "replayed %d calls in %d sessions through %d lessons in %s: %d failed, %d rejected, %d stopped by the agent\n",
		r.Calls, r.Sessions, r.Input.Lessons, r.Duration.Round(time.Millisecond), r.Failed, r.Rejected, r.Stopped)
	fmt.Fprintf(w, "repeats (a failure whose command family and error class failed in an earlier session of the same project): %d\n", r.Repeated)
	if l := r.Learn; l != nil {
		fmt.Fprintf(w, "learned from %s: %d lessons by the last session (%d project, %d global)\n",
			map[string]string{LearnAll: "every candidate", LearnTags: "#lesson reports"}[l.Mode], l.Provisional, l.Project, l.Global)
		fmt.Fprintf(w, "prevented: %d (a lesson learned from the same failure fired before the call)\n", l.Prevented)
		fmt.Fprintf(w, "shortened: %d (such a lesson reached the agent with the failure)\n", l.Shortened)
		fmt.Fprintf(w, "unrelated learned fires before failures: %d (on %d failed calls)\n", l.UnrelatedFires, l.Unrelated)
		fmt.Fprintf(w, "learned-lesson fires before fine calls: %d (%.2f per 100 calls)\n", l.LearnedFiresBeforeFine, l.LearnedFiresBeforeFinePer100)
	}
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
		t.Row("LESSON", "KIND", "FIRES", "BEFORE FAILED", "BEFORE FINE", "ADDRESSING", "PRECISION", "REFUSED", "PER 100 CALLS")
		for _, l := range r.Lessons {
			slug := l.Slug
			if l.Provisional {
				slug += " (learned, " + l.Scope + ")"
			}
			t.Row(iostreams.EscapeLine(slug), string(l.Kind), strconv.Itoa(l.Fires), strconv.Itoa(l.FiresBeforeFailed),
				strconv.Itoa(l.FiresBeforeFine), strconv.Itoa(l.FiresAddressing), rate(l.Precision),
				strconv.Itoa(l.Refused+l.Asked), fmt.Sprintf("%.2f", l.FiresPer100))
		}
		if err := t.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w, "addressing: fires before a failure the lesson addresses (the call failed, or the next call of its family "+
			"in the session did, printing what the lesson's addresses name if it names any; for a learned lesson, a failure with a key it was learned from); precision = addressing / fires; "+
			"hazards are judged by the calls they refused")
	}
	if n := len(r.NeverFired); n > 0 {
		list := r.NeverFired
		if ios.IsStdoutTTY() && n > maxListed {
			list = append(slices.Clip(list[:maxListed]), fmt.Sprintf("and %d more (--json lists them)", n-maxListed))
		}
		fmt.Fprintf(w, "\nnever fired (%d): %s\n", n, iostreams.EscapeLine(strings.Join(list, ", ")))
	}
	if len(r.Noisiest) > 0 {
		fmt.Fprintf(w, "noisiest (most fires not before a failure they address, of those with %d or more fires): %s\n",
			r.MinFires, iostreams.EscapeLine(strings.Join(r.Noisiest, ", ")))
	}
	for _, g := range []struct {
		head string
		rows []GroupReport
	}{{"AGENT", r.Agents}, {"PROJECT", r.Projects}} {
		if len(g.rows) == 0 {
			continue
		}
		fmt.Fprintln(w)
		t := ios.NewTable()
		t.Row(g.head, "CALLS", "FAILED", "REPEATED", "PREVENTED", "SHORTENED", "UNRELATED")
		for _, row := range g.rows {
			t.Row(iostreams.EscapeLine(row.Name), strconv.Itoa(row.Calls), strconv.Itoa(row.Failed), strconv.Itoa(row.Repeated),
				strconv.Itoa(row.Prevented), strconv.Itoa(row.Shortened), strconv.Itoa(row.Unrelated))
		}
		if err := t.Flush(); err != nil {
			return err
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

// rate prints a share as a percentage, "-" when there is none.
func rate(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", *p*100)
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
