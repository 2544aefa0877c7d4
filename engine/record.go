package engine

import (
	lessons "github.com/lessons-dev/lessons"
)

// A lesson is stored in two parts. Its triggers, which matching reads,
// lie with every other lesson's triggers, so scanning a tool's lessons
// touches a few pages of the manifest, not their texts:
//
//	flags:    a uvarint, bit 0 foreground (the call must not run in the
//	          background)
//	paths:    globs (braces expanded)
//	commands: patterns, each its source and its prefilter
//	content:  patterns
//	unless:   patterns
//
// Its entry, read only for lessons that matched, holds the Entry fields
// in declaration order.
//
// A prefilter is a kind byte (0 none, 1 case-sensitive, 2 lower-cased),
// then its clauses, each a list of literals.

// Entry is one lesson of a manifest as the hook shows it.
type Entry struct {
	Index      int           `json:"-"`
	ID         string        `json:"id"`
	Slug       string        `json:"slug"`
	Scope      lessons.Scope `json:"scope"`
	Priority   int           `json:"priority"`
	Confidence float64       `json:"confidence"`
	// StackBonus is how many of the lesson's tags match the project's
	// stack; ranking adds it to the priority.
	StackBonus int      `json:"stackBonus,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	// Block is set only when the lesson's store may block.
	Block       bool             `json:"block,omitempty"`
	Decision    lessons.Decision `json:"decision,omitempty"`
	BlockReason string           `json:"blockReason,omitempty"`
	// Kind is the lesson's effective kind: pitfall or hazard.
	Kind    lessons.Kind `json:"kind"`
	Summary string       `json:"summary"`
	// Text is the injection text, naming the pack for a pack lesson.
	Text         string `json:"text"`
	SessionStart bool   `json:"sessionStart,omitempty"`
}

// Reason is the block reason with {command} substituted.
func (e *Entry) Reason(command string) string {
	l := lessons.Lesson{Summary: e.Summary, BlockReason: e.BlockReason}
	return l.Reason(command)
}

// Short is the summary-only text a lesson falls back to when its full
// text does not fit the budget.
func (e *Entry) Short() string {
	return "## Lesson: " + e.Summary + packNote(e.Scope)
}

func packNote(s lessons.Scope) string {
	if name := s.Pack(); name != "" {
		return "\n(from team pack " + name + ")"
	}
	return ""
}

// pattern is a trigger regex as Compile writes it.
type pattern struct {
	src string
	pf  prefilter
	ok  bool // pf is usable
}

func newPattern(src string) pattern {
	pf, ok := extractPrefilter(src)
	return pattern{src: src, pf: pf, ok: ok}
}

// record is a lesson as Compile writes it.
type record struct {
	paths                     []string
	commands, content, unless []pattern
	// errors are written to the errors section, not with the triggers.
	errors []pattern
	// foreground: the lesson matches no call run in the background.
	foreground bool
	entry      Entry
}

// Trigger flags, the first value of a record's triggers.
const flagForeground = 1

func (r *record) encodeTriggers(e *encoder) {
	flags := 0
	if r.foreground {
		flags |= flagForeground
	}
	e.int(flags)
	e.strs(r.paths)
	for _, list := range [][]pattern{r.commands, r.content, r.unless} {
		e.int(len(list))
		for _, p := range list {
			e.str(p.src)
			encodePrefilter(e, p)
		}
	}
}

func (r *record) encodeEntry(e *encoder) {
	x := &r.entry
	e.str(x.ID)
	e.str(x.Slug)
	e.str(string(x.Scope))
	e.int(x.Priority)
	e.f64(x.Confidence)
	e.int(x.StackBonus)
	e.strs(x.Tags)
	e.bool(x.Block)
	e.str(string(x.Decision))
	e.str(x.BlockReason)
	e.str(string(x.Kind))
	e.str(x.Summary)
	e.str(x.Text)
	e.bool(x.SessionStart)
}

func encodePrefilter(e *encoder, p pattern) {
	switch {
	case !p.ok:
		e.byte(0)
		return
	case p.pf.fold:
		e.byte(2)
	default:
		e.byte(1)
	}
	e.int(len(p.pf.clauses))
	for _, c := range p.pf.clauses {
		e.strs(c)
	}
}

func skipPrefilter(d *decoder) {
	if d.byte() == 0 {
		return
	}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		for k := d.count(); k > 0 && d.err == nil; k-- {
			d.skip()
		}
	}
}

// Entry decodes lesson i.
func (m *Manifest) Entry(i int) (Entry, error) {
	rec, err := m.part(i, 1)
	if err != nil {
		return Entry{}, err
	}
	d := decoder{b: rec}
	x := decodeEntry(&d)
	x.Index = i
	return x, d.err
}

func decodeEntry(d *decoder) Entry {
	return Entry{
		ID:           d.str(),
		Slug:         d.str(),
		Scope:        lessons.Scope(d.str()),
		Priority:     d.int(),
		Confidence:   d.f64(),
		StackBonus:   d.int(),
		Tags:         d.strs(),
		Block:        d.bool(),
		Decision:     lessons.Decision(d.str()),
		BlockReason:  d.str(),
		Kind:         lessons.Kind(d.str()),
		Summary:      d.str(),
		Text:         d.str(),
		SessionStart: d.bool(),
	}
}
