package scanner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// geminiChat is a Gemini CLI 0.61 chat (.jsonl) of one #lesson report,
// in the shape that version writes: a metadata line that names no
// project (only its hash), messages, and $set updates.
const geminiChat = `{"sessionId":"g1","projectHash":"54ac25","startTime":"2026-11-26T13:55:35.722Z","lastUpdated":"2026-11-26T13:55:35.722Z","kind":"main"}
{"id":"u1","timestamp":"2026-11-26T13:55:35.795Z","type":"user","content":[{"text":"Go ahead."}]}
{"$set":{"lastUpdated":"2026-11-26T13:55:35.795Z"}}
{"id":"m1","timestamp":"2026-11-26T13:55:36.036Z","type":"gemini","content":"#lesson\ntool: Bash\ntrigger: make check\nproblem: make check needs the fixtures built first\nsolution: run make fixtures before make check\n#/lesson\n","model":"gemini-2.5-flash"}
`

// TestGeminiProjectRoot: Gemini CLI 0.61 keeps a project's chats in
// ~/.gemini/tmp/<name>/chats and writes the project's root to
// <name>/.project_root; its chats name no project. A scan and a replay
// read the project from there, and take no project from a
// .project_root that is no absolute path on one line.
func TestGeminiProjectRoot(t *testing.T) {
	for _, tc := range []struct{ root, want string }{
		{"/home/ann/app\n", "/home/ann/app"},
		{"relative/app", ""},
		{"/home/ann/app\x1b[2J", ""},
	} {
		tmp := filepath.Join(t.TempDir(), ".gemini", "tmp")
		chats := filepath.Join(tmp, "app", "chats")
		if err := os.MkdirAll(chats, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, "app", ".project_root"), []byte(tc.root), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(chats, "session-2026-11-26T13-55-g1.jsonl"), []byte(geminiChat), 0o644); err != nil {
			t.Fatal(err)
		}
		cs := candidatesOf(t, tmp)
		if len(cs) != 1 || cs[0].Kind != KindTag || len(cs[0].Projects) != boolInt(tc.want != "") ||
			tc.want != "" && cs[0].Projects[0] != tc.want {
			t.Errorf(".project_root %q: candidates %+v, want one #lesson report of project %q", tc.root, cs, tc.want)
		}
		var projects []string
		_, err := ReadSessions(context.Background(), ReadOptions{Paths: []string{tmp}},
			func(ls *LoggedSession) string { return ls.Project }, func(p string) error { projects = append(projects, p); return nil })
		if err != nil || len(projects) != 1 || projects[0] != tc.want {
			t.Errorf(".project_root %q: replay read projects %q (%v), want %q", tc.root, projects, err, tc.want)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
