package scanner

import (
	"strings"
	"testing"
)

// TestRetryAfterARefusal: a call the environment or the shell refused,
// then a changed call that worked. The retry is a lesson only when its
// change answers the refusal (the URL quoted after an unmatched glob); a
// workaround of a refusal (another way to write the script, a flag added
// beside the quoting) is left to the lesson on the refusal itself.
func TestRetryAfterARefusal(t *testing.T) {
	for _, c := range []struct {
		name         string
		failed, out  string
		fixed        string
		retry, wrong string
	}{
		{"quoted", "curl -s https://api.example.com/items?page=2", "zsh:1: no matches found: https://api.example.com/items?page=2",
			"curl -s 'https://api.example.com/items?page=2'", "quote", ""},
		{"flag beside the quoting", "npx deploytool@latest api /v2/items/a1?team=t1", "zsh:1: no matches found: /v2/items/a1?team=t1",
			"npx deploytool@latest api '/v1/items/a1?team=t1' --raw", "", "--raw"},
		{"workaround of EPERM", "MODE=1 python3 - <<'PY'\nimport json\nprint(json.dumps({}))\nPY",
			"zsh:1: can't create temp file for here document: operation not permitted",
			"MODE=1 PYTHONDONTWRITEBYTECODE=1 python3 -c 'import json; print(json.dumps({}))'", "", "-c"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, state := t.TempDir(), t.TempDir()
			// the agent tries once more as it was, then changes the call
			writeClaude(t, dir, "/p", "s1", []step{run(c.failed, 1, c.out), run(c.failed, 1, c.out), run(c.fixed, 0, "ok")})
			scan(t, state, Options{Paths: []string{dir}})
			var retries []string
			for _, k := range candidates(t, state) {
				if k.Kind == KindRetry {
					retries = append(retries, k.Summary)
				}
			}
			switch {
			case c.retry != "" && (len(retries) != 1 || !strings.Contains(retries[0], c.retry)):
				t.Errorf("retry lessons %q, want one that says %q", retries, c.retry)
			case c.retry == "" && len(retries) != 0:
				t.Errorf("retry lessons %q, want none (not %q)", retries, c.wrong)
			}
		})
	}
}
