package repo

import (
	"strings"

	"go.yaml.in/yaml/v3"

	lessons "github.com/lessons-dev/lessons"
)

// MarshalLesson writes l as its canonical file: fields in schema order,
// empty ones left out, long or multi-line texts as literal blocks, and
// examples that are plain Bash commands as plain strings. ParseLesson
// reads it back to an equal lesson; `lessons show` prints exactly this.
func MarshalLesson(l *lessons.Lesson) ([]byte, error) {
	return canonicalYAML(l, lessonStyle)
}

// literalWidth is the length from which a text is written as a block.
const literalWidth = 80

func lessonStyle(key, value string) (string, yaml.Style) {
	switch key {
	case "createdAt", "updatedAt":
		return "!!timestamp", 0
	case "problem", "solution", "injection", "blockReason":
		if len(value) > literalWidth || strings.Contains(value, "\n") {
			return "!!str", yaml.LiteralStyle
		}
	}
	return "!!str", 0
}
