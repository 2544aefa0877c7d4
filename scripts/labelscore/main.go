// Command labelscore joins hand labels of repeated failures to replay
// traces and prints how many of the repeats a reader judged catchable the
// learned lessons caught, with the noise figures the trace supports.
//
// Usage:
//
//	go run ./scripts/labelscore -labels testdata/labelled/heldout-repeats.tsv \
//	    -history NAME=TRACE.jsonl [-history NAME=TRACE.jsonl ...]
//
// A label names a failed call by (history, session file base name, line)
// and, where one log line holds several calls, its family; TRACE is what
// `lessons replay --trace` wrote for that history (docs/replay.md). The
// figures, per history and in total:
//
//   - labelled: the labelled calls found in the trace.
//   - catchable: those the reader judged a lesson written after the first
//     occurrence would have stopped or cut short.
//   - caught: the catchable calls whose trace verdict is prevented or
//     shortened; recall = caught ÷ catchable.
//   - learned fires before fine per 100 calls: fires of learned
//     (provisional) lessons before calls that went fine, per 100 calls of
//     the trace.
//   - missed, per reason: the catchable calls not caught, each under the
//     first of told (a lesson on the same key, family | class, caught an
//     earlier call of the session; the hook says a lesson once a
//     session), unmatched (a live lesson learned from that key did not
//     match), below (a lesson learned from that key was not live) and
//     nothing (no lesson had been learned from that key). It reads the
//     trace's lesson lines, so a trace written before they existed
//     counts every such miss as told or nothing.
//   - built-in injections per 100 calls: calls whose answer added lesson
//     text (injectedBytes > 0, before the call or with its failure) with a
//     lesson that is not learned among those that fired, per 100 calls;
//     these are built-ins when the replay ran with an empty HOME and no
//     project store, as the held-out figures are made, and without --learn
//     the count equals the report's injections.
//
// A label that matches no failed call of its trace is an error naming
// the label's line: the labels and the trace must come from the same
// extraction.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// historyFlag collects -history NAME=TRACE pairs in order.
type historyFlag struct {
	names  []string
	traces map[string]string
}

func (h *historyFlag) String() string { return strings.Join(h.names, ",") }

func (h *historyFlag) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok || name == "" || path == "" {
		return fmt.Errorf("want NAME=TRACE, got %q", v)
	}
	if _, dup := h.traces[name]; dup {
		return fmt.Errorf("history %q given twice", name)
	}
	h.names = append(h.names, name)
	h.traces[name] = path
	return nil
}

func main() {
	labels := flag.String("labels", "", "labels TSV (testdata/labelled/heldout-repeats.tsv)")
	hist := &historyFlag{traces: map[string]string{}}
	flag.Var(hist, "history", "NAME=TRACE: a replay trace of the history NAME (repeatable)")
	flag.Parse()
	if *labels == "" || len(hist.names) == 0 {
		fmt.Fprintln(os.Stderr, "labelscore: -labels and at least one -history NAME=TRACE are required")
		os.Exit(2)
	}
	rows, err := score(*labels, hist.names, hist.traces)
	if err != nil {
		fmt.Fprintln(os.Stderr, "labelscore:", err)
		os.Exit(1)
	}
	fmt.Print(render(rows))
}
