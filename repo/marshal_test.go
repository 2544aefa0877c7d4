package repo

import (
	"reflect"
	"strings"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
)

// fullLesson sets every field, with texts that need quoting or blocks.
func fullLesson() *lessons.Lesson {
	created := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	updated := created.Add(36 * time.Hour)
	l := &lessons.Lesson{
		ID:      "01JGJFGR48DM9AMTY72FQ2RG07",
		Slug:    "rm-rf-with-unset-variable-q7zp",
		Summary: "rm -rf with an unset variable deletes from the root: guard it with ${VAR:?}",
		Problem: "An agent ran `rm -rf $BUILD_DIR/` while BUILD_DIR was unset, so the shell expanded it to `rm -rf /`.\n" +
			"Only permissions saved the machine.\n",
		Solution:    "Write \"${BUILD_DIR:?}\" so an unset variable stops the command: rm -rf \"${BUILD_DIR:?}/\".",
		Injection:   "## Lesson: guard rm -rf\nUse ${VAR:?} in every rm -rf path.",
		Block:       true,
		BlockReason: "Refusing `{command}`: a variable in the path may be unset; use ${VAR:?}.",
		Decision:    lessons.DecisionAsk,
		Triggers: lessons.Trigger{
			Tools:        []string{"Bash"},
			Commands:     []string{`\brm\s+-[a-zA-Z]*r[a-zA-Z]*f?\s+.*\$(?!\{[A-Za-z_]+:\?)`, "true", "123", "- dash", "key: value"},
			Unless:       []string{`#\s*safe`},
			Paths:        []string{"**/*.sh"},
			Content:      []string{`rm -rf "\$[A-Z_]+"`},
			Keywords:     []string{"rm", "delete"},
			SessionStart: true,
		},
		Examples: lessons.Examples{
			Match: []lessons.ToolCall{
				{Tool: "Bash", Command: "rm -rf $BUILD_DIR/"},
				{Tool: "Write", Path: "clean.sh", Content: "rm -rf \"$OUT\"\n"},
			},
			NoMatch: []lessons.ToolCall{
				{Tool: "Bash", Command: `rm -rf "${BUILD_DIR:?}/"`},
				{Tool: "Bash", Command: "yes"},
				{Tool: "Bash", Command: "multi\nline"},
			},
		},
		Priority:    9,
		Confidence:  0.85,
		NeedsReview: true,
		Tags:        []string{"lang:bash", "severity:critical"},
		Source:      &lessons.Source{Sessions: 3, Occurrences: 5, Agent: "claude-code"},
		CreatedAt:   &created,
		UpdatedAt:   &updated,
	}
	l.ContentHash = ContentHash(l)
	return l
}

func TestMarshalLessonRoundTrip(t *testing.T) {
	for name, l := range map[string]*lessons.Lesson{"full": fullLesson(), "minimal": mustParse(t, minimal)} {
		data, err := MarshalLesson(l)
		if err != nil {
			t.Fatalf("MarshalLesson(%s) = %v", name, err)
		}
		got, err := ParseLesson(l.Slug+".yaml", data)
		if err != nil {
			t.Fatalf("ParseLesson(MarshalLesson(%s)) = %v\n%s", name, err, data)
		}
		if !reflect.DeepEqual(got, l) {
			t.Errorf("ParseLesson(MarshalLesson(%s)) = %+v, want %+v\n%s", name, got, l, data)
		}
		again, _ := MarshalLesson(got)
		if string(again) != string(data) {
			t.Errorf("MarshalLesson(%s) is not stable:\n%s\nthen\n%s", name, data, again)
		}
	}
}

func mustParse(t *testing.T, data string) *lessons.Lesson {
	t.Helper()
	l, err := ParseLesson("test.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestMarshalLessonLayout(t *testing.T) {
	data, err := MarshalLesson(fullLesson())
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	order := []string{"id", "slug", "summary", "problem", "solution", "injection", "block", "blockReason", "decision",
		"triggers", "examples", "priority", "confidence", "needsReview", "tags", "source", "createdAt", "updatedAt", "contentHash"}
	last := -1
	for _, key := range order {
		i := strings.Index(text, "\n"+key+":")
		if key == "id" && strings.HasPrefix(text, "id:") {
			i = 0
		}
		if i <= last {
			t.Fatalf("key %s at %d, after the previous key at %d:\n%s", key, i, last, text)
		}
		last = i
	}
	for _, want := range []string{
		"problem: |\n  An agent ran `rm -rf $BUILD_DIR/`",
		"injection: |-\n  ## Lesson: guard rm -rf\n",
		"    - rm -rf $BUILD_DIR/\n",
		"    - tool: Write\n      path: clean.sh\n",
		"createdAt: 2025-03-04T05:06:07Z\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("MarshalLesson output lacks %q:\n%s", want, text)
		}
	}
	minimalOut, _ := MarshalLesson(mustParse(t, minimal))
	for _, absent := range []string{"priority", "block", "source", "createdAt", "contentHash", "injection"} {
		if strings.Contains(string(minimalOut), absent+":") {
			t.Errorf("MarshalLesson(minimal) writes the empty field %s:\n%s", absent, minimalOut)
		}
	}
}
