// Command gen measures the built-in lessons on the histories in ../shared
// (and any given with -history), writes the report, and with -gate exits 1
// when the built-ins fail the gate. Run from the repository root:
//
//	go run ./cmd/lessons-cli/internal/builtinreport/gen -write docs/builtins.md
//	go run ./cmd/lessons-cli/internal/builtinreport/gen -gate
//	go run ./cmd/lessons-cli/internal/builtinreport/gen -shared= -history held=/tmp/logs -write /tmp/held.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/builtinreport"
)

type histories []builtinreport.History

func (h *histories) String() string { return fmt.Sprint(*h) }
func (h *histories) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok || name == "" || path == "" {
		return fmt.Errorf("want NAME=PATH, not %q", v)
	}
	*h = append(*h, builtinreport.History{Name: name, Path: path})
	return nil
}

func main() {
	shared := flag.String("shared", "../shared", "the shared data beside the repository (empty: none)")
	write := flag.String("write", "", "write the markdown report to `FILE`")
	gate := flag.Bool("gate", false, "exit 1 when the built-ins fail the gate")
	var extra histories
	flag.Var(&extra, "history", "also measure on `NAME=PATH`; repeatable")
	flag.Parse()
	if err := run(*shared, extra, *write, *gate); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(shared string, extra []builtinreport.History, write string, gate bool) error {
	var hs []builtinreport.History
	if shared != "" {
		hs = builtinreport.SharedHistories(shared)
	}
	hs = append(hs, extra...)
	if len(hs) == 0 {
		return fmt.Errorf("no history to measure on: give -shared or -history")
	}
	mg, err := builtinreport.Builtins()
	if err != nil {
		return err
	}
	ms, err := builtinreport.Measure(context.Background(), mg, hs)
	if err != nil {
		return err
	}
	g := builtinreport.DefaultGate
	if write != "" {
		opt, err := builtinreport.OptIn()
		if err != nil {
			return err
		}
		optMs, err := builtinreport.Measure(context.Background(), opt, hs)
		if err != nil {
			return err
		}
		if err := os.WriteFile(write, builtinreport.Markdown(mg.Active, ms, opt.Active, optMs, g), 0o644); err != nil {
			return err
		}
	}
	kinds := builtinreport.Kinds(mg.Active)
	for _, m := range ms {
		caught, before := m.Caught(kinds)
		fmt.Printf("%s: %d sessions, %d calls, %.2f built-in injections per 100 calls, %d fires addressing a failure (%d before the call)\n",
			m.History.Name, m.Report.Sessions, m.Report.Calls, m.Report.InjectionsPer100, caught, before)
	}
	if v := g.Check(ms, kinds); len(v) > 0 {
		for _, line := range v {
			fmt.Println("FAILS:", line)
		}
		if gate {
			return fmt.Errorf("%d built-in figures fail the gate (docs/builtins.md says why it is set where it is)", len(v))
		}
	}
	return nil
}
