package scanner

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Most of a session log's bytes are tool output nobody here reads, so
// records are taken apart with these small helpers instead of a full
// decode: they walk the top level of an object, skipping nested values
// and strings with bytes.IndexByte, and the few values that matter are
// decoded on their own.

// eachField calls fn with every key and raw value at the top level of the
// JSON object b, until fn returns false. It reports false when b is not a
// well-formed object (fields seen before the damage were still reported).
func eachField(b []byte, fn func(key, val []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			return true
		}
		if b[i] == ',' {
			i++
			continue
		}
		if b[i] != '"' {
			return false
		}
		end, ok := skipString(b, i)
		if !ok {
			return false
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		vend, ok := skipValue(b, i)
		if !ok {
			return false
		}
		if !fn(key, b[i:vend]) {
			return true
		}
		i = vend
	}
}

// field returns the raw value of key at the top level of object b, or nil.
func field(b []byte, key string) []byte {
	var out []byte
	eachField(b, func(k, v []byte) bool {
		if string(k) == key {
			out = v
			return false
		}
		return true
	})
	return out
}

// fields returns the raw values of keys at the top level of object b, in
// the order of keys; missing keys are nil.
func fields(b []byte, keys ...string) [][]byte {
	out := make([][]byte, len(keys))
	left := len(keys)
	eachField(b, func(k, v []byte) bool {
		for j, want := range keys {
			if out[j] == nil && string(k) == want {
				out[j] = v
				left--
				break
			}
		}
		return left > 0
	})
	return out
}

// eachElem calls fn with every raw element of the JSON array b.
func eachElem(b []byte, fn func(val []byte)) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] == ']' {
			return
		}
		if b[i] == ',' {
			i++
			continue
		}
		end, ok := skipValue(b, i)
		if !ok {
			return
		}
		fn(b[i:end])
		i = end
	}
}

// eachKeyValue calls fn with the raw value of every member named key, at
// any depth of b, however the writer spaced it ("k":v, "k" : v). It finds
// them by a byte search for the quoted name followed by a colon, so it
// reads records too large to decode whole for the one field that matters;
// a value that is not well formed ends the search.
func eachKeyValue(b []byte, key string, fn func(val []byte)) {
	quoted := []byte(`"` + key + `"`)
	for {
		i := bytes.Index(b, quoted)
		if i < 0 {
			return
		}
		j := skipSpace(b, i+len(quoted))
		if j >= len(b) || b[j] != ':' {
			b = b[i+len(quoted):] // the name as a string value, not a key
			continue
		}
		j = skipSpace(b, j+1)
		end, ok := skipValue(b, j)
		if !ok {
			return
		}
		fn(b[j:end])
		b = b[end:]
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string that opens at b[i].
func skipString(b []byte, i int) (int, bool) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b), false
		}
		j += k
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		j++
		if n%2 == 0 {
			return j, true
		}
	}
}

// skipValue returns the index just past the value that starts at b[i].
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, ok := skipString(b, i)
				if !ok {
					return end, false
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return i, false
	default:
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\n' && b[j] != '\t' && b[j] != '\r' {
			j++
		}
		return j, j > i
	}
}

// str decodes a raw JSON string; anything else gives "".
func str(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	return unquote(inner)
}

// unquote decodes the escapes of a JSON string's inside. Invalid escapes
// are kept as they are: a damaged record still yields its text.
func unquote(in []byte) string {
	var b strings.Builder
	b.Grow(len(in))
	for len(in) > 0 {
		i := bytes.IndexByte(in, '\\')
		if i < 0 || i == len(in)-1 {
			b.Write(in)
			break
		}
		b.Write(in[:i])
		c := in[i+1]
		in = in[i+2:]
		switch c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			r, n := hexRune(in)
			in = in[n:]
			if utf16.IsSurrogate(r) && len(in) >= 6 && in[0] == '\\' && in[1] == 'u' {
				if r2, n2 := hexRune(in[2:]); n2 == 4 {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
						in = in[6:]
					}
				}
			}
			b.WriteRune(r)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func hexRune(in []byte) (rune, int) {
	if len(in) < 4 {
		return utf8.RuneError, 0
	}
	var r rune
	for _, c := range in[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return utf8.RuneError, 0
		}
	}
	return r, 4
}

// isTrue reports whether a raw value is the literal true.
func isTrue(raw []byte) bool { return string(raw) == "true" }

// integer decodes a raw JSON number (or numeric string) as an int, or
// returns def.
func integer(raw []byte, def int) int {
	s := string(raw)
	if len(raw) >= 2 && raw[0] == '"' {
		s = string(raw[1 : len(raw)-1])
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return int(f)
	}
	return def
}

// text flattens a raw content value that is a string or an array of
// {text} parts (the shapes every format uses for message content).
func text(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		return str(raw)
	}
	var parts []string
	eachElem(raw, func(el []byte) {
		if len(el) > 0 && el[0] == '"' {
			parts = append(parts, str(el))
			return
		}
		if t := field(el, "text"); t != nil {
			parts = append(parts, str(t))
		}
	})
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	var buf bytes.Buffer
	for i, p := range parts {
		if i > 0 {
			buf.WriteByte('\n')
		}
		buf.WriteString(p)
	}
	return buf.String()
}
