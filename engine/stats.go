package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"sort"
	"time"

	"github.com/lessons-dev/lessons/scope"
)

// LessonStats is what the event log says about one lesson.
type LessonStats struct {
	Slug       string    `json:"slug"`
	Injections int       `json:"injections"`
	Blocks     int       `json:"blocks"`
	Sessions   int       `json:"sessions"` // distinct sessions
	LastUsed   time.Time `json:"lastUsed,omitzero"`
}

// StatsReport is the answer of `lessons stats`.
type StatsReport struct {
	// Lessons are the lessons that fired, most used first.
	Lessons []LessonStats `json:"lessons"`
	// IdleDays is the window Idle was computed over.
	IdleDays int `json:"idleDays"`
	// Idle are the manifest's lessons that never fired in the last
	// IdleDays days.
	Idle []string `json:"idle"`
	// Nudges are live capture's nudges, per agent.
	Nudges []NudgeStats `json:"nudges"`
	// Skipped counts log lines that did not parse.
	Skipped int `json:"skipped,omitempty"`
	// Overlong counts log lines longer than 1 MiB, skipped unread: an
	// event is a few hundred bytes.
	Overlong int `json:"overlong,omitempty"`
}

// maxEventLine caps the event log lines Stats reads.
const maxEventLine = 1 << 20

// eachLine calls fn with every line of r (without its newline) of at
// most max bytes, and skips and counts the longer ones.
func eachLine(r io.Reader, max int, fn func([]byte)) (overlong int, err error) {
	br := bufio.NewReaderSize(r, max)
	long := false
	for {
		line, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			long = true
			continue
		case long:
			overlong++
			long = false
		case len(line) > 0:
			fn(bytes.TrimSuffix(line, []byte("\n")))
		}
		if errors.Is(err, io.EOF) {
			return overlong, nil
		}
		if err != nil {
			return overlong, err
		}
	}
}

// Stats reads the event log of a state directory (the rotated file too).
// With a manifest, it also lists that manifest's lessons that never fired
// in the idleDays before now. A missing log is an empty report.
func Stats(state string, m *Manifest, idleDays int, now time.Time) (*StatsReport, error) {
	per := map[string]*LessonStats{}
	sessions := map[string]map[string]bool{}
	nudges := nudgeTally{}
	rep := &StatsReport{IdleDays: idleDays, Lessons: []LessonStats{}, Idle: []string{}}
	path := EventsPath(state)
	for _, p := range []string{path + ".1", path} {
		f, err := scope.OpenRegular(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		overlong, err := eachLine(f, maxEventLine, func(line []byte) {
			var e Event
			err := json.Unmarshal(line, &e)
			if err == nil && e.Event == EventNudge {
				nudges.add(e)
				return
			}
			if err != nil || e.Slug == "" {
				rep.Skipped++
				return
			}
			s := per[e.Slug]
			if s == nil {
				s = &LessonStats{Slug: e.Slug}
				per[e.Slug], sessions[e.Slug] = s, map[string]bool{}
			}
			switch e.Event {
			case EventInject:
				s.Injections++
			case EventBlock:
				s.Blocks++
			}
			sessions[e.Slug][e.Session] = true
			if e.Time.After(s.LastUsed) {
				s.LastUsed = e.Time
			}
		})
		rep.Overlong += overlong
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	rep.Nudges = nudges.list()
	for slug, s := range per {
		s.Sessions = len(sessions[slug])
		rep.Lessons = append(rep.Lessons, *s)
	}
	sort.Slice(rep.Lessons, func(i, j int) bool {
		a, b := rep.Lessons[i], rep.Lessons[j]
		if a.Injections+a.Blocks != b.Injections+b.Blocks {
			return a.Injections+a.Blocks > b.Injections+b.Blocks
		}
		return a.Slug < b.Slug
	})
	if m != nil {
		since := now.AddDate(0, 0, -idleDays)
		for i := range m.Len() {
			e, err := m.Entry(i)
			if err != nil {
				return nil, err
			}
			if s := per[e.Slug]; s == nil || s.LastUsed.Before(since) {
				rep.Idle = append(rep.Idle, e.Slug)
			}
		}
		sort.Strings(rep.Idle)
	}
	return rep, nil
}
