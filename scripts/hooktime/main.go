// Command hooktime times whole processes fed a payload on standard input,
// without a shell in between: each named command runs in turn, round
// after round, so every one sees the same machine noise. It prints the
// median and p99 of each, the median's ratio to the first, and the
// medians of its CPU time (user and system) and minor page faults. (Peak
// RSS is left to /usr/bin/time: a forked child's rusage counts the
// parent's pages from before exec.)
//
// Usage: hooktime -runs N -input FILE NAME[@FILE]=COMMAND... (COMMAND split
// on spaces; NAME@FILE feeds that command FILE instead of -input's)
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

type series struct {
	name  string
	input string
	argv  []string
	times []time.Duration
	// faults are each run's minor page faults (the child's own: exec
	// follows a vfork, which copies no pages).
	faults []int64
	// cpu is each run's user and system time: less moved by other
	// work on the machine than the wall time.
	cpu []time.Duration
}

func main() {
	runs := flag.Int("runs", 500, "runs of each command")
	warmup := flag.Int("warmup", 20, "untimed runs of each command first")
	input := flag.String("input", "", "file fed to each run's standard input")
	flag.Parse()
	var all []*series
	for _, arg := range flag.Args() {
		name, cmd, ok := strings.Cut(arg, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "hooktime: %q is not NAME=COMMAND\n", arg)
			os.Exit(2)
		}
		name, in, ok := strings.Cut(name, "@")
		if !ok {
			in = *input
		}
		all = append(all, &series{name: name, input: in, argv: strings.Fields(cmd)})
	}
	if len(all) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	for i := 0; i < *warmup+*runs; i++ {
		for _, s := range all {
			d, ps, err := runOnce(s.argv, s.input)
			if err != nil {
				fmt.Fprintf(os.Stderr, "hooktime: %s: %v\n", s.name, err)
				os.Exit(1)
			}
			if i >= *warmup {
				s.times = append(s.times, d)
				s.faults = append(s.faults, minorFaults(ps))
				s.cpu = append(s.cpu, ps.UserTime()+ps.SystemTime())
			}
		}
	}
	base := median(all[0].times)
	fmt.Printf("%-20s %9s %9s %8s %9s %7s\n", "command", "median", "p99", "x first", "cpu", "faults")
	for _, s := range all {
		m := median(s.times)
		fmt.Printf("%-20s %7.2fms %7.2fms %8.2f %7.2fms %7d\n", s.name, ms(m), ms(quantile(s.times, 0.99)), float64(m)/float64(base),
			ms(median(s.cpu)), median(s.faults))
	}
}

func runOnce(argv []string, input string) (time.Duration, *os.ProcessState, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	if input != "" {
		f, err := os.Open(input)
		if err != nil {
			return 0, nil, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	return d, cmd.ProcessState, err
}

func median[T time.Duration | int64](ts []T) T { return quantile(ts, 0.5) }

func quantile[T time.Duration | int64](ts []T, q float64) T {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
