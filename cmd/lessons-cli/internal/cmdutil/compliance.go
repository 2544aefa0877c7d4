package cmdutil

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scanner"
)

// PrintCompliance prints, per agent with anything to show, whether it
// follows the #lesson protocol: sessions scanned, tags, heuristic-only
// detections and the rate.
func PrintCompliance(ios *iostreams.IOStreams, agents []scanner.AgentReport) {
	agents = slices.DeleteFunc(slices.Clone(agents), func(a scanner.AgentReport) bool {
		return a.Sessions == 0 && a.Tags+a.HeuristicOnly == 0
	})
	if len(agents) == 0 {
		return
	}
	fmt.Fprintln(ios.Out, "\n#lesson protocol compliance (all sessions scanned so far):")
	t := ios.NewTable()
	t.Row("AGENT", "SESSIONS", "TAGS", "HEURISTIC-ONLY", "COMPLIANCE")
	for _, a := range agents {
		rate := "-"
		if a.Tags+a.HeuristicOnly > 0 {
			rate = fmt.Sprintf("%.0f%%", a.Compliance*100)
		}
		t.Row(a.Agent, strconv.Itoa(a.Sessions), strconv.Itoa(a.Tags), strconv.Itoa(a.HeuristicOnly), rate)
	}
	_ = t.Flush()
}
