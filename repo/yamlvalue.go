package repo

import (
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Limits that keep a hostile file from costing more than a large honest one.
const (
	maxDepth  = 64
	maxValues = 20000 // values after expanding aliases
)

// plainer converts a YAML node tree into the values encoding/json and the
// schema validator understand: map[string]any, []any, string, bool, int64,
// uint64, float64 and nil. Timestamps stay strings, as the schema expects.
type plainer struct {
	file   string
	values int
}

func (c *plainer) errorAt(n *yaml.Node, format string, args ...any) *FileError {
	return &FileError{File: c.file, Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...)}
}

func (c *plainer) value(n *yaml.Node, depth int) (any, *FileError) {
	c.values++
	if c.values > maxValues {
		return nil, c.errorAt(n, "more than %d values (too many alias expansions?)", maxValues)
	}
	if depth > maxDepth {
		return nil, c.errorAt(n, "nested deeper than %d levels (an alias inside itself?)", maxDepth)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return map[string]any{}, nil
		}
		return c.value(n.Content[0], depth)
	case yaml.AliasNode:
		return c.value(n.Alias, depth+1)
	case yaml.MappingNode:
		return c.mapping(n, depth)
	case yaml.SequenceNode:
		list := make([]any, len(n.Content))
		for i, item := range n.Content {
			v, err := c.value(item, depth+1)
			if err != nil {
				return nil, err
			}
			list[i] = v
		}
		return list, nil
	case yaml.ScalarNode:
		return c.scalar(n)
	}
	return nil, c.errorAt(n, "unexpected YAML node")
}

func (c *plainer) mapping(n *yaml.Node, depth int) (any, *FileError) {
	m := make(map[string]any, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind == yaml.AliasNode {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return nil, c.errorAt(n.Content[i], "a key must be a plain word, not a %s", kindName(k))
		}
		if _, dup := m[k.Value]; dup {
			return nil, c.errorAt(n.Content[i], "key %q appears twice", k.Value)
		}
		v, err := c.value(n.Content[i+1], depth+1)
		if err != nil {
			return nil, err
		}
		m[k.Value] = v
	}
	return m, nil
}

func (c *plainer) scalar(n *yaml.Node) (any, *FileError) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		switch n.Value {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	case "!!int":
		if i, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
			return i, nil
		}
	case "!!float":
	default: // strings, timestamps, binary and unknown tags keep their text
		return n.Value, nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, c.errorAt(n, "%v", err)
	}
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, c.errorAt(n, "%s is not a finite number", n.Value)
		}
	}
	return v, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "map"
	case yaml.SequenceNode:
		return "list"
	}
	return "value"
}
