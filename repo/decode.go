package repo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxFileSize caps the lesson, config and pack files lessons reads: a
// lesson is a few hundred bytes, and a larger file is a mistake.
const MaxFileSize = 64 << 10

// Decode parses the YAML file called name, checks it against schema and
// decodes it into v through encoding/json (so v's json tags apply). The
// error, when not nil, is Problems: every problem found, each with the
// file, line and column. A file holding only comments is an empty map.
func Decode(schema Schema, name string, data []byte, v any) error {
	_, _, ps := decode(schema, name, data, v)
	return ps.Err()
}

// decode is Decode, also returning the parsed tree, so later checks can
// place their problems, and whether v was filled in: it is whenever the
// types fit, even if the schema found other problems.
func decode(schema Schema, name string, data []byte, v any) (root *yaml.Node, decoded bool, ps Problems) {
	if len(data) > MaxFileSize {
		return nil, false, Problems{{File: name, Msg: fmt.Sprintf("file is %d bytes, more than the %d a lessons file may have", len(data), MaxFileSize)}}
	}
	root, perr := parseYAML(name, data)
	if perr != nil {
		return nil, false, Problems{perr}
	}
	conv := plainer{file: name}
	plain, perr := conv.value(root, 0)
	if perr != nil {
		return root, false, Problems{perr}
	}
	ps, err := validate(schema, name, root, plain)
	if err != nil {
		return root, false, Problems{{File: name, Msg: err.Error()}}
	}
	b, err := json.Marshal(plain)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil && len(ps) == 0 {
		// Only where the schema is laxer than the Go types.
		line, col := locate(root, nil).position()
		ps = Problems{{File: name, Line: line, Column: col, Msg: err.Error()}}
	}
	ps.sort()
	return root, err == nil, ps
}

// yamlLine finds the line number yaml puts in its syntax errors.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// syntaxLine corrects the line yaml gives for a syntax error: for parser
// errors (an unclosed "[", a tab in the indentation) it counts from 0
// (go-yaml/yaml#205). When the file's first line lines parse cleanly, the
// error is on the next one. It costs one more parse, on the error path.
func syntaxLine(data []byte, line int) int {
	if line < 1 {
		return 1
	}
	end := 0
	for range line {
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			return line // the file has no line after it
		}
		end += i + 1
	}
	if yaml.Unmarshal(data[:end], new(yaml.Node)) == nil {
		return line + 1
	}
	return line
}

// parseYAML reads exactly one YAML document. yaml reports only the line
// of a syntax error, so the column is that of the line's first character.
func parseYAML(name string, data []byte) (*yaml.Node, *FileError) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		return &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1}, nil
	}
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		line := 1
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
			line = syntaxLine(data, line)
			msg = err.Error()[len(m[0]):]
		}
		return nil, &FileError{File: name, Line: line, Column: firstColumn(data, line), Msg: "invalid YAML: " + msg}
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		line := next.Line
		if err != nil || line == 0 {
			line = 1
		}
		return nil, &FileError{File: name, Line: line, Column: 1, Msg: "holds more than one YAML document: keep one per file"}
	}
	return &doc, nil
}

// firstColumn is the 1-based column of the first non-blank character of
// a line, or 1.
func firstColumn(data []byte, line int) int {
	for i := 1; i < line; i++ {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			return 1
		}
		data = data[nl+1:]
	}
	if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
		data = data[:nl]
	}
	return len(data) - len(bytes.TrimLeft(data, " \t")) + 1
}
