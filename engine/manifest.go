package engine

import (
	"fmt"
	"hash/crc32"
	"os"
	"runtime/debug"
	"slices"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// The manifest file starts with magic, a format version, two CRC-32s
// (IEEE, computed with carry-less multiply where the CPU has it, and with
// no table to build at start-up, unlike CRC-32C), the file's length,
// where the lessons' entries begin, and the offsets of its sections, all
// fixed-width little endian:
//
//	"LESSONSM" | version u32 | index crc u32 | entries crc u32 |
//	length u32 | entries u32 | offset u32 × numSections
//
// The index CRC covers the header after it and everything up to the
// entries, and is checked when the manifest opens; the entries CRC
// covers the entries, 80% of the file, and is checked when the first
// entry is read: a call no lesson matches never reads them. A shorter or
// longer file than its length fails at open.
//
// Sections hold uvarints and length-prefixed strings:
//
//	meta:    project, source stamps, config, stack tags, lesson count
//	tools:   per canonical tool name, the indices of its lessons
//	globs:   per tool pattern (mcp__x__*), the indices of its lessons
//	start:   indices of sessionStart lessons
//	terms:   BM25 postings (index, weight) per term, sorted for search
//	aggs:    per tool tag with enough lessons, its aggregated text and
//	         the indices of its lessons
//	errors:  lessons with error triggers, their tools and error
//	         patterns (see errorindex.go)
//	table:   per lesson, u32 offsets of its triggers and its entry
//	triggers, then entries: see record.go
//
// Only meta is decoded when the manifest opens; the rest is read where
// the hook's call points.
const (
	magic         = "LESSONSM"
	formatVersion = 11
	// maxManifest caps what Open reads: 10,000 lessons take about 1 MB.
	maxManifest = 64 << 20
)

const (
	secMeta = iota
	secTools
	secGlobs
	secStart
	secTerms
	secAggregates
	secErrors
	secTable
	numSections
)

const (
	crcAt        = len(magic) + 4
	entriesCRCAt = crcAt + 4
	lengthAt     = entriesCRCAt + 4
	entriesAt    = lengthAt + 4
	secAt        = entriesAt + 4
	headerSize   = secAt + 4*numSections
)

// Manifest is a compiled, read-only view of the lessons that apply to one
// project. Its lessons are decoded only when asked for.
type Manifest struct {
	// Project is the project root, "" outside any project.
	Project string
	// Config is the merged configuration at build time; the hook applies
	// LESSONS_* variables on top of it.
	Config lessons.Config
	// Stack are the project's stack tags, e.g. "lang:go".
	Stack []string
	// Sources are the stamps Fresh checks.
	Sources []scope.Stamp

	data     []byte
	sec      [numSections]int
	count    int
	release  func() error
	warnings []error
	// path is the file, "" for a manifest compiled in memory.
	path string
	// entries is where the entries begin; entriesCRC their checksum,
	// checked (entriesChecked) when the first is read.
	entries        int
	entriesCRC     uint32
	entriesChecked bool
}

// Open opens the manifest at path. The error wraps fs.ErrNotExist when
// there is none, and says the manifest is corrupt when it is not a regular
// file, is too large, fails its checksum (a torn or truncated copy),
// changes size while it is read, or does not decode: a rebuild fixes each.
func Open(path string) (*Manifest, error) {
	data, release, err := mapManifest(path, maxManifest)
	if err != nil {
		return nil, err
	}
	m, err := decodeGuarded(data)
	if err != nil {
		_ = release()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.release, m.path = release, path
	return m, nil
}

// decodeGuarded decodes a mapped manifest, turning the fault of a page
// the file no longer has (it shrank under the mapping) into errCorrupt.
func decodeGuarded(data []byte) (m *Manifest, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			m, err = nil, fmt.Errorf("the file changed while it was read: %w", errCorrupt)
		}
	}()
	return decodeManifest(data)
}

// Close releases the manifest's memory; its entries stay valid, but the
// manifest may not be used after.
func (m *Manifest) Close() error {
	if m.release == nil {
		return nil
	}
	err := m.release()
	m.release, m.data = nil, nil
	return err
}

// Fresh reports whether no source changed since the manifest was built:
// one stat per source.
func (m *Manifest) Fresh() bool { return scope.Fresh(m.Sources) }

// Len is the number of lessons in the manifest.
func (m *Manifest) Len() int { return m.count }

// Warnings name the lessons Compile left out; they are not stored.
func (m *Manifest) Warnings() []error { return m.warnings }

func decodeManifest(data []byte) (*Manifest, error) {
	if len(data) < headerSize || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("not a lessons manifest: %w", errCorrupt)
	}
	d := decoder{b: data, off: len(magic)}
	if v := d.u32(); v != formatVersion {
		return nil, fmt.Errorf("manifest format %d, want %d: %w", v, formatVersion, errCorrupt)
	}
	sum := d.u32()
	m := &Manifest{data: data, entriesCRC: d.u32()}
	if n := d.u32(); int(n) != len(data) {
		return nil, fmt.Errorf("%d bytes, written with %d (torn or truncated): %w", len(data), n, errCorrupt)
	}
	m.entries = int(d.u32())
	if m.entries < headerSize || m.entries > len(data) {
		return nil, errCorrupt
	}
	if sum != crc32.ChecksumIEEE(data[entriesCRCAt:m.entries]) {
		return nil, fmt.Errorf("checksum mismatch (torn or truncated): %w", errCorrupt)
	}
	for i := range m.sec {
		m.sec[i] = int(d.u32())
		if m.sec[i] < headerSize || m.sec[i] > m.entries {
			return nil, errCorrupt
		}
	}
	d.off = m.sec[secMeta]
	m.Project = d.str()
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		m.Sources = append(m.Sources, scope.Stamp{
			Path: d.str(), Size: d.varint(), ModTime: d.varint(), Missing: d.bool(),
		})
	}
	m.Config = decodeConfig(&d)
	m.Stack = d.strs()
	m.count = d.count()
	if d.err == nil && m.sec[secTable]+8*m.count > len(data) {
		return nil, errCorrupt
	}
	return m, d.err
}

func encodeConfig(e *encoder, c lessons.Config) {
	e.int(c.InjectionBudgetBytes)
	e.int(c.MaxLessonsPerInjection)
	e.f64(c.MinConfidence)
	e.int(c.MinPriority)
	e.int(c.CompactionReinjectionThreshold)
	e.f64(c.PromptMinScore)
	e.str(c.PromptLessons)
	e.int(c.ScanIntervalMinutes)
	e.strs(c.ScanPaths)
	e.int(c.AggregateMinLessons)
	e.bool(c.InjectAggregates)
	e.int(c.Nudges())
	e.int(c.Again())
}

// decodeConfig reads what the hook uses; disable and packs were applied
// when the manifest was built.
func decodeConfig(d *decoder) lessons.Config {
	return lessons.Config{
		InjectionBudgetBytes:           d.int(),
		MaxLessonsPerInjection:         d.int(),
		MinConfidence:                  d.f64(),
		MinPriority:                    d.int(),
		CompactionReinjectionThreshold: d.int(),
		PromptMinScore:                 d.f64(),
		PromptLessons:                  d.str(),
		ScanIntervalMinutes:            d.int(),
		ScanPaths:                      d.strs(),
		AggregateMinLessons:            d.int(),
		InjectAggregates:               d.bool(),
		CaptureNudges:                  new(d.int()),
		SayAgain:                       new(d.int()),
	}
}

// part returns the bytes of lesson i's triggers (part 0) or entry
// (part 1). The table holds both offsets of each lesson; triggers are laid
// out in order, then entries, so each part ends where the next begins.
func (m *Manifest) part(i, part int) ([]byte, error) {
	if i < 0 || i >= m.count {
		return nil, fmt.Errorf("lesson %d of %d: %w", i, m.count, errCorrupt)
	}
	at := func(j, p int) int {
		if j == m.count {
			if p == 0 {
				j, p = 0, 1 // the triggers end where the first entry begins
			} else {
				return len(m.data)
			}
		}
		d := decoder{b: m.data, off: m.sec[secTable] + 8*j + 4*p}
		return int(d.u32())
	}
	start, end := at(i, part), at(i+1, part)
	if start < headerSize || start > end || end > len(m.data) || part == 0 && end > m.entries || part == 1 && start < m.entries {
		return nil, errCorrupt
	}
	if part == 1 && !m.entriesChecked {
		if err := m.checkEntries(); err != nil {
			return nil, err
		}
	}
	return m.data[start:end], nil
}

// checkEntries checks the entries' checksum, the first time one is
// read. A manifest that fails it is removed, so the next call rebuilds
// it, as one that fails at open is rebuilt.
func (m *Manifest) checkEntries() error {
	if crc32.ChecksumIEEE(m.data[m.entries:]) != m.entriesCRC {
		if m.path != "" {
			_ = os.Remove(m.path)
		}
		return fmt.Errorf("%s: the lessons' entries fail their checksum (torn or overwritten): %w", m.path, errCorrupt)
	}
	m.entriesChecked = true
	return nil
}

// indexList decodes a list of delta-encoded lesson indices at d.
func indexList(d *decoder, into []int) []int {
	n, prev := d.count(), 0
	// Room for all n at once, not grown from nothing: a Bash call's
	// candidates are hundreds, and each growth was a new allocation of a
	// new size, its memory paged in. Each index takes a byte at least.
	into = slices.Grow(into, min(n, len(d.b)-d.off))
	for i := 0; i < n && d.err == nil; i++ {
		prev += int(d.uvarint())
		into = append(into, prev)
	}
	return into
}

func encodeIndexList(e *encoder, idx []int) {
	e.int(len(idx))
	prev := 0
	for _, i := range idx {
		e.int(i - prev)
		prev = i
	}
}

// candidates appends the indices of lessons whose tools name tool, or a
// pattern matching it, sorted and without repeats.
func (m *Manifest) candidates(tool string, into []int) ([]int, error) {
	d := decoder{b: m.data, off: m.sec[secTools]}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		if string(d.raw()) == tool {
			into = indexList(&d, into)
			break
		}
		skipIndexList(&d)
	}
	g := decoder{b: m.data, off: m.sec[secGlobs]}
	globbed := false
	for n := g.count(); n > 0 && g.err == nil; n-- {
		if matchTool(string(g.raw()), tool) {
			into, globbed = indexList(&g, into), true
		} else {
			skipIndexList(&g)
		}
	}
	if d.err != nil || g.err != nil {
		return nil, errCorrupt
	}
	if globbed {
		into = sortUnique(into)
	}
	return into, nil
}

func skipIndexList(d *decoder) {
	for n := d.count(); n > 0 && d.err == nil; n-- {
		d.uvarint()
	}
}

// SessionStart lists the indices of lessons injected when a session
// starts.
func (m *Manifest) SessionStart() ([]int, error) {
	d := decoder{b: m.data, off: m.sec[secStart]}
	idx := indexList(&d, nil)
	return idx, d.err
}
