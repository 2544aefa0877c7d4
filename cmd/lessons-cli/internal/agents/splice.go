package agents

import (
	"bytes"
	"encoding/json"
	"strings"
)

// style is how a document lays out its values, learned from the document
// so that what lessons adds looks like what is already there.
type style struct {
	compact bool   // the document is on one line
	unit    string // one level of indentation
	colon   string // between a key and its value
}

// styleOf reads the layout of a document from its root object.
func styleOf(src []byte, root *value) style {
	s := style{unit: "  ", colon: ": "}
	if len(root.members) == 0 {
		return s
	}
	first := root.members[0]
	if !bytes.Contains(src[root.start:root.end], []byte("\n")) {
		s.compact, s.colon = true, ":"
	} else if ind := lineIndent(src, first.keyStart); ind != "" {
		s.unit = ind
	}
	if c := strings.TrimSpace(string(src[first.keyEnd:first.val.start])); c == ":" {
		s.colon = string(src[first.keyEnd:first.val.start])
	}
	return s
}

// lineIndent is the white space that starts the line holding pos.
func lineIndent(src []byte, pos int) string {
	start := bytes.LastIndexByte(src[:pos], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// render encodes v as JSON laid out in the document's style, its lines
// after the first indented by indent.
func (s style) render(v any, indent string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if !s.compact {
		enc.SetIndent(indent, s.unit)
	}
	_ = enc.Encode(v) // our own values always encode
	return strings.TrimSuffix(b.String(), "\n")
}

// separator is the white space before the item at pos, when only white
// space lies between it and the delimiter before it; else a fresh line
// at the item's indentation.
func separator(src []byte, pos int, s style) string {
	i := pos
	for i > 0 && strings.IndexByte(" \t\r\n", src[i-1]) >= 0 {
		i--
	}
	if i > 0 && strings.IndexByte("[{,", src[i-1]) >= 0 {
		return string(src[i:pos])
	}
	if s.compact {
		return ""
	}
	return "\n" + lineIndent(src, pos)
}

// splice replaces src[start:end] with text.
func splice(src []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(src)-(end-start)+len(text))
	out = append(out, src[:start]...)
	out = append(out, text...)
	return append(out, src[end:]...)
}

// fill puts item, rendered by render at the indentation it gets, into an
// empty container.
func fill(src []byte, s style, c *value, render func(indent string) string) []byte {
	if s.compact {
		return splice(src, c.start+1, c.end-1, render(""))
	}
	outer := lineIndent(src, c.start)
	inner := outer + s.unit
	return splice(src, c.start+1, c.end-1, "\n"+inner+render(inner)+"\n"+outer)
}

// appendElem adds v as the last element of the array arr.
func appendElem(src []byte, s style, arr *value, v any) []byte {
	if len(arr.elems) == 0 {
		return fill(src, s, arr, func(ind string) string { return s.render(v, ind) })
	}
	last := arr.elems[len(arr.elems)-1]
	sep := separator(src, last.start, s)
	ind := sep[strings.LastIndexByte(sep, '\n')+1:]
	return splice(src, last.end, last.end, ","+sep+s.render(v, ind))
}

// appendMember adds key: v as the last member of the object obj.
func appendMember(src []byte, s style, obj *value, key string, v any) []byte {
	k, _ := json.Marshal(key)
	item := func(ind string) string { return string(k) + s.colon + s.render(v, ind) }
	if len(obj.members) == 0 {
		return fill(src, s, obj, item)
	}
	last := obj.members[len(obj.members)-1]
	sep := separator(src, last.keyStart, s)
	ind := sep[strings.LastIndexByte(sep, '\n')+1:]
	return splice(src, last.val.end, last.val.end, ","+sep+item(ind))
}

// span is an item of a container: an element, or a member from its key
// to the end of its value.
type span struct{ start, end int }

// removeItem removes items[i] of the container c with its comma, so that
// removing what appendElem or appendMember added restores the bytes.
func removeItem(src []byte, c *value, items []span, i int) []byte {
	switch {
	case len(items) == 1:
		return splice(src, c.start+1, c.end-1, "")
	case i > 0:
		return splice(src, items[i-1].end, items[i].end, "")
	}
	return splice(src, items[0].start, items[1].start, "")
}

// elemSpans are the spans of an array's elements.
func elemSpans(arr *value) []span {
	out := make([]span, len(arr.elems))
	for i, e := range arr.elems {
		out[i] = span{e.start, e.end}
	}
	return out
}

// memberSpans are the spans of an object's members.
func memberSpans(obj *value) []span {
	out := make([]span, len(obj.members))
	for i, m := range obj.members {
		out[i] = span{m.keyStart, m.val.end}
	}
	return out
}
