package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// value is a JSON value in a document, with the byte span it occupies.
// Objects keep their members in file order.
type value struct {
	kind       byte // '{', '[', '"', or 'x' for a number or literal
	start, end int  // src[start:end] is the value's text
	members    []member
	elems      []*value
	str        string // a string's decoded text
}

// member is one key and value of an object.
type member struct {
	key              string
	keyStart, keyEnd int
	val              *value
}

// get returns the value of key in an object, or nil.
func (v *value) get(key string) *value {
	if v == nil || v.kind != '{' {
		return nil
	}
	for _, m := range v.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// parser reads JSON with // and /* */ comments, which Gemini CLI allows
// in its settings, treating them as white space.
type parser struct {
	src []byte
	pos int
}

// parseJSON parses a whole document; only white space and comments may
// follow the value.
func parseJSON(src []byte) (*value, error) {
	p := &parser{src: src}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos != len(src) {
		return nil, p.errorf("unexpected %q after the value", src[p.pos])
	}
	return v, nil
}

func (p *parser) errorf(format string, args ...any) error {
	line := 1 + bytes.Count(p.src[:p.pos], []byte("\n"))
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// space skips white space and comments.
func (p *parser) space() error {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/':
			end := bytes.IndexByte(p.src[p.pos:], '\n')
			if end < 0 {
				p.pos = len(p.src)
			} else {
				p.pos += end
			}
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '*':
			end := bytes.Index(p.src[p.pos+2:], []byte("*/"))
			if end < 0 {
				return p.errorf("unterminated comment")
			}
			p.pos += end + 4
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) value() (*value, error) {
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos >= len(p.src) {
		return nil, p.errorf("unexpected end of the file")
	}
	switch p.src[p.pos] {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		return p.string()
	}
	start := p.pos
	for p.pos < len(p.src) && strings.IndexByte("+-.0123456789eEtrufalsn", p.src[p.pos]) >= 0 {
		p.pos++
	}
	if p.pos == start || !json.Valid(p.src[start:p.pos]) {
		return nil, p.errorf("invalid value")
	}
	return &value{kind: 'x', start: start, end: p.pos}, nil
}

func (p *parser) string() (*value, error) {
	start := p.pos
	p.pos++
	for p.pos < len(p.src) && p.src[p.pos] != '"' {
		if p.src[p.pos] == '\\' {
			p.pos++
		}
		p.pos++
	}
	if p.pos >= len(p.src) {
		return nil, p.errorf("unterminated string")
	}
	p.pos++
	v := &value{kind: '"', start: start, end: p.pos}
	if err := json.Unmarshal(p.src[start:p.pos], &v.str); err != nil {
		return nil, p.errorf("invalid string: %v", err)
	}
	return v, nil
}

func (p *parser) object() (*value, error) {
	v := &value{kind: '{', start: p.pos}
	err := p.items('}', func() error {
		key, err := p.string()
		if err != nil {
			return err
		}
		if err := p.space(); err != nil {
			return err
		}
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return p.errorf("expected : after key %q", key.str)
		}
		p.pos++
		val, err := p.value()
		if err != nil {
			return err
		}
		v.members = append(v.members, member{key: key.str, keyStart: key.start, keyEnd: key.end, val: val})
		return nil
	})
	if err != nil {
		return nil, err
	}
	v.end = p.pos
	return v, nil
}

func (p *parser) array() (*value, error) {
	v := &value{kind: '[', start: p.pos}
	err := p.items(']', func() error {
		e, err := p.value()
		if err != nil {
			return err
		}
		v.elems = append(v.elems, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	v.end = p.pos
	return v, nil
}

// items parses the comma-separated items of the object or array whose
// opening bracket p is at, through the closing bracket, calling item on
// each.
func (p *parser) items(closing byte, item func() error) error {
	p.pos++
	for first := true; ; first = false {
		if err := p.space(); err != nil {
			return err
		}
		if first && p.pos < len(p.src) && p.src[p.pos] == closing {
			break
		}
		if err := item(); err != nil {
			return err
		}
		if err := p.space(); err != nil {
			return err
		}
		if p.pos >= len(p.src) || p.src[p.pos] != ',' {
			break
		}
		p.pos++
	}
	if p.pos >= len(p.src) || p.src[p.pos] != closing {
		return p.errorf("expected , or %c", closing)
	}
	p.pos++
	return nil
}
