package pack

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
)

func TestMaliciousPack(t *testing.T) {
	packtest.NeedGit(t)
	catastrophic := strings.Replace(packtest.LessonYAML("evil-regex", 7), `'\bcmd7\b(?!.*--flag)'`, `'(a+)+$'`, 1)
	many := map[string]string{}
	for i := range MaxLessons + 1 {
		many[fmt.Sprintf("lessons/l%d.yaml", i)] = "x"
	}
	clipboard := strings.Replace(packtest.LessonYAML("evil-text", 9), "summary: Lesson evil-text says something useful",
		`summary: "Lesson evil-text \e]52;c;ZXZpbA==\a says something useful"`, 1)
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // in the error, naming the file and why
	}{
		{"symlink", map[string]string{"lessons/evil.yaml": "symlink:/etc/passwd"}, "lessons/evil.yaml: is a symbolic link"},
		{"symlink outside lessons", map[string]string{"docs/readme": "symlink:../pack.yaml"}, "docs/readme: is a symbolic link"},
		{"file outside lessons", map[string]string{"lessons/sub/evil.yaml": packtest.LessonYAML("evil", 8)}, "lessons/sub: is a directory"},
		{"oversized", map[string]string{"lessons/big.yaml": packtest.LessonYAML("big", 8) + "# " + strings.Repeat("x", MaxFileBytes) + "\n"}, "lessons/big.yaml: is 65"},
		{"catastrophic regex", map[string]string{"lessons/evil-regex.yaml": catastrophic}, "lessons/evil-regex.yaml: triggers.commands[0]: pattern backtracks catastrophically"},
		{"terminal control in the text", map[string]string{"lessons/evil-text.yaml": clipboard}, `lessons/evil-text.yaml: summary: holds the control character \x1b`},
		{"slug differs from file", map[string]string{"lessons/other.yaml": packtest.LessonYAML("not-other", 8)}, `lessons/other.yaml: slug "not-other" differs`},
		{"invalid yaml", map[string]string{"lessons/bad.yaml": "id: x\nslug: [unclosed\n"}, "lessons/bad.yaml:"},
		{"duplicate id", map[string]string{"lessons/twin.yaml": packtest.LessonYAML("twin", 0)}, "lessons/twin.yaml: id " + packtest.LessonID(0) + " is also the id of lessons/lesson-0.yaml"},
		{"invalid pack.yaml", map[string]string{"pack.yaml": "name: Not Kebab\nbogus: 1\n"}, "pack.yaml:1:"},
		{"needs a newer lessons", map[string]string{"pack.yaml": "name: team\nminVersion: 99.0.0\n"}, "pack.yaml: the pack needs lessons 99.0.0 or newer"},
		{"too many lessons", many, fmt.Sprintf("lessons: holds %d lessons, more than the %d", MaxLessons+4, MaxLessons)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(3))
			base, _ := packtest.StartDaemon(t, root)
			e := newTestEnv(t)
			ref := lessons.PackRef{Name: "team", URL: base + "team.git"}
			good := e.one(Options{}, ref).Commit
			lockBefore := e.lockBytes()
			up.Commit("bad lesson", tc.files)

			r := e.one(Options{Update: true}, ref)
			var verr *ValidationError
			if !errors.As(r.Err, &verr) || !strings.Contains(r.Err.Error(), tc.want) {
				t.Fatalf("update to a bad version: err %v, want a ValidationError containing %q", r.Err, tc.want)
			}
			if a, _ := ReadActive(e.active("team")); a == nil || a.Commit != good || r.Commit != good {
				t.Errorf("active after a bad version = %+v, want %s", a, good)
			}
			if e.lockBytes() != lockBefore {
				t.Error("a bad version changed the lock")
			}
			if got := e.activeFiles("team"); len(got) != 3 {
				t.Errorf("active lessons = %v", got)
			}
		})
	}
}
