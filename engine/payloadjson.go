package engine

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// The hook decodes one payload a process, and encoding/json's first
// decode of a type (its field cache, its code paged in) costs about
// 0.2 ms, a third of what the hook adds to a Go process's start. So the
// payload and its tool_input are read by a decoder of their own when
// they are plain: an object whose keys are, byte for byte, fields of
// the type or no field's name in any case, each at most once, with
// values of the field's JSON type, and no string holding a surrogate
// \u escape or bytes that are not UTF-8. Anything else, valid or not,
// goes to encoding/json, so the result and the error are always its.

// maxPlainDepth bounds the nesting the plain decoder walks; deeper
// values go to encoding/json, which allows 10,000.
const maxPlainDepth = 200

// plainReader reads JSON from b at i; ok turns false at the first thing
// it leaves to encoding/json.
type plainReader struct {
	b  []byte
	i  int
	ok bool
}

func (r *plainReader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// next skips space and reports the next byte, 0 at the end.
func (r *plainReader) next() byte {
	r.space()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

// object reads an object, calling field with each key, the reader at
// its value; field must read the value.
func (r *plainReader) object(field func(key string)) {
	if r.next() != '{' {
		r.ok = false
		return
	}
	r.i++
	if r.next() == '}' {
		r.i++
		return
	}
	for r.ok {
		if r.next() != '"' {
			r.ok = false
			return
		}
		key := r.string()
		if !r.ok || r.next() != ':' {
			r.ok = false
			return
		}
		r.i++
		field(key)
		switch r.next() {
		case ',':
			r.i++
		case '}':
			r.i++
			return
		default:
			r.ok = false
		}
	}
}

// string reads a string at r.i, its escapes undone.
func (r *plainReader) string() string {
	r.i++ // the opening quote
	start := r.i
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			s := r.b[start:r.i]
			r.i++
			if !utf8.Valid(s) {
				r.ok = false
				return ""
			}
			return string(s)
		case c == '\\':
			return r.escaped(start)
		case c < 0x20:
			r.ok = false
			return ""
		}
		r.i++
	}
	r.ok = false
	return ""
}

// escaped reads the rest of a string that has an escape at r.i. Runs
// of plain bytes are copied whole into a builder sized once, whose
// bytes become the string without a copy: a 4 KB prompt full of \n
// escapes was copied byte by byte, growing its buffer a dozen times.
func (r *plainReader) escaped(start int) string {
	end := r.i // the closing quote, at most: escapes only shrink
	for end < len(r.b) && r.b[end] != '"' {
		if r.b[end] == '\\' {
			end++
		}
		end++
	}
	var buf strings.Builder
	buf.Grow(min(end, len(r.b)) - start)
	buf.Write(r.b[start:r.i])
	for r.i < len(r.b) {
		run := r.i
		for run < len(r.b) && r.b[run] >= 0x20 && r.b[run] != '"' && r.b[run] != '\\' {
			run++
		}
		buf.Write(r.b[r.i:run])
		r.i = run
		if r.i == len(r.b) {
			break
		}
		switch c := r.b[r.i]; {
		case c == '"':
			r.i++
			if !utf8.ValidString(buf.String()) {
				r.ok = false
				return ""
			}
			return buf.String()
		case c < 0x20:
			r.ok = false
			return ""
		}
		if r.i+1 >= len(r.b) {
			break
		}
		r.i += 2
		switch e := r.b[r.i-1]; e {
		case '"', '\\', '/':
			buf.WriteByte(e)
		case 'b':
			buf.WriteByte('\b')
		case 'f':
			buf.WriteByte('\f')
		case 'n':
			buf.WriteByte('\n')
		case 'r':
			buf.WriteByte('\r')
		case 't':
			buf.WriteByte('\t')
		case 'u':
			v, ok := hex4(r.b[r.i:])
			if !ok || v >= 0xd800 && v < 0xe000 {
				r.ok = false // a surrogate: encoding/json pairs or replaces it
				return ""
			}
			buf.WriteRune(rune(v))
			r.i += 4
		default:
			r.ok = false
			return ""
		}
	}
	r.ok = false
	return ""
}

func hex4(b []byte) (int, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v := 0
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | int(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | int(c-'a'+10)
		case 'A' <= c && c <= 'F':
			v = v<<4 | int(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// raw reads any value and returns its bytes, as json.RawMessage holds
// them.
func (r *plainReader) raw() json.RawMessage {
	r.space()
	start := r.i
	r.skip(0)
	if !r.ok {
		return nil
	}
	return r.b[start:r.i:r.i]
}

// skip reads a value, checking its syntax.
func (r *plainReader) skip(depth int) {
	if depth > maxPlainDepth {
		r.ok = false
		return
	}
	switch c := r.next(); {
	case c == '"':
		r.string()
	case c == '{':
		r.object(func(string) { r.skip(depth + 1) })
	case c == '[':
		r.array(func() { r.skip(depth + 1) })
	case c == 't':
		r.literal("true")
	case c == 'f':
		r.literal("false")
	case c == 'n':
		r.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		r.number()
	default:
		r.ok = false
	}
}

// array reads an array, calling elem with the reader at each element.
func (r *plainReader) array(elem func()) {
	r.i++ // [
	if r.next() == ']' {
		r.i++
		return
	}
	for r.ok {
		elem()
		switch r.next() {
		case ',':
			r.i++
		case ']':
			r.i++
			return
		default:
			r.ok = false
		}
	}
}

func (r *plainReader) literal(word string) {
	if len(r.b)-r.i < len(word) || string(r.b[r.i:r.i+len(word)]) != word {
		r.ok = false
		return
	}
	r.i += len(word)
}

// number reads -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?
func (r *plainReader) number() {
	digits := func() int {
		n := 0
		for r.i < len(r.b) && '0' <= r.b[r.i] && r.b[r.i] <= '9' {
			r.i++
			n++
		}
		return n
	}
	if r.b[r.i] == '-' {
		r.i++
	}
	switch {
	case r.i < len(r.b) && r.b[r.i] == '0':
		r.i++
	case digits() == 0:
		r.ok = false
		return
	}
	if r.i < len(r.b) && r.b[r.i] == '.' {
		r.i++
		if digits() == 0 {
			r.ok = false
			return
		}
	}
	if r.i < len(r.b) && (r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		r.i++
		if r.i < len(r.b) && (r.b[r.i] == '+' || r.b[r.i] == '-') {
			r.i++
		}
		if digits() == 0 {
			r.ok = false
		}
	}
}

// stringValue reads a value that must be a string.
func (r *plainReader) stringValue() string {
	if r.next() != '"' {
		r.ok = false
		return ""
	}
	return r.string()
}

// plainFields reads a plain object into fields: to[key] reads the value
// of an exact key; a key that is no field's name in any case is
// skipped. A key seen twice, or one that matches a field only in
// another case, leaves the object to encoding/json. The whole input
// must be the object.
func plainFields(data []byte, to map[string]func(r *plainReader)) bool {
	r := &plainReader{b: data, ok: true}
	seen := make(map[string]bool, 8)
	r.object(func(key string) {
		read, known := to[key]
		switch {
		case seen[key]:
			r.ok = false
		case known:
			seen[key] = true
			read(r)
		case foldsToField(key, to):
			r.ok = false
		default:
			r.skip(1)
		}
	})
	r.space()
	return r.ok && r.i == len(r.b)
}

// foldsToField reports whether encoding/json could match key to a
// field by case folding. Keys outside ASCII are taken to, as its
// folding covers the Kelvin sign and the long s.
func foldsToField(key string, to map[string]func(r *plainReader)) bool {
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			return true
		}
	}
	for name := range to {
		if len(name) == len(key) && asciiEqualFold(name, key) {
			return true
		}
	}
	return false
}

func asciiEqualFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// decodePayload decodes a payload as json.Unmarshal into a Payload does.
func decodePayload(data []byte, p *Payload) error {
	if plainPayload(data, p) {
		return nil
	}
	return json.Unmarshal(data, p)
}

// plainPayload decodes a plain payload into p, and reports whether it
// was one; p is left alone when not.
func plainPayload(data []byte, p *Payload) bool {
	var q Payload
	str := func(f *string) func(*plainReader) {
		return func(r *plainReader) { *f = r.stringValue() }
	}
	raw := func(f *json.RawMessage) func(*plainReader) {
		return func(r *plainReader) { *f = r.raw() }
	}
	if plainFields(data, map[string]func(*plainReader){
		"session_id":      str(&q.SessionID),
		"transcript_path": str(&q.TranscriptPath),
		"cwd":             str(&q.Cwd),
		"permission_mode": str(&q.PermissionMode),
		"hook_event_name": str(&q.HookEventName),
		"tool_name":       str(&q.ToolName),
		"tool_input":      raw(&q.ToolInput),
		"tool_use_id":     str(&q.ToolUseID),
		"source":          str(&q.Source),
		"prompt":          str(&q.Prompt),
		"agent_id":        str(&q.AgentID),
		"agent_type":      str(&q.AgentType),
		"timestamp":       str(&q.Timestamp),
		"turn_id":         str(&q.TurnID),
		"tool_response":   raw(&q.ToolResponse),
		"error":           raw(&q.Error),
		"is_interrupt": func(r *plainReader) {
			switch r.next() {
			case 't':
				r.literal("true")
				q.IsInterrupt = true
			case 'f':
				r.literal("false")
			default:
				r.ok = false
			}
		},
		// Antigravity CLI's fields: its payloads go to UnmarshalJSON.
		"conversationId": func(r *plainReader) { r.ok = false },
		"workspacePaths": func(r *plainReader) { r.ok = false },
		"toolCall":       func(r *plainReader) { r.ok = false },
	}) {
		*p = q
		return true
	}
	return false
}

// decodeToolInput decodes a tool_input as json.Unmarshal into a
// toolInput does.
func decodeToolInput(data []byte, in *toolInput) error {
	if plainToolInput(data, in) {
		return nil
	}
	return json.Unmarshal(data, in)
}

// plainToolInput decodes a plain tool_input into in, and reports
// whether it was one; lists (paths, edits) go to encoding/json.
func plainToolInput(data []byte, in *toolInput) bool {
	var t toolInput
	str := func(f *string) func(*plainReader) {
		return func(r *plainReader) { *f = r.stringValue() }
	}
	raw := func(f *json.RawMessage) func(*plainReader) {
		return func(r *plainReader) { *f = r.raw() }
	}
	bail := func(r *plainReader) { r.ok = false }
	if plainFields(data, map[string]func(*plainReader){
		"command":           raw(&t.Command),
		"cmd":               raw(&t.Cmd),
		"file_path":         str(&t.FilePath),
		"filePath":          str(&t.FilePathCC),
		"path":              str(&t.Path),
		"dir_path":          str(&t.DirPath),
		"absolute_path":     str(&t.AbsolutePath),
		"notebook_path":     str(&t.NotebookPath),
		"paths":             bail,
		"content":           str(&t.Content),
		"new_string":        str(&t.NewString),
		"newString":         str(&t.NewStringCC),
		"new_source":        str(&t.NewSource),
		"patchText":         str(&t.PatchText),
		"edits":             bail,
		"run_in_background": raw(&t.RunInBackground),
		"is_background":     raw(&t.IsBackground),
		"timeout_ms":        raw(&t.TimeoutMs),
	}) {
		*in = t
		return true
	}
	return false
}

// jsonString reads raw as a JSON string, as json.Unmarshal into a
// string does; ok is false when raw is not one.
func jsonString(raw []byte) (s string, ok bool) {
	r := &plainReader{b: raw, ok: true}
	if r.next() == '"' {
		s = r.string()
		r.space()
		if r.ok && r.i == len(r.b) {
			return s, true
		}
	}
	err := json.Unmarshal(raw, &s)
	return s, err == nil
}
