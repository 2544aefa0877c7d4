package scanner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secrets are planted in sessions; none may survive a scan.
var secrets = []string{
	"AKIAIOSFODNN7EXAMPLE",
	"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	"ghp_0123456789abcdefghijABCDEFGHIJ012345",
	"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
	"sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345",
	"sk-proj-abcdefghijklmnopqrstuvwxyz0123456789",
	"xoxb-123456789012-abcdefghijkl",
	"AIzaSyA1234567890abcdefghijklmnopqrstuv",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
	"hunter2secretpw",
	"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
	"s3cr3t-db-pass",
	"opaque-bearer-token-0123456789",
}

// planted writes every secret in the context that gives it away.
func planted() string {
	return strings.Join([]string{
		"aws " + secrets[0] + " AWS_SECRET_ACCESS_KEY=" + secrets[1],
		"gh " + secrets[2] + " " + secrets[3],
		"anthropic " + secrets[4] + " openai " + secrets[5] + " slack " + secrets[6] + " google " + secrets[7],
		"jwt " + secrets[8],
		"git clone https://bob:" + secrets[9] + "@example.com/x.git",
		"-----BEGIN RSA PRIVATE KEY-----\n" + secrets[10] + "\n-----END RSA PRIVATE KEY-----",
		"DATABASE_PASSWORD=" + secrets[11],
		"curl -H 'Authorization: Bearer " + secrets[12] + "'",
	}, "\n")
}

func TestRedact(t *testing.T) {
	in := planted()
	out := Redact(in)
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("Redact left %q in:\n%s", s, out)
		}
	}
	for _, keep := range []string{"DATABASE_PASSWORD=", "https://bob:", "Bearer ", "git clone"} {
		if !strings.Contains(out, keep) {
			t.Errorf("Redact removed %q:\n%s", keep, out)
		}
	}
	if got := Redact("go test ./... -run TestX"); got != "go test ./... -run TestX" {
		t.Errorf("Redact changed a plain command: %q", got)
	}
}

// TestSecretsNeverStored plants secrets in every place a finding takes
// text from and checks the state directory and the lessons.
func TestSecretsNeverStored(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	var b strings.Builder
	line := func(v any) {
		j, _ := json.Marshal(v)
		b.Write(j)
		b.WriteByte('\n')
	}
	msg := func(typ, uid string, content any) map[string]any {
		return map[string]any{"sessionId": "sec", "cwd": "/p", "type": typ, "uuid": uid, "message": map[string]any{"content": content}}
	}
	all := planted()
	cmd := "deployctl push -H 'Authorization: Bearer " + secrets[12] + "' https://bob:" + secrets[9] + "@api.example.com --tok " + secrets[2]
	line(msg("assistant", "a1", []any{map[string]any{"type": "tool_use", "id": "t1", "name": "Bash", "input": map[string]any{"command": cmd}}}))
	line(msg("user", "r1", []any{map[string]any{"type": "tool_result", "tool_use_id": "t1", "is_error": true, "content": "Exit code 2\nerror: unknown option --tok (did you mean --token-file?)\n" + all}}))
	line(msg("assistant", "a2", []any{map[string]any{"type": "tool_use", "id": "t2", "name": "Bash", "input": map[string]any{"command": cmd + " --token-file ~/.tok"}}}))
	line(msg("user", "r2", []any{map[string]any{"type": "tool_result", "tool_use_id": "t2", "content": "ok"}}))
	line(msg("assistant", "a3", []any{map[string]any{"type": "tool_use", "id": "t3", "name": "Bash", "input": map[string]any{"command": "deploy " + secrets[5]}}}))
	line(msg("user", "r3", []any{map[string]any{"type": "tool_result", "tool_use_id": "t3", "is_error": true, "content": rejectedPrefix + ". The user provided the following reason for the rejection: never paste " + all}}))
	line(msg("assistant", "a4", []any{map[string]any{"type": "text", "text": "#lesson\ntool: Bash\ntrigger: export OPENAI_API_KEY=" + secrets[5] + "\nproblem: leaked " + all + "\nsolution: use a file, not " + secrets[4] + "\n#/lesson"}}))
	if err := os.WriteFile(filepath.Join(dir, "s.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Scan(context.Background(), Options{StateDir: state, Paths: []string{dir}, Now: later})
	if err != nil {
		t.Fatal(err)
	}
	if rep.NewCandidates < 3 {
		t.Fatalf("only %d candidates: the test would prove nothing", rep.NewCandidates)
	}
	var stored strings.Builder
	filepath.WalkDir(state, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			stored.Write(b)
		}
		return nil
	})
	cs, _ := OpenStore(state).List(ListOptions{All: true})
	for _, c := range cs {
		l := ToLesson(c)
		j, _ := json.Marshal(l)
		stored.Write(j)
	}
	rj, _ := json.Marshal(rep)
	stored.Write(rj)
	for _, s := range secrets {
		if strings.Contains(stored.String(), s) {
			t.Errorf("secret %q reached the state directory, a lesson or the report", s)
		}
	}
}
