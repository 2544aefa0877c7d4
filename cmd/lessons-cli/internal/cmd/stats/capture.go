package stats

import (
	"fmt"
	"strconv"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
)

// countLessonBlocks fills each agent's WithLesson: the nudged sessions in
// which a scan found a #lesson block. The hook logs a session by the hash
// of its id and the scan keeps the id itself, so the join hashes the
// scan's ids. The scan records no time for a block, so one written
// before the nudge counts as well; a session not scanned yet counts as
// without one.
func countLessonBlocks(state string, nudges []engine.NudgeStats) error {
	if len(nudges) == 0 {
		return nil
	}
	cands, err := scanner.OpenStore(state).List(scanner.ListOptions{All: true})
	if err != nil {
		return err
	}
	tagged := map[string]bool{}
	for _, c := range cands {
		if c.Kind == scanner.KindTag {
			for _, id := range c.Sessions {
				tagged[engine.SessionHash(id)] = true
			}
		}
	}
	for i := range nudges {
		for _, h := range nudges[i].SessionHashes {
			if tagged[h] {
				nudges[i].WithLesson++
			}
		}
	}
	return nil
}

// printNudges shows live capture's figures per agent.
func printNudges(ios *iostreams.IOStreams, nudges []engine.NudgeStats) {
	if len(nudges) == 0 {
		return
	}
	fmt.Fprintln(ios.Out, "\nlive capture (nudges to write a #lesson block after a fix or a rejection):")
	t := ios.NewTable()
	t.Row("AGENT", "NUDGES", "SESSIONS", "WITH #LESSON")
	for _, n := range nudges {
		t.Row(iostreams.Escape(n.Agent), strconv.Itoa(n.Nudges), strconv.Itoa(n.Sessions), strconv.Itoa(n.WithLesson))
	}
	_ = t.Flush()
}
