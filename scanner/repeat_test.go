package scanner

import "testing"

// TestFamily pins that replay groups calls as live capture does: a
// runner's tool, not the runner, is the family, so `uv run pytest` failing
// after `uv run ruff` failed is no repeated mistake.
func TestFamily(t *testing.T) {
	for _, tt := range []struct {
		tool, command, path, want string
	}{
		{"Bash", "uv run pytest -x", "", "Bash pytest"},
		{"Bash", "uv run ruff check .", "", "Bash ruff"},
		{"Bash", "cd app && npm run lint 2>&1 | tail", "", "Bash npm run lint"},
		{"Bash", "npm run test", "", "Bash npm run test"},
		{"Bash", "sudo -E apt-get install -y jq", "", "Bash apt-get install"},
		{"Bash", "git -C /w push origin main", "", "Bash git push"},
		{"Bash", "export A=1; cd /x", "", "Bash"},
		{"Edit", "", "src/app.py", "Edit .py"},
		{"Write", "", "Makefile", "Write"},
	} {
		c := LoggedCall{Call: Call{Tool: tt.tool, Command: tt.command, Path: tt.path}}
		if got := c.Family(); got != tt.want {
			t.Errorf("Family(%s %q %q) = %q, want %q", tt.tool, tt.command, tt.path, got, tt.want)
		}
	}
}
