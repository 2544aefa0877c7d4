package repo

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// located is where a value sits in a file: its node, the key node naming
// it in its map (nil for list items and the top level), and its dotted
// field path.
type located struct {
	key, value *yaml.Node
	field      string
}

// locate follows path tokens (map keys and list indexes, as in a JSON
// pointer) from root as far as the file has them. A token the file lacks
// stops the walk at its parent, which is still the best place to point at.
func locate(root *yaml.Node, tokens []string) located {
	at := located{value: root}
	for _, tok := range tokens {
		n := deref(at.value)
		if n == nil {
			break
		}
		switch n.Kind {
		case yaml.MappingNode:
			found := false
			for i := 0; i+1 < len(n.Content); i += 2 {
				if deref(n.Content[i]).Value == tok {
					at = located{key: n.Content[i], value: n.Content[i+1], field: joinField(at.field, tok)}
					found = true
					break
				}
			}
			if !found {
				return at
			}
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) {
				return at
			}
			at = located{value: n.Content[i], field: at.field + "[" + tok + "]"}
		default:
			return at
		}
	}
	return at
}

// deref skips documents and aliases to the node that holds the value.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil {
		switch {
		case n.Kind == yaml.DocumentNode && len(n.Content) > 0:
			n = n.Content[0]
		case n.Kind == yaml.AliasNode:
			n = n.Alias
		default:
			return n
		}
	}
	return nil
}

func joinField(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// fieldTokens splits a dotted field path such as "triggers.commands[1]"
// into path tokens: "triggers", "commands", "1".
func fieldTokens(field string) []string {
	var tokens []string
	for part := range strings.SplitSeq(field, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			tokens = append(tokens, name)
		}
		for rest != "" {
			var idx string
			idx, rest, _ = strings.Cut(rest, "]")
			tokens = append(tokens, idx)
			rest = strings.TrimPrefix(rest, "[")
		}
	}
	return tokens
}

// position is where an error about the located value points: a scalar
// itself, else the key naming the map or list (whose own position is that
// of its first entry), else the map or list.
func (l located) position() (line, col int) {
	n := l.value
	if l.key != nil && (n == nil || n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) {
		n = l.key
	}
	if n == nil || n.Line == 0 {
		return 1, 1
	}
	return n.Line, n.Column
}

// keyPosition is where the key naming the located value is, for problems
// with the key itself (unknown, or needing another key), else position.
func (l located) keyPosition() (line, col int) {
	if l.key != nil && l.key.Line > 0 {
		return l.key.Line, l.key.Column
	}
	return l.position()
}
