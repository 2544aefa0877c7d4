package realagents

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// codexListedHook is one hook as codex app-server's hooks/list reports it.
type codexListedHook struct {
	Key         string `json:"key"`
	EventName   string `json:"eventName"`
	Command     string `json:"command"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
}

// codexHooks asks Codex, through codex app-server's hooks/list, for
// lessons' hooks in the project, by event name (preToolUse...).
func (w *world) codexHooks() map[string]codexListedHook {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, codexBin(w.t), "app-server")
	cmd.Dir, cmd.Env = w.project, append(append([]string{}, w.env...), "CODEX_HOME="+filepath.Join(w.home, ".codex"))
	endAll(cmd)
	cmd.WaitDelay = 5 * time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	defer func() { cancel(); _ = cmd.Wait() }()
	fmt.Fprintf(in, "%s\n%s\n%s\n", `{"id":1,"method":"initialize","params":{"clientInfo":{"name":"lessons-e2e","version":"1"}}}`,
		`{"method":"initialized"}`, `{"id":2,"method":"hooks/list","params":{"cwds":[`+mustJSON(w.project)+`]}}`)
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var reply struct {
			ID     int `json:"id"`
			Result struct {
				Data []struct {
					Hooks []codexListedHook `json:"hooks"`
				} `json:"data"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &reply) != nil || reply.ID != 2 {
			continue
		}
		if reply.Error != nil || len(reply.Result.Data) != 1 {
			w.t.Fatalf("hooks/list: %s", sc.Text())
		}
		hooks := map[string]codexListedHook{}
		for _, h := range reply.Result.Data[0].Hooks {
			if strings.Contains(h.Command, "lessons hook --platform codex") {
				hooks[h.EventName] = h
			}
		}
		return hooks
	}
	w.t.Fatalf("codex app-server ended with no answer to hooks/list: %v", sc.Err())
	return nil
}

// codexTrust is the [hooks.state] of config.toml trusting hooks, each
// with the hash hash gives it.
func codexTrust(hooks map[string]codexListedHook, hash func(codexListedHook) string) string {
	var b strings.Builder
	for _, h := range hooks {
		fmt.Fprintf(&b, "\n[hooks.state.%s]\ntrusted_hash = %s\n", mustJSON(h.Key), mustJSON(hash(h)))
	}
	return b.String()
}

// statuses are the hooks' trust statuses by event.
func statuses(hooks map[string]codexListedHook) map[string]string {
	out := map[string]string{}
	for ev, h := range hooks {
		out[ev] = h.TrustStatus
	}
	return out
}

// TestCodexTrust holds doctor's reading of Codex's hook trust to Codex's
// own (hooks/list) and to what codex exec runs when nothing bypasses the
// trust: lessons' hooks untrusted, trusted with the hashes Codex reports,
// then the PreToolUse hook trusted as another hook was (a stale hash, as
// when the lessons binary moved), which Codex skips.
func TestCodexTrust(t *testing.T) {
	const (
		notTrusted = "Codex has not trusted lessons' "
		stale      = "Codex trusted lessons' PreToolUse hooks as they were before they changed"
	)
	w := newWorld(t)
	w.lessons("install", "--platform", "codex")
	hooks := w.codexHooks()
	if len(hooks) != 4 {
		t.Fatalf("Codex lists %d of lessons' hooks, want 4: %+v", len(hooks), hooks)
	}
	for ev, h := range hooks {
		if h.TrustStatus != "untrusted" {
			t.Errorf("Codex says lessons' fresh %s hook is %s", ev, h.TrustStatus)
		}
	}
	if out := w.doctor(); !strings.Contains(out, notTrusted) {
		t.Errorf("doctor on untrusted hooks says:\n%s", out)
	}

	trusted := codexTrust(hooks, func(h codexListedHook) string { return h.CurrentHash })
	m := newModel(t, responses, append(core(codexShell), say("All done."))...)
	w.codexExec(m, false, trusted, prompt)
	m.done()
	checkCore(t, w, m)
	for ev, st := range statuses(w.codexHooks()) {
		if st != "trusted" {
			t.Errorf("Codex says lessons' %s hook is %s once trusted with its own hash", ev, st)
		}
	}
	if out := w.doctor(); strings.Contains(out, notTrusted) || strings.Contains(out, "as they were before they changed") {
		t.Errorf("doctor on hooks Codex trusts says:\n%s", out)
	}

	staleTrust := codexTrust(hooks, func(h codexListedHook) string {
		if h.EventName == "preToolUse" {
			return "sha256:" + strings.Repeat("0", 64)
		}
		return h.CurrentHash
	})
	m = newModel(t, responses, codexShell(forbidden), say("All done."))
	w.codexExec(m, false, staleTrust, prompt)
	m.done()
	if got := statuses(w.codexHooks()); got["preToolUse"] != "modified" || got["postToolUse"] != "trusted" {
		t.Errorf("Codex's trust statuses with a stale PreToolUse hash: %v", got)
	}
	if !w.exists("ran.txt") {
		t.Errorf("Codex ran lessons' PreToolUse hook though it was trusted as another hook: the refused command did not run")
	}
	if out := w.doctor(); !strings.Contains(out, stale) {
		t.Errorf("doctor on a stale PreToolUse trust says:\n%s", out)
	}
}
