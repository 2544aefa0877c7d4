// Command hooktime times whole processes fed a payload on standard input,
// without a shell in between: each named command runs in turn, round
// after round, so every one sees the same machine noise. It prints the
// median and p99 of each, the median's ratio to the first, and the
// medians of its CPU time (user and system) and minor page faults. (Peak
// RSS is left to /usr/bin/time: a forked child's rusage counts the
// parent's pages from before exec.)
//
// Usage: hooktime [-pace D] -runs N -input FILE NAME[@FILE]=COMMAND...
// (COMMAND split on spaces, its leading VAR=VALUE words set in its
// environment as a shell would, without a shell or env(1) in between;
// NAME@FILE feeds that command FILE instead of -input's). -pace waits D
// between rounds, as an agent waits between calls: a row that creates
// and removes files, timed back to back, measures the file system's
// bookkeeping of recently freed inodes as much as the command.
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
	env   []string // the whole environment, when the command sets some
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
	pace := flag.Duration("pace", 0, "pause between rounds")
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
		s := &series{name: name, input: in, argv: strings.Fields(cmd)}
		for len(s.argv) > 1 && strings.Contains(s.argv[0], "=") {
			if s.env == nil {
				s.env = os.Environ()
			}
			s.env = append(s.env, s.argv[0])
			s.argv = s.argv[1:]
		}
		all = append(all, s)
	}
	if len(all) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	for i := 0; i < *warmup+*runs; i++ {
		if i > 0 {
			time.Sleep(*pace)
		}
		for _, s := range all {
			d, ps, err := runOnce(s)
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

func runOnce(s *series) (time.Duration, *os.ProcessState, error) {
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Env = s.env
	if s.input != "" {
		f, err := os.Open(s.input)
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
