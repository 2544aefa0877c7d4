package agents

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// programs are the agents' programs whose release decides which events
// lessons installs: only Claude Code has an event its older releases
// lack (PreSkillShellCommand, 2.1.332).
var programs = map[string]string{"claude": "claude"}

// releaseTimeout bounds `claude --version`.
const releaseTimeout = 10 * time.Second

var releaseNumber = regexp.MustCompile(`\b[0-9]+\.[0-9]+\.[0-9]+\b`)

// Release is the release of a's program that PATH (from env) finds, as
// its --version says, or "" when a has no event that depends on it, the
// program is not found, or it says no release in time.
func (a *Agent) Release(env Env) string {
	name := programs[a.Name]
	if name == "" {
		return ""
	}
	bin := lookPath(env, name)
	if bin == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return ""
	}
	return releaseNumber.FindString(string(out))
}

// lookPath finds an executable named name in env's PATH, or "".
func lookPath(env Env, name string) string {
	names := []string{name}
	if runtime.GOOS == "windows" {
		names = []string{name + ".exe", name + ".cmd"}
	}
	for _, dir := range filepath.SplitList(env.Getenv("PATH")) {
		if dir == "" {
			continue
		}
		for _, n := range names {
			p := filepath.Join(dir, n)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode()&0o111 != 0) {
				return p
			}
		}
	}
	return ""
}

// In reports whether release of the agent has ev; an unknown release
// ("") is taken to have it.
func (ev Event) In(release string) bool {
	return ev.Since == "" || release == "" || !olderThan(release, ev.Since)
}

// required reports whether doctor wants ev installed: always, unless
// only newer releases have it; then only where release (asked when
// needed) is known to have it.
func (ev Event) required(release func() string) bool {
	return ev.Since == "" || release() != "" && ev.In(release())
}

// EventsIn are the events lessons installs for the agent at release
// ("": unknown, all of them).
func (a *Agent) EventsIn(release string) []Event {
	var out []Event
	for _, ev := range a.Events {
		if ev.In(release) {
			out = append(out, ev)
		}
	}
	return out
}

// For is a with only the events its release has ("": all of them).
func (a *Agent) For(release string) *Agent {
	c := *a
	c.Events = a.EventsIn(release)
	return &c
}

// olderThan compares two releases "MAJOR.MINOR.PATCH" number by number; a
// part that is not a number counts as 0.
func olderThan(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}
