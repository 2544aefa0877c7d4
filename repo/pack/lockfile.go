package pack

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/lessons-dev/lessons/scope"
)

// LockFileName is the lock file beside each config.yaml that subscribes
// to packs.
const LockFileName = "lessons.lock"

// LockPath is the lock file for the config at configPath.
func LockPath(configPath string) string {
	return filepath.Join(filepath.Dir(configPath), LockFileName)
}

// Lock pins each subscribed pack to one commit, like a dependency lock.
type Lock struct {
	Packs []LockEntry `yaml:"packs"`
}

// LockEntry pins one pack: the commit its ref resolved to and the h1 hash
// of that commit's lessons/*.yaml files.
type LockEntry struct {
	Name   string `yaml:"name"`
	URL    string `yaml:"url"` // without credentials (see Redact)
	Ref    string `yaml:"ref,omitempty"`
	Commit string `yaml:"commit"`
	Hash   string `yaml:"hash"`
}

// Entry returns the named pack's entry, or nil.
func (l *Lock) Entry(name string) *LockEntry {
	for i := range l.Packs {
		if l.Packs[i].Name == name {
			return &l.Packs[i]
		}
	}
	return nil
}

// Set adds or replaces e, keeping entries sorted by name.
func (l *Lock) Set(e LockEntry) {
	if old := l.Entry(e.Name); old != nil {
		*old = e
		return
	}
	l.Packs = append(l.Packs, e)
	slices.SortFunc(l.Packs, func(a, b LockEntry) int { return strings.Compare(a.Name, b.Name) })
}

// Keep drops the entries whose names keep does not accept.
func (l *Lock) Keep(keep func(name string) bool) {
	l.Packs = slices.DeleteFunc(l.Packs, func(e LockEntry) bool { return !keep(e.Name) })
}

// Equal reports whether two locks pin the same packs the same way.
func (l *Lock) Equal(o *Lock) bool { return slices.Equal(l.Packs, o.Packs) }

// Clone returns a copy of l that shares nothing with it.
func (l *Lock) Clone() *Lock { return &Lock{Packs: slices.Clone(l.Packs)} }

const lockHeader = `# lessons.lock pins the team packs of config.yaml to exact commits.
# Written by "lessons sync" and "lessons update"; commit it with config.yaml.
`

// maxLockBytes caps a lock file; a real one is a few hundred bytes a pack.
const maxLockBytes = 1 << 20

// ReadLock reads the lock file at path; a missing file is an empty lock.
func ReadLock(path string) (*Lock, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Lock{}, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseLock(path, data)
}

// ParseLock decodes a lock file; name is used in errors.
func ParseLock(name string, data []byte) (*Lock, error) {
	if len(data) > maxLockBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, maxLockBytes)
	}
	var l Lock
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&l); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i, e := range l.Packs {
		if e.Name == "" || e.URL == "" || e.Commit == "" {
			return nil, fmt.Errorf("%s: packs[%d] needs name, url and commit", name, i)
		}
	}
	return &l, nil
}

// Marshal encodes the lock file, entries sorted by name.
func (l *Lock) Marshal() []byte {
	sorted := l.Clone()
	slices.SortFunc(sorted.Packs, func(a, b LockEntry) int { return strings.Compare(a.Name, b.Name) })
	var buf bytes.Buffer
	buf.WriteString(lockHeader)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	_ = enc.Encode(sorted) // a struct of strings always encodes
	return buf.Bytes()
}

// WriteLock replaces the lock file at path atomically.
func WriteLock(path string, l *Lock) error {
	return scope.WriteFileAtomic(path, l.Marshal(), 0o644)
}
