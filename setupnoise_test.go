package lessons

import (
	"strings"
	"testing"
	"time"
)

// TestSetupNoise: an error of the shell's start-up files is cut from the
// line it is on, whoever's home or shell; a file of that name elsewhere
// (a dotfiles repository's), or a grep's match in one, is not such an
// error.
func TestSetupNoise(t *testing.T) {
	for _, tt := range []struct {
		line, before string
		ok           bool
	}{
		{"/c/Users/ann/.bashrc: line 1: gh: command not found", "", true},
		{"/home/ann/.bash_profile: line 1: $'\\r': command not found", "", true},
		{"~/.zshrc:3: command not found: compdef", "", true},
		{"Command timed out after 2m 0.0s /home/ann/.bashrc: line 1: gh: command not found", "Command timed out after 2m 0.0s", true},
		{"/etc/profile: line 4: /opt/x/env: No such file or directory", "", true},
		{"/home/ann/miniconda3/etc/profile.d/conda.sh: line 48: `conda() {'", "", true},
		{"/Users/ann/.claude/shell-snapshots/snapshot-bash-1771171448608-qx2zaj.sh: line 192: alias: --: not found", "", true},
		{"/home/ann/dotfiles/zsh/.zshrc:12: command not found: pyenv", "/home/ann/dotfiles/zsh/.zshrc:12: command not found: pyenv", false},
		{"/Users/ann/.zshrc:84:bindkey -e", "/Users/ann/.zshrc:84:bindkey -e", false},
		{"cat: /home/ann/.bashrc: No such file or directory", "cat: /home/ann/.bashrc: No such file or directory", false},
	} {
		before, ok := SetupNoise(tt.line)
		if before != tt.before || ok != tt.ok {
			t.Errorf("SetupNoise(%q) = %q, %v; want %q, %v", tt.line, before, ok, tt.before, tt.ok)
		}
	}
}

// TestSetupNoiseOnAHostileLine: a long line full of start-up file names
// (what a call printed is anything) is read in bounded time, and a line
// with none comes back whole.
func TestSetupNoiseOnAHostileLine(t *testing.T) {
	long := strings.Repeat("a/.bashrc", 1<<17) // 1.2 MB, no blank: each name's path would reach back to the start
	start := time.Now()
	if before, ok := SetupNoise(long); ok || before != long {
		t.Errorf("SetupNoise(long line) = %d bytes, %v; want the line back, false", len(before), ok)
	}
	if d := time.Since(start); d > 50*time.Millisecond {
		t.Errorf("SetupNoise took %v on a 1.2 MB line", d)
	}
}
