package repo

import (
	"errors"
	"testing"
)

// FuzzParseLesson checks that no input makes parsing panic, that every
// failure is placed in the file, and that whatever parses survives a
// round trip through MarshalLesson.
func FuzzParseLesson(f *testing.F) {
	for _, seed := range []string{minimal, "", "a: [", "*x", "&a [*a, *a]", "block: true\n", "priority: 1e400", "summary: !!binary aGk=",
		"examples:\n  match:\n    - {tool: Bash}\n", "? [a]\n: b\n", "id: 1\n---\nid: 2\n", "createdAt: 2024-01-02T03:04:05Z\n"} {
		f.Add([]byte(seed))
	}
	mustMarshal, _ := MarshalLesson(fullLesson())
	f.Add(mustMarshal)
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLesson("f.yaml", data)
		if err != nil {
			var ps Problems
			if !errors.As(err, &ps) || len(ps) == 0 {
				t.Fatalf("error %v is not Problems", err)
			}
			for _, p := range ps {
				if p.File != "f.yaml" || p.Warning || (p.Line == 0) != (len(data) > MaxFileSize) {
					t.Fatalf("problem %#v is not placed", p)
				}
			}
			return
		}
		out, err := MarshalLesson(l)
		if err != nil {
			t.Fatalf("MarshalLesson of a parsed lesson: %v", err)
		}
		if _, err := ParseLesson("f.yaml", out); err != nil {
			t.Fatalf("parsed lesson does not load back: %v\n%s", err, out)
		}
	})
}
