package scanner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons/scope"
)

// A wrong file's lesson says a file is not where a call looked. Once
// later sessions used that path and it worked, as many as the sessions
// it failed in, the file is there (moved back, made, another checkout),
// and the lesson would come before calls that go fine: it is held below
// minConfidence (Signals.Works). The logs it worked in are kept on the
// candidate (WorkedIn), so that scans of one session each add up. A scan
// that finds nothing does not load the store, so the scan state keeps
// the paths the listed lessons failed on: a scan that read a use of one
// of them loads the store to check it.

// Bounds of the files a scan keeps, of those one log adds, and of the
// paths the state keeps.
const (
	sampleFiles        = 16384
	sampleFilesPerFile = 256
	maxWrongFiles      = 4096
)

// wrongFilesFile holds those paths, one per line, in the scanner's part
// of the state directory; a larger one than maxWrongFilesBytes is not
// read (the store is then loaded only when a scan finds something).
const (
	wrongFilesFile     = "wrong-files"
	maxWrongFilesBytes = maxWrongFiles * 1024
)

// fileUse is a use of a file that worked: when (a log's place in a scan,
// a session's in a replay), and the log it is in.
type fileUse struct {
	when int64
	in   string
}

// addFiles keeps the files that file tools used and that worked in log
// in, at when: the latest maxSupport uses of each.
func (s *callSample) addFiles(files []string, when int64, in string) {
	if s.files == nil {
		s.files = map[string]map[string][]fileUse{}
	}
	for _, f := range files {
		name := path.Base(f)
		byPath := s.files[name]
		uses, ok := byPath[f]
		if !ok && s.nfiles >= sampleFiles {
			continue
		}
		if byPath == nil {
			byPath = map[string][]fileUse{}
			s.files[name] = byPath
		}
		if !ok {
			s.nfiles++
		}
		if len(uses) > 0 && uses[len(uses)-1].in == in {
			continue
		}
		if len(uses) == maxSupport {
			uses = uses[1:]
		}
		byPath[f] = append(uses, fileUse{when, in})
	}
}

// workedIn adds to a wrong file's lesson (not a folder's) the logs in
// which a path it failed on was used and worked later than since (its
// first failure), holds it once they are as many as the sessions it
// failed in (Signals.Works), and reports whether it changed.
func (s *callSample) workedIn(c *Candidate, since int64) bool {
	if c.Kind != KindPath || c.onFolder() || c.Signals.Works {
		return false
	}
	n := len(c.WorkedIn)
	for _, p := range c.failedPaths() {
		for _, u := range s.files[path.Base(p)][p] {
			if u.when > since && len(c.WorkedIn) < maxSupport && !slices.Contains(c.WorkedIn, u.in) {
				c.WorkedIn = append(c.WorkedIn, u.in)
			}
		}
	}
	c.Signals.Works = len(c.WorkedIn) >= max(1, len(c.Sessions))
	return len(c.WorkedIn) > n
}

// failedPaths are the paths a wrong file's lesson failed on.
func (c *Candidate) failedPaths() []string {
	out := []string{c.Trigger}
	for _, e := range c.Examples.Match {
		if e.Path != "" && !slices.Contains(out, e.Path) {
			out = append(out, e.Path)
		}
	}
	return out
}

// usesWrongFile reports whether files name a path a listed wrong file's
// lesson failed on, reading the kept paths once.
func (m *merger) usesWrongFile(files []string) bool {
	if len(files) == 0 {
		return false
	}
	if m.wrongFiles == nil {
		m.wrongFiles = map[string]bool{}
		if b, err := readCapped(filepath.Join(m.store.state, stateSubdir, wrongFilesFile), maxWrongFilesBytes); err == nil {
			for p := range strings.SplitSeq(string(b), "\n") {
				m.wrongFiles[p] = p != ""
			}
		}
	}
	return slices.ContainsFunc(files, func(f string) bool { return m.wrongFiles[f] })
}

// saveWrongFiles keeps the paths the store's listed wrong file lessons
// failed on, once the store was loaded.
func (m *merger) saveWrongFiles() error {
	var paths []string
	for _, c := range m.sorted() {
		if c.Status != StatusNew || c.Kind != KindPath || c.onFolder() || c.Signals.Works {
			continue
		}
		for _, p := range c.failedPaths() {
			if len(paths) < maxWrongFiles && p != "" && !strings.Contains(p, "\n") {
				paths = append(paths, p)
			}
		}
	}
	file := filepath.Join(m.store.state, stateSubdir, wrongFilesFile)
	if len(paths) == 0 {
		if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("write scan state: %w", err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("write scan state: %w", err)
	}
	if err := scope.WriteFileAtomic(file, []byte(strings.Join(paths, "\n")), 0o600); err != nil {
		return fmt.Errorf("write scan state: %w", err)
	}
	return nil
}
