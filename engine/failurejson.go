package engine

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// marshal is json.Marshal(f), byte for byte, without encoding/json's
// first-use cost (its field cache and encoder code, about 0.1 ms of a
// PostToolUseFailure that records the failure).
func (f failure) marshal() []byte {
	b := make([]byte, 0, 64+len(f.Family)+len(f.Command)+len(f.Error)+len(f.Project))
	b = append(b, `{"family":`...)
	b = appendJSONString(b, f.Family)
	b = append(b, `,"command":`...)
	b = appendJSONString(b, f.Command)
	b = append(b, `,"error":`...)
	b = appendJSONString(b, f.Error)
	b = append(b, `,"limit":`...)
	b = strconv.AppendInt(b, int64(f.Limit), 10)
	if f.Project != "" {
		b = append(b, `,"project":`...)
		b = appendJSONString(b, f.Project)
	}
	return append(b, '}')
}

// unmarshalFailure is json.Unmarshal into a failure, without its
// first-use cost (as marshal's, most of it the reflection over the
// type's fields) on a record as marshal writes it: the success that
// answers a failure reads one. A record that is not plain (see
// plainFields; a limit that is not an integer) goes to encoding/json, so
// the result and the error are always its.
func unmarshalFailure(data []byte) (failure, error) {
	var f failure
	str := func(s *string) func(*plainReader) {
		return func(r *plainReader) { *s = r.stringValue() }
	}
	if plainFields(data, map[string]func(*plainReader){
		"family":  str(&f.Family),
		"command": str(&f.Command),
		"error":   str(&f.Error),
		"project": str(&f.Project),
		"limit": func(r *plainReader) {
			n, err := strconv.Atoi(string(r.raw()))
			f.Limit = n
			r.ok = r.ok && err == nil
		},
	}) {
		return f, nil
	}
	var g failure
	err := json.Unmarshal(data, &g)
	return g, err
}

// appendJSONString appends s quoted as json.Marshal quotes a string:
// HTML's <, > and & escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029
// escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
