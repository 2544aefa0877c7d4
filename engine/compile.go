package engine

import (
	"fmt"
	"hash/crc32"
	"slices"
	"sort"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// Compile turns a merged view into a manifest. builtBy is the stamp of
// the binary that builds it (its built-in lessons are a source too); a
// zero stamp leaves it out. A lesson whose pattern no longer compiles is
// left out and named in the manifest's Warnings.
func Compile(m scope.Merged, builtBy scope.Stamp) (*Manifest, error) {
	var (
		recs     []record
		warnings []error
		tools    = map[string][]int{}
		globs    = map[string][]int{}
		start    []int
		errs     []errorLesson
		docs     []document
		members  []*lessons.Lesson
	)
	for _, r := range m.Active {
		rec, err := compileLesson(&r.Lesson, r.Scope, r.AllowBlock, m.Stack)
		if err != nil {
			warnings = append(warnings, fmt.Errorf("%s (%s): left out of the manifest: %w", r.Slug, r.Path, err))
			continue
		}
		i := len(recs)
		recs = append(recs, rec)
		members = append(members, &r.Lesson) // aggregates leave out lessons on an error
		if len(rec.errors) > 0 {
			// After a failure only: in no index a call or prompt reads.
			errs = append(errs, errorLesson{index: i, tools: r.Triggers.ImpliedTools(), patterns: rec.errors})
			docs = append(docs, document{})
			continue
		}
		for _, t := range r.Triggers.ImpliedTools() {
			if isToolPattern(t) {
				globs[t] = append(globs[t], i)
			} else {
				tools[t] = append(tools[t], i)
			}
		}
		if r.Triggers.SessionStart {
			start = append(start, i)
		}
		docs = append(docs, documentOf(&r.Lesson))
	}
	aggs, aggWarnings := aggregates(members, m.Config.AggregateMinLessons)
	warnings = append(warnings, aggWarnings...)
	sources := slices.Clone(m.Sources)
	if builtBy.Path != "" {
		sources = append(sources, builtBy)
	}
	data := encodeManifest(m, sources, recs, tools, globs, start, errs, docs, aggs)
	man, err := decodeManifest(data)
	if err != nil {
		return nil, fmt.Errorf("compiled manifest does not decode: %w", err)
	}
	man.warnings = warnings
	return man, nil
}

// compileLesson checks a lesson's patterns and lays out its record.
func compileLesson(l *lessons.Lesson, sc lessons.Scope, allowBlock bool, stack []string) (record, error) {
	rec := record{entry: Entry{
		ID: l.ID, Slug: l.Slug, Scope: sc,
		Priority: l.EffectivePriority(), Confidence: l.EffectiveConfidence(),
		Tags: l.Tags, Summary: l.Summary, SessionStart: l.Triggers.SessionStart && len(l.Triggers.Errors) == 0,
		Kind: l.EffectiveKind(),
		Text: l.Text() + packNote(sc),
	}}
	if l.Block && allowBlock && len(l.Triggers.Errors) == 0 { // after the call, nothing to refuse
		rec.entry.Block = true
		rec.entry.Decision = l.EffectiveDecision()
		rec.entry.BlockReason = l.BlockReason
	}
	rec.foreground = l.Triggers.Foreground
	for _, tag := range l.Tags {
		if slices.Contains(stack, tag) {
			rec.entry.StackBonus++
		}
	}
	for _, g := range l.Triggers.Paths {
		globs, err := lessons.ExpandBraces(g)
		if err != nil {
			return record{}, fmt.Errorf("path %q: %w", g, err)
		}
		rec.paths = append(rec.paths, globs...)
	}
	for _, k := range []struct {
		srcs []string
		into *[]pattern
	}{
		{l.Triggers.Commands, &rec.commands},
		{l.Triggers.Content, &rec.content},
		{l.Triggers.Unless, &rec.unless},
		{l.Triggers.Errors, &rec.errors},
	} {
		for _, src := range k.srcs {
			if err := lessons.CheckPattern(src); err != nil {
				return record{}, fmt.Errorf("pattern %q: %w", src, err)
			}
			*k.into = append(*k.into, newPattern(src))
		}
	}
	return rec, nil
}

func sortUnique[T interface{ ~int | ~string }](s []T) []T {
	slices.Sort(s)
	return slices.Compact(s)
}

func encodeManifest(m scope.Merged, sources []scope.Stamp, recs []record,
	tools, globs map[string][]int, start []int, errs []errorLesson, docs []document, aggs []Aggregate) []byte {
	e := &encoder{b: make([]byte, 0, 64<<10)}
	e.b = append(e.b, magic...)
	e.u32(formatVersion)
	e.b = append(e.b, make([]byte, headerSize-len(e.b))...) // the checksums, length and offsets, once the rest is written
	mark := func(sec int) { e.putU32(secAt+4*sec, uint32(len(e.b))) }

	mark(secMeta)
	e.str(m.Project)
	e.int(len(sources))
	for _, s := range sources {
		e.str(s.Path)
		e.varint(s.Size)
		e.varint(s.ModTime)
		e.bool(s.Missing)
	}
	encodeConfig(e, m.Config)
	e.strs(m.Stack)
	e.int(len(recs))

	mark(secTools)
	encodeIndex(e, tools)
	mark(secGlobs)
	encodeIndex(e, globs)
	mark(secStart)
	encodeIndexList(e, start)
	mark(secTerms)
	encodeTerms(e, docs)
	mark(secAggregates)
	encodeAggregates(e, aggs)
	mark(secErrors)
	encodeErrorLessons(e, errs)

	mark(secTable)
	tableAt := len(e.b)
	e.b = append(e.b, make([]byte, 8*len(recs))...)
	for i := range recs {
		e.putU32(tableAt+8*i, uint32(len(e.b)))
		recs[i].encodeTriggers(e)
	}
	entries := len(e.b)
	for i := range recs {
		e.putU32(tableAt+8*i+4, uint32(len(e.b)))
		recs[i].encodeEntry(e)
	}
	e.putU32(entriesCRCAt, crc32.ChecksumIEEE(e.b[entries:]))
	e.putU32(lengthAt, uint32(len(e.b)))
	e.putU32(entriesAt, uint32(entries))
	e.putU32(crcAt, crc32.ChecksumIEEE(e.b[entriesCRCAt:entries]))
	return e.b
}

func encodeIndex(e *encoder, index map[string][]int) {
	names := make([]string, 0, len(index))
	for name := range index {
		names = append(names, name)
	}
	sort.Strings(names)
	e.int(len(names))
	for _, name := range names {
		e.str(name)
		encodeIndexList(e, index[name])
	}
}
