package agents

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
)

// codexDefaultTimeout is the timeout, in seconds, Codex gives a command
// hook that sets none; it is part of what Codex hashes.
const codexDefaultTimeout = 600

// codexTrustHash is the hash Codex (0.169 to 0.171) compares with a hook's
// trusted_hash before it runs the hook: "sha256:" and the hex SHA-256 of
// the compact JSON, keys sorted, of {"event_name", "matcher" (when the
// group sets one), "hooks": [the handler with its defaults filled]}.
// Checked against the currentHash codex app-server's hooks/list reports.
// It is "" when the hook holds anything this reproduction does not know,
// so that doctor never calls a hook stale on a guess.
func codexTrustHash(h ourHook) string {
	label, ok := codexEventLabels[h.Event]
	if !ok || h.entry == nil || h.group == nil {
		return ""
	}
	identity := map[string]any{"event_name": label}
	for _, m := range h.group.members {
		switch {
		case m.key == "hooks":
		case m.key == "matcher" && m.val.kind == '"':
			identity["matcher"] = m.val.str
		default:
			return ""
		}
	}
	handler := map[string]any{"async": false, "timeout": codexDefaultTimeout}
	for _, m := range h.entry.members {
		v := m.val
		switch m.key {
		case "type", "command", "statusMessage":
			if v.kind != '"' || strings.ContainsAny(v.str, "\u2028\u2029") { // Go escapes these, serde_json does not
				return ""
			}
			handler[m.key] = v.str
		case "timeout":
			n, err := strconv.ParseUint(string(h.src[v.start:v.end]), 10, 32)
			if v.kind != 'x' || err != nil {
				return ""
			}
			handler["timeout"] = n
		case "async":
			b, err := strconv.ParseBool(string(h.src[v.start:v.end]))
			if v.kind != 'x' || err != nil {
				return ""
			}
			handler["async"] = b
		default:
			return ""
		}
	}
	identity["hooks"] = []any{handler}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // Codex's serde_json leaves <, > and & as they are
	if err := enc.Encode(identity); err != nil {
		return ""
	}
	sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}
