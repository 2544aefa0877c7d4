package repo

import (
	"errors"
	"strings"
	"testing"
)

// minimal is a lesson as a person writes it in a pull request: only the
// required fields and examples.
const minimal = `id: 01JGJFGR48DM9AMTY72FQ2RG07
slug: pytest-hangs-on-tty-k3x9
summary: pytest hangs when a plugin waits for input on the TTY
problem: A pytest plugin prompted on the terminal and the agent's run hung until it timed out.
solution: Run pytest with stdin from /dev/null so prompts fail fast instead of waiting.
triggers:
  commands:
    - '\bpytest\b'
  unless:
    - '</dev/null'
examples:
  match:
    - pytest -x tests/
  noMatch:
    - pytest -x tests/ </dev/null
    - tool: Read
      path: pytest.ini
`

func TestParseMinimalLesson(t *testing.T) {
	l, err := ParseLesson("pytest-hangs-on-tty-k3x9.yaml", []byte(minimal))
	if err != nil {
		t.Fatalf("ParseLesson(minimal) = %v", err)
	}
	if l.Slug != "pytest-hangs-on-tty-k3x9" || len(l.Triggers.Commands) != 1 || len(l.Examples.NoMatch) != 2 {
		t.Errorf("ParseLesson(minimal) = %+v", l)
	}
	if got := l.Examples.Match[0]; got.Tool != "Bash" || got.Command != "pytest -x tests/" {
		t.Errorf("plain string example = %+v, want a Bash command", got)
	}
	if got := l.Examples.NoMatch[1]; got.Tool != "Read" || got.Path != "pytest.ini" {
		t.Errorf("map example = %+v", got)
	}
}

func TestParseBlockFalse(t *testing.T) {
	l, err := ParseLesson("pytest-hangs-on-tty-k3x9.yaml", []byte(replace(t, "triggers:", "block: false\ntriggers:")))
	if err != nil || l.Block {
		t.Errorf("ParseLesson with block: false = %+v, %v; want a valid, non-blocking lesson", l, err)
	}
}

// replace returns minimal with old replaced by new, which must occur.
func replace(t *testing.T, old, new string) string {
	t.Helper()
	if !strings.Contains(minimal, old) {
		t.Fatalf("minimal lesson has no %q", old)
	}
	return strings.Replace(minimal, old, new, 1)
}

func TestParseLessonErrorsArePlaced(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		line, col  int
		field      string
		msg        string // substring
	}{
		{"broken YAML", replace(t, "  commands:\n", "  commands: [\n"), 7, 3, "", "invalid YAML"},
		{"unknown key", replace(t, "problem:", "problme: typo\nproblem:"), 4, 1, "problme", `unknown key "problme"`},
		{"unknown nested key", replace(t, "  unless:", "  command: x\n  unless:"), 9, 3, "triggers.command", `unknown key "command"`},
		{"short summary", replace(t, "summary: pytest hangs when a plugin waits for input on the TTY", "summary: pytest hangs"), 3, 10, "summary", "at least 20"},
		{"invalid regex", replace(t, `'\bpytest\b'`, `'(?<=x'`), 8, 7, "triggers.commands[0]", "invalid regex"},
		{"missing key", replace(t, "solution: Run pytest with stdin from /dev/null so prompts fail fast instead of waiting.\n", ""), 1, 1, "solution", "required key is missing"},
		{"wrong type", replace(t, "examples:", "priority: high\nexamples:"), 11, 11, "priority", "must be integer"},
		{"bad example key", replace(t, "      path: pytest.ini", "      file: pytest.ini"), 17, 7, "examples.noMatch[1].file", `unknown key "file"`},
		{"block without reason", replace(t, "triggers:", "block: true\ntriggers:"), 6, 1, "blockReason", "is required when block is true"},
		{"duplicate key", replace(t, "problem:", "summary: again\nproblem:"), 4, 1, "", `key "summary" appears twice`},
		{"placeholder", replace(t, "A pytest plugin", "A <what_went_wrong> plugin"), 4, 10, "problem", "placeholder"},
		{"two documents", minimal + "---\nid: x\n", 18, 1, "", "more than one YAML document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLesson("dir/lesson.yaml", []byte(tc.data))
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("ParseLesson = %v, want a *FileError", err)
			}
			if fe.File != "dir/lesson.yaml" || fe.Line != tc.line || fe.Column != tc.col || fe.Field != tc.field || !strings.Contains(fe.Msg, tc.msg) {
				t.Errorf("ParseLesson error = %q (line %d, column %d, field %q), want line %d, column %d, field %q, message with %q",
					fe, fe.Line, fe.Column, fe.Field, tc.line, tc.col, tc.field, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), "dir/lesson.yaml:") {
				t.Errorf("error %q does not start with the file name", err)
			}
		})
	}
}

func TestParseLessonRegexErrorComesFromRegexp2(t *testing.T) {
	_, err := ParseLesson("l.yaml", []byte(replace(t, `'\bpytest\b'`, `'(?<=x'`)))
	want := "l.yaml:8:7: triggers.commands[0]: invalid regex \"(?<=x\": error parsing regexp: "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("ParseLesson = %v, want it to start with %q", err, want)
	}
}

func TestParseLessonReportsEveryProblem(t *testing.T) {
	data := replace(t, "problem:", "colour: red\nsize: 3\nproblem:")
	_, err := ParseLesson("l.yaml", []byte(data))
	var ps Problems
	if !errors.As(err, &ps) || len(ps) != 2 {
		t.Fatalf("ParseLesson = %v, want two problems", err)
	}
	if ps[0].Line != 4 || ps[1].Line != 5 {
		t.Errorf("problems at lines %d and %d, want 4 and 5", ps[0].Line, ps[1].Line)
	}
}

func TestParseLessonReportsSchemaAndRegexProblems(t *testing.T) {
	data := replace(t, `'\bpytest\b'`, `'(?<=x'`)
	data = strings.Replace(data, "problem:", "colour: red\nproblem:", 1)
	_, err := ParseLesson("l.yaml", []byte(data))
	var ps Problems
	if !errors.As(err, &ps) || len(ps) != 2 || ps[0].Field != "colour" || ps[1].Field != "triggers.commands[0]" {
		t.Errorf("ParseLesson = %v, want the unknown key and the invalid regex", err)
	}
}

func TestCheckLessonReturnsWarnings(t *testing.T) {
	data := replace(t, "  commands:", "  tools: [Bash, Shell]\n  commands:")
	l, ps := CheckLesson("l.yaml", []byte(data))
	if l == nil || ps.Err() != nil {
		t.Fatalf("CheckLesson = %v, %v; want a lesson with warnings only", l, ps)
	}
	w := ps.Warnings()
	if len(w) != 1 || w[0].Field != "triggers.tools[1]" || w[0].Line != 7 || w[0].Column != 17 {
		t.Errorf("warnings = %v, want one at 7:17 on triggers.tools[1]", w)
	}
	if _, err := ParseLesson("l.yaml", []byte(data)); err != nil {
		t.Errorf("ParseLesson = %v, want warnings not to fail", err)
	}
}

func TestParseLessonTooBig(t *testing.T) {
	data := minimal + "# " + strings.Repeat("x", MaxFileSize) + "\n"
	_, err := ParseLesson("big.yaml", []byte(data))
	if err == nil || !strings.Contains(err.Error(), "big.yaml: file is") {
		t.Errorf("ParseLesson(%d bytes) = %v, want a size error", len(data), err)
	}
}

func TestParseLessonOddInputs(t *testing.T) {
	for _, data := range []string{"", "# only a comment\n", "just a string", "- a\n- list", "*x", "&a [*a]", "{? [a]: b}", "priority: .nan"} {
		if _, err := ParseLesson("odd.yaml", []byte(data)); err == nil {
			t.Errorf("ParseLesson(%q) = nil error", data)
		} else if !strings.HasPrefix(err.Error(), "odd.yaml:") {
			t.Errorf("ParseLesson(%q) = %q, want the file named", data, err)
		}
	}
}

func TestSyntaxErrorLines(t *testing.T) {
	for _, tc := range []struct {
		data string
		line int
	}{
		{"a: 1\nb: 2\nc: 3\nsummary: [unclosed\n", 4},
		{"a: 1\nb: \"unterminated\nc: 3\n", 2},
		{"a: 1\n  b: 2\nc: 3\n", 2},
		{"a: 1\nb: 2\n\tc: 3\n", 3},
		{"a: 1\nb: [1,\n  2]\nc: {x\n", 4},
	} {
		_, err := ParseLesson("x.yaml", []byte(tc.data))
		var ps Problems
		if !errors.As(err, &ps) || len(ps) == 0 || ps[0].Line != tc.line {
			t.Errorf("ParseLesson(%q) = %v, want the syntax error on line %d", tc.data, err, tc.line)
		}
	}
}
