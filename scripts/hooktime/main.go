// Command hooktime times whole processes fed a payload on standard input,
// without a shell in between: each named command runs in turn, round
// after round, so every one sees the same machine noise. It prints the
// median and p99 of each, and the median's ratio to the first. (Peak RSS
// is left to /usr/bin/time: a forked child's rusage counts the parent's
// pages from before exec.)
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
			d, err := runOnce(s.argv, s.input)
			if err != nil {
				fmt.Fprintf(os.Stderr, "hooktime: %s: %v\n", s.name, err)
				os.Exit(1)
			}
			if i >= *warmup {
				s.times = append(s.times, d)
			}
		}
	}
	base := median(all[0].times)
	fmt.Printf("%-16s %9s %9s %8s\n", "command", "median", "p99", "x first")
	for _, s := range all {
		m := median(s.times)
		fmt.Printf("%-16s %7.2fms %7.2fms %8.2f\n", s.name, ms(m), ms(quantile(s.times, 0.99)), float64(m)/float64(base))
	}
}

func runOnce(argv []string, input string) (time.Duration, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	if input != "" {
		f, err := os.Open(input)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	err := cmd.Run()
	return time.Since(start), err
}

func median(ts []time.Duration) time.Duration { return quantile(ts, 0.5) }

func quantile(ts []time.Duration, q float64) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
