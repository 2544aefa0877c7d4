package root

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/agents"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

// TestPluginCommandsExist runs every command line the Claude Code plugin's
// slash commands tell the model to use, and every command they allow,
// through the real command tree's parser: a subcommand or flag that does
// not exist fails here, not in a user's session.
func TestPluginCommandsExist(t *testing.T) {
	inline := regexp.MustCompile("`lessons ([^`]+)`")
	allowed := regexp.MustCompile(`Bash\(lessons ([a-z-]+):\*\)`)
	seen := 0
	for name, data := range agents.MarketplaceFiles("") {
		if !strings.HasPrefix(name, "commands/") {
			continue
		}
		var lines []string
		for _, m := range inline.FindAllStringSubmatch(string(data), -1) {
			lines = append(lines, m[1])
		}
		for _, m := range allowed.FindAllStringSubmatch(string(data), -1) {
			lines = append(lines, m[1])
		}
		for _, line := range lines {
			seen++
			ios, _, _, _ := iostreams.Test()
			root := NewCmdRoot(&cmdutil.Factory{IOStreams: ios})
			args := words(line)
			cmd, rest, err := root.Find(args)
			if err != nil || cmd == root {
				t.Errorf("%s: `lessons %s`: no such command (%v)", name, line, err)
				continue
			}
			if err := cmd.ParseFlags(rest); err != nil {
				t.Errorf("%s: `lessons %s`: %v", name, line, err)
			}
		}
	}
	if seen < 10 {
		t.Fatalf("found %d documented command lines; the pattern no longer matches the files", seen)
	}
}

// words splits a documented command line like a shell, dropping the
// quotes (their content is a placeholder such as '…').
func words(line string) []string {
	var out []string
	var cur strings.Builder
	quote := rune(0)
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote = r
		case r == ' ':
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}
