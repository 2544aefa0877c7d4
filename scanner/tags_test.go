package scanner

import (
	"slices"
	"testing"
)

func TestParseTags(t *testing.T) {
	tests := []struct {
		name                  string
		text                  string
		blocks, bad, template int
		problem, solution     string
	}{
		{"plain", "#lesson\ntool: Bash\nproblem: p\nsolution: s\n#/lesson", 1, 0, 0, "p", "s"},
		{"aliases and multi-line", "x #lesson\nmistake: first\n  second line\nfix: do it\nwhatever: ignored\n#/lesson", 1, 0, 0, "first\nsecond line", "do it"},
		{"unclosed", "#lesson\nproblem: p\nsolution: s", 0, 1, 0, "", ""},
		{"no solution", "#lesson\nproblem: p\n#/lesson", 0, 1, 0, "", ""},
		{"next block before close", "#lesson\nproblem: a\n#lesson\nproblem: b\nsolution: c\n#/lesson", 1, 1, 0, "b", "c"},
		{"protocol template", "#lesson\ntool: <tool>\nproblem: <what went wrong>\nsolution: <what to do instead>\n#/lesson", 0, 0, 1, "", ""},
		{"not a tag", "see #lessons learned", 0, 0, 0, "", ""},
	}
	for _, tt := range tests {
		blocks, bad, template := parseTags(tt.text)
		if len(blocks) != tt.blocks || bad != tt.bad || template != tt.template {
			t.Errorf("%s: parseTags = %d blocks, %d malformed, %d templates; want %d, %d, %d", tt.name, len(blocks), bad, template, tt.blocks, tt.bad, tt.template)
			continue
		}
		if len(blocks) > 0 && (blocks[0].Problem != tt.problem || blocks[0].Solution != tt.solution) {
			t.Errorf("%s: problem %q solution %q, want %q %q", tt.name, blocks[0].Problem, blocks[0].Solution, tt.problem, tt.solution)
		}
	}
	b, _, _ := parseTags("#lesson\ntags: lang:go, tool:make\nscope: Global\nproblem: p\nsolution: s\n#/lesson")
	if !slices.Equal(b[0].Tags, []string{"lang:go", "tool:make"}) || b[0].Scope != "global" {
		t.Errorf("tags %q scope %q", b[0].Tags, b[0].Scope)
	}
}
