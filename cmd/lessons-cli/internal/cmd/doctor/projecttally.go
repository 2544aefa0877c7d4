package doctor

import (
	"bytes"
	"cmp"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/replay"
)

// A pack the project subscribes to (in its own .lessons/config.yaml)
// applies to that project's sessions only, so its lessons are judged on
// those: the replay's trace, recounted for the sessions whose directory
// is inside the project, gives the figures the gate reads.

// projectTally is an io.Writer for a replay's trace that counts, for the
// sessions of one project, each lesson's fires as the replay report does.
type projectTally struct {
	root     string
	partial  []byte
	sessions map[string]bool
	lessons  map[string]*replay.LessonReport
	fired    map[string]map[string]bool // slug → sessions it fired in
}

func newProjectTally(root string) *projectTally {
	return &projectTally{root: filepath.Clean(root), sessions: map[string]bool{},
		lessons: map[string]*replay.LessonReport{}, fired: map[string]map[string]bool{}}
}

// Write takes trace lines; a line it cannot read is not counted.
func (p *projectTally) Write(b []byte) (int, error) {
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			break
		}
		p.line(p.partial[:i])
		p.partial = p.partial[i+1:]
	}
	return len(b), nil
}

func (p *projectTally) line(b []byte) {
	var c struct {
		File, Session, Project string
		Fired                  []replay.TraceFire
	}
	if json.Unmarshal(b, &c) != nil || !p.inside(c.Project) {
		return
	}
	session := c.File + "\x00" + c.Session
	p.sessions[session] = true
	for _, f := range c.Fired {
		l := p.lessons[f.Slug]
		if l == nil {
			l = &replay.LessonReport{Slug: f.Slug}
			p.lessons[f.Slug] = l
			p.fired[f.Slug] = map[string]bool{}
		}
		l.Fires++
		if f.At == "after" {
			l.FiresAfter++
		}
		if f.Addresses {
			l.FiresAddressing++
		}
		switch f.Refused {
		case "deny":
			l.Refused++
		case "ask":
			l.Asked++
		}
		p.fired[f.Slug][session] = true
	}
}

// inside reports whether a session's directory is the project or under it.
func (p *projectTally) inside(dir string) bool {
	if dir == "" {
		return false
	}
	dir = filepath.Clean(dir)
	return dir == p.root || strings.HasPrefix(dir, p.root+string(filepath.Separator))
}

// report is the tally as a replay report holding what the gate reads.
func (p *projectTally) report() *replay.Report {
	rep := &replay.Report{Sessions: len(p.sessions)}
	for slug, l := range p.lessons {
		l.Sessions = len(p.fired[slug])
		rep.Lessons = append(rep.Lessons, *l)
	}
	slices.SortFunc(rep.Lessons, func(a, b replay.LessonReport) int {
		return cmp.Or(cmp.Compare(b.Fires, a.Fires), cmp.Compare(a.Slug, b.Slug))
	})
	return rep
}
