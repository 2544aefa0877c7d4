package agents

import "testing"

// TestCodexTrustHash pins codexTrustHash to the currentHash codex
// app-server's hooks/list reported for each hook (Codex 0.171.0): the hash
// a trusted_hash must equal for Codex to run the hook.
func TestCodexTrustHash(t *testing.T) {
	const lessonsHooks = `{"hooks": {
  "PreToolUse": [{"hooks": [{"type": "command", "command": "/tmp/codex171-bin/lessons hook --platform codex", "timeout": 10}]}],
  "PostToolUse": [{"hooks": [{"type": "command", "command": "/tmp/codex171-bin/lessons hook --platform codex", "timeout": 10}]}]
}}`
	const others = `{"hooks": {
 "PreToolUse": [{"hooks": [{"type": "command", "command": "x hook"}]}, {"matcher": "Bash", "hooks": [{"type": "command", "command": "y \"q\" é", "timeout": 5}]}],
 "PostToolUse": [{"hooks": [{"type": "command", "command": "z", "timeout": 7, "statusMessage": "hi"}]}]
}}`
	for _, c := range []struct {
		name, file, event string
		group, index      int
		want              string
	}{
		{"lessons' PreToolUse", lessonsHooks, "PreToolUse", 0, 0, "sha256:0258ad51c9e935332c65b907d101b484005803afab528e62afd869ac7c436bb6"},
		{"lessons' PostToolUse", lessonsHooks, "PostToolUse", 0, 0, "sha256:cf1b4d695ee600b3c34f74e51cba2f5c7f044740cba67cdfa4be5232d01873a2"},
		{"no timeout: Codex's 600", others, "PreToolUse", 0, 0, "sha256:00221cb81167c18c40d973034da1577debc5fae5a1dfc6c1274fb48af2070448"},
		{"a matcher, quotes, non-ASCII", others, "PreToolUse", 1, 0, "sha256:6854b6aacfc1bead12fbcff00de5c0bb24bd329030ad46a4476778806d12a497"},
		{"a status message", others, "PostToolUse", 0, 0, "sha256:28e88412e3c42326047b4c42d9cb66be7e5ecdb9c8ca8a2b6bdfb0005fe2fbdf"},
		{"a key it does not know", `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x", "once": true}]}]}}`, "PreToolUse", 0, 0, ""},
		{"a group key it does not know", `{"hooks": {"PreToolUse": [{"if": "x", "hooks": [{"type": "command", "command": "x"}]}]}}`, "PreToolUse", 0, 0, ""},
	} {
		d, err := parseJSON([]byte(c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		group := d.get("hooks").get(c.event).elems[c.group]
		h := ourHook{Event: c.event, Group: c.group, Index: c.index, entry: group.get("hooks").elems[c.index], group: group, src: []byte(c.file)}
		if got := codexTrustHash(h); got != c.want {
			t.Errorf("%s: codexTrustHash = %q, want %q", c.name, got, c.want)
		}
	}
}
