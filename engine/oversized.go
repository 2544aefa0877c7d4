package engine

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	lessons "github.com/lessons-dev/lessons"
)

// A payload over maxPayload is not parsed: the hook would hold all of it
// and more to decode it. It is still read, up to maxOversized bytes and
// for oversizedTime at most, through a JSON lexer that keeps only the
// text of its strings, one a line, in windows of oversizedWindow bytes
// that overlap by oversizedOverlap; each window is matched as a shell
// command against the built-in blocks. A refusal found there stands
// when the payload's small fields say the call is a PreToolUse of the
// shell; anything else gives up with "{}".
const (
	maxOversized     = 512 << 20
	oversizedTime    = 3 * time.Second
	oversizedWindow  = 1 << 20
	oversizedOverlap = 64 << 10
	// maxField caps a small field's value kept while lexing.
	maxField = 4 << 10
)

// oversized answers a payload over maxPayload, of which head was read and
// rest is the remainder.
func (r *run) oversized(head []byte, rest io.Reader) (any, error) {
	deadline := r.h.now().Add(oversizedTime)
	lx := newStringLexer()
	var blocks []Candidate // of the first window the built-in blocks refuse as a command
	window := func() {
		if blocks == nil {
			blocks = r.builtinBlocks(Call{Tool: "Bash", Command: string(lx.text)})
		}
		lx.keepTail(oversizedOverlap)
	}
	feed := func(b []byte) {
		for len(b) > 0 {
			n := min(len(b), oversizedWindow-len(lx.text))
			lx.feed(b[:n])
			b = b[n:]
			if len(lx.text) >= oversizedWindow {
				window()
			}
		}
	}
	feed(head)
	total, buf := len(head), make([]byte, 256<<10)
	var cut error
	for {
		if total > maxOversized || r.h.now().After(deadline) {
			cut = fmt.Errorf("not read to its end within %v and %d bytes", oversizedTime, maxOversized)
			break
		}
		n, err := rest.Read(buf)
		total += n
		feed(buf[:n])
		if err != nil {
			break
		}
	}
	window()
	f := lx.fields
	r.p.SessionID, r.p.Cwd, r.p.HookEventName = f["session_id"], f["cwd"], f["hook_event_name"]
	r.p.ToolName, r.p.Timestamp, r.p.TurnID = cmp.Or(f["tool_name"], f["toolCall.name"]), f["timestamp"], f["turn_id"]
	r.p.ConversationID = f["conversationId"]
	if r.pf = r.h.Platform; r.pf == nil {
		r.pf = Platforms[r.p.Recognise()]
	}
	r.sess = SessionOf(r.dirs.State, r.sessionKey())
	r.builtinTried = true // nothing more to learn from the payload
	if len(blocks) == 0 || lessons.CanonicalTool(r.p.ToolName) != "Bash" || !r.beforeCall() {
		return nil, errors.Join(fmt.Errorf("payload of %d bytes or more, over the %d-byte cap: not parsed, and no built-in block refuses it", total, maxPayload), cut)
	}
	r.builtinCands, r.builtinCall = blocks, Call{Tool: "Bash", Command: fmt.Sprintf("(a command in a %d-byte payload)", total)}
	out, _ := r.builtinAnswer()
	return out, nil
}

// stringLexer reads JSON a chunk at a time and keeps the decoded text
// of its strings, each on a line of its own, and the values of a few
// small fields (at the top level, or one object down as "parent.key").
// It does not validate: what is not a string is skipped.
type stringLexer struct {
	text     []byte
	inString bool
	esc      int // 0: none; 1: after a backslash; 2-5: reading \u's hex digits
	hex      rune
	// open are the open containers, each with the key it is the value
	// of; key is the current object's last key; isKey says the string
	// being read is a key; afterColon that a ':' came since the last key.
	open       []frame
	key        string
	isKey      bool
	afterColon bool
	cur        []byte
	fields     map[string]string
}

type frame struct {
	key   string
	array bool
}

func newStringLexer() *stringLexer {
	return &stringLexer{fields: map[string]string{}, text: make([]byte, 0, oversizedWindow+utf8.UTFMax)}
}

// keepTail drops the text but its last n bytes; an 'x' in front keeps a
// line cut in the middle from reading as the start of a command.
func (lx *stringLexer) keepTail(n int) {
	if len(lx.text) <= n {
		return
	}
	k := copy(lx.text[1:], lx.text[len(lx.text)-n:])
	lx.text[0] = 'x'
	lx.text = lx.text[:1+k]
}

func (lx *stringLexer) feed(b []byte) {
	for _, c := range b {
		if !lx.inString {
			lx.structural(c)
			continue
		}
		switch {
		case lx.esc == 1:
			lx.esc = 0
			switch c {
			case 'n':
				lx.emit('\n')
			case 't':
				lx.emit('\t')
			case 'r':
				lx.emit('\r')
			case 'b', 'f':
				lx.emit(' ')
			case 'u':
				lx.esc, lx.hex = 2, 0
			default: // \" \\ \/
				lx.emit(c)
			}
		case lx.esc >= 2:
			lx.hex = lx.hex<<4 | rune(hexVal(c))
			if lx.esc++; lx.esc == 6 {
				lx.esc = 0
				lx.text = utf8.AppendRune(lx.text, lx.hex)
				if len(lx.cur) <= maxField {
					lx.cur = utf8.AppendRune(lx.cur, lx.hex)
				}
			}
		case c == '\\':
			lx.esc = 1
		case c == '"':
			lx.inString = false
			lx.text = append(lx.text, '\n')
			lx.endString()
		default:
			lx.emit(c)
		}
	}
}

func (lx *stringLexer) emit(c byte) {
	lx.text = append(lx.text, c)
	if len(lx.cur) <= maxField {
		lx.cur = append(lx.cur, c)
	}
}

func (lx *stringLexer) structural(c byte) {
	switch c {
	case '"':
		lx.inString, lx.cur = true, lx.cur[:0]
		lx.isKey = !lx.afterColon && len(lx.open) > 0 && !lx.open[len(lx.open)-1].array
		lx.text = append(lx.text, '\n')
	case ':':
		lx.afterColon = true
	case ',':
		lx.afterColon = false
	case '{', '[':
		lx.open = append(lx.open, frame{key: lx.key, array: c == '['})
		lx.key, lx.afterColon = "", false
	case '}', ']':
		if n := len(lx.open); n > 0 {
			lx.key = lx.open[n-1].key
			lx.open = lx.open[:n-1]
		}
		lx.afterColon = false
	}
}

// endString keeps a key, or a small field's value.
func (lx *stringLexer) endString() {
	if lx.isKey {
		lx.key = string(lx.cur[:min(len(lx.cur), 64)])
		return
	}
	if len(lx.cur) > maxField || len(lx.open) == 0 || len(lx.open) > 2 || lx.open[len(lx.open)-1].array {
		return
	}
	name := lx.key
	if len(lx.open) == 2 {
		name = lx.open[1].key + "." + lx.key
	}
	if _, seen := lx.fields[name]; !seen && len(lx.fields) < 32 {
		lx.fields[name] = string(lx.cur)
	}
}

func hexVal(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}
