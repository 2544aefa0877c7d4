package main

import (
	"fmt"
	"strings"
)

// row is one history's figures, or the total (history "total").
type row struct {
	history             string
	labelled, catchable int
	// stopped and stoppedCatchable count the labelled calls the trace
	// reads as stopped by the agent; a catchable one counts as missed.
	stopped, stoppedCatchable int
	// notFailed and notFailedCatchable count the labelled calls the
	// trace reads as fine or unknown (a newer reading of the log: a
	// probe's answer); a catchable one counts as missed.
	notFailed, notFailedCatchable int
	// copies and copiesCatchable count the labels of calls the trace
	// reads as copied from an earlier log: left out of every figure.
	copies, copiesCatchable  int
	caught                   int // catchable with verdict prevented or shortened
	builtinCaught            int // catchable not caught, which a built-in that addresses it reached
	calls, learnedBeforeFine int
	builtinInjectedCalls     int
	// missed counts the catchable calls not caught, by missReason.
	missed map[string]int
}

// caught reports whether a trace verdict counts as a catch.
func caught(verdict string) bool { return verdict == "prevented" || verdict == "shortened" }

// score joins the labels of each named history to its trace and returns
// one row per history, in the order given, then the total. Labels of
// histories not named are ignored; a label its trace lacks is an error.
func score(labelsPath string, names []string, traces map[string]string) ([]row, error) {
	labels, err := readLabels(labelsPath)
	if err != nil {
		return nil, err
	}
	total := row{history: "total", missed: map[string]int{}}
	var rows []row
	for _, name := range names {
		t, err := readTrace(traces[name])
		if err != nil {
			return nil, err
		}
		r := row{history: name, calls: t.calls, learnedBeforeFine: t.learnedBeforeFine,
			builtinInjectedCalls: t.builtinInjectedCalls, missed: map[string]int{}}
		for _, l := range labels {
			if l.history != name {
				continue
			}
			c, why, ok := t.find(l)
			if !ok {
				return nil, fmt.Errorf("%s: no failed call %s line %d (%s) in trace %s", l.at, l.file, l.line, l.family, traces[name])
			}
			if why == copiedCall {
				r.copies++
				if l.catchable {
					r.copiesCatchable++
				}
				continue
			}
			r.labelled++
			switch why {
			case stoppedCall:
				r.stopped++
				if l.catchable {
					r.stoppedCatchable++
				}
			case notFailedCall:
				r.notFailed++
				if l.catchable {
					r.notFailedCatchable++
				}
			}
			if l.catchable {
				r.catchable++
				switch {
				case why == stoppedCall || why == notFailedCall:
				case caught(c.Verdict):
					r.caught++
				default:
					r.missed[why]++
					total.missed[why]++
					if c.builtinCaught() {
						r.builtinCaught++
					}
				}
			}
		}
		rows = append(rows, r)
		total.labelled += r.labelled
		total.stopped += r.stopped
		total.stoppedCatchable += r.stoppedCatchable
		total.notFailed += r.notFailed
		total.notFailedCatchable += r.notFailedCatchable
		total.copies += r.copies
		total.copiesCatchable += r.copiesCatchable
		total.catchable += r.catchable
		total.caught += r.caught
		total.builtinCaught += r.builtinCaught
		total.calls += r.calls
		total.learnedBeforeFine += r.learnedBeforeFine
		total.builtinInjectedCalls += r.builtinInjectedCalls
	}
	return append(rows, total), nil
}

// header defines every column in one sentence.
const header = `# labelled: hand-labelled failed calls found in the trace (failed calls whose family failed in an earlier session of the history).
# catchable: labelled calls a reader judged a lesson written after the first occurrence would have stopped or cut short.
# caught: catchable calls whose trace verdict is prevented or shortened; recall = caught / catchable.
# learned-fine/100: fires of learned (provisional) lessons before calls that went fine, per 100 calls of the trace.
# missed told/unmatched/below/nothing: catchable calls not caught because a lesson on the same key (family | class) already reached the agent earlier in the session / a live lesson learned from that key did not match / a lesson learned from that key was below minConfidence / no lesson had been learned from that key.
# builtin-inj/100: calls whose answer added lesson text with a lesson that is not learned (a built-in, with an empty HOME) among its fires, per 100 calls.
# +builtin: catchable calls not caught by a learned lesson at which a lesson that is not learned and addresses the failure reached the agent (before the call or after its failure); not in recall.
`

// render prints the rows as a table under the definitions.
func render(rows []row) string {
	var b strings.Builder
	b.WriteString(header)
	fmt.Fprintf(&b, "%-12s %8s %9s %6s %7s %7s %16s %15s  %s  %s\n", "HISTORY", "LABELLED", "CATCHABLE", "CAUGHT", "RECALL", "CALLS", "LEARNED-FINE/100", "BUILTIN-INJ/100",
		"MISSED "+strings.Join(missReasons, "/"), "+BUILTIN")
	for _, r := range rows {
		var missed []string
		for _, why := range missReasons {
			missed = append(missed, fmt.Sprint(r.missed[why]))
		}
		fmt.Fprintf(&b, "%-12s %8d %9d %6d %7s %7d %16s %15s  %s  %d\n", r.history, r.labelled, r.catchable, r.caught,
			ratio(r.caught, r.catchable, 1), r.calls, ratio(r.learnedBeforeFine, r.calls, 100), ratio(r.builtinInjectedCalls, r.calls, 100),
			strings.Join(missed, "/"), r.builtinCaught)
	}
	if t := rows[len(rows)-1]; t.copies > 0 {
		fmt.Fprintf(&b, "# copies: %d labelled calls (%d catchable) the trace reads as copied from an earlier log (copy, docs/replay.md): no calls of their session, left out.\n",
			t.copies, t.copiesCatchable)
	}
	if t := rows[len(rows)-1]; t.stopped > 0 {
		fmt.Fprintf(&b, "# stopped: %d labelled calls (%d catchable, counted as missed) the trace reads as stopped by the agent (outcome \"stopped\", docs/replay.md), not failed.\n",
			t.stopped, t.stoppedCatchable)
	}
	if t := rows[len(rows)-1]; t.notFailed > 0 {
		fmt.Fprintf(&b, "# not failed: %d labelled calls (%d catchable, counted as missed) the trace reads as fine or unknown (a newer reading of the log than the labels'), not failed.\n",
			t.notFailed, t.notFailedCatchable)
	}
	return b.String()
}

// ratio formats num/den×scale with two decimals, or "-" when den is 0.
func ratio(num, den int, scale float64) string {
	if den == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(num)*scale/float64(den))
}
