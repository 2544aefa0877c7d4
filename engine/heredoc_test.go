package engine

import (
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestHeredocDataIsNoCommand: a command trigger does not fire on what a
// heredoc holds when the heredoc is a message or a file's text (a commit
// message, a pull request body, a file cat writes), and does fire on the
// command around it and on a heredoc a shell or an interpreter runs.
func TestHeredocDataIsNoCommand(t *testing.T) {
	tty := lesson("docker-tty", lessons.Trigger{Commands: []string{`(?:^|[;&|(\n][ \t]*)docker\s+exec\s+-it\b`}})
	apt := lesson("apt-y", lessons.Trigger{Commands: []string{`(?:^|[;&|(\n][ \t]*)apt-get\s+install\b(?![^\n]*\s-y\b)`}})
	for _, tt := range []struct {
		name string
		l    lessons.Lesson
		cmd  string
		want bool
	}{
		{"commit message", apt, "git commit -m \"$(cat <<'EOF'\nfix(ci): bootstrap the runner\n\napt-get install libpq-dev was missing on the image\nEOF\n)\"", false},
		{"issue body", tty, "gh issue comment 14 --body \"$(cat <<'EOF'\n## Done\ndocker exec -it db psql now works from the docs\nEOF\n)\"", false},
		{"file written", tty, "cat > scripts/dev.sh <<EOF\n#!/bin/sh\ndocker exec -it db psql -U app\nEOF\nchmod +x scripts/dev.sh", false},
		{"tab-stripped", apt, "cat <<-EOF > notes.md\n\tapt-get install curl\n\tEOF", false},
		{"command after the heredoc", tty, "cat > notes.md <<'EOF'\nnotes\nEOF\ndocker exec -it db psql -U app", true},
		{"script a shell runs", tty, "ssh build-host bash <<'EOF'\ncd /srv/app\ndocker exec -it db psql -U app\nEOF", true},
		{"no heredoc", tty, "docker exec -it db psql -U app", true},
		{"here-string", tty, "docker exec -it db sh <<< 'ls'", true},
		{"unclosed", apt, "cat <<EOF\napt-get install curl", false},
	} {
		got, err := MatchLesson(&tt.l, lessons.ToolCall{Tool: "Bash", Command: tt.cmd})
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s: %s fires %v on %q, want %v", tt.name, tt.l.Slug, got, tt.cmd, tt.want)
		}
	}
}

// TestTriggerTextLeavesPlainCommands: a command without a heredoc is
// the same string, not a copy.
func TestTriggerTextLeavesPlainCommands(t *testing.T) {
	cmd := "git log --oneline | head -5"
	if got := triggerText(cmd); got != cmd {
		t.Errorf("triggerText(%q) = %q", cmd, got)
	}
	if got := triggerText("echo a << b"); got != "echo a << b" {
		t.Errorf("a << with no body: %q", got)
	}
}
