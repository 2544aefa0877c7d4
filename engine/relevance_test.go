package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// Floors of TestPromptLabelled, set from the measurement on the labelled
// set (see testdata/prompts/labelled.yaml, written alongside the
// ranking: a check of mechanisms, not a measure; TestPromptRelevance is
// the measure): 1.000 and 0.909 since relevance reads only the request
// and needs a keyword phrase, two keywords, or one in a short request. A
// change that loses either fails the test.
const (
	precisionFloor = 0.98
	recallFloor    = 0.90
)

// labelledPrompt is one entry of testdata/prompts/labelled.yaml.
type labelledPrompt struct {
	Prompt string   `yaml:"prompt"`
	Want   []string `yaml:"want"`
	Allow  []string `yaml:"allow"`
	Not    []string `yaml:"not"`
	Gemini bool     `yaml:"gemini"`
}

// TestPromptLabelled runs every labelled prompt through the hook, with
// the built-in lessons and a fresh session each, and checks what came up:
// no prompt brings a lesson it must not, and precision and recall over
// the set stay at or above their floors.
func TestPromptLabelled(t *testing.T) {
	data, err := os.ReadFile("../testdata/prompts/labelled.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []labelledPrompt
	if err := yaml.Unmarshal(data, &cases); err != nil {
		t.Fatalf("labelled.yaml: %v", err)
	}
	if len(cases) < 30 {
		t.Fatalf("labelled.yaml has %d prompts, want at least 30", len(cases))
	}
	rs, errs := repo.Loader{}.Lessons(scope.Store{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinDir, AllowBlock: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	known := map[string]bool{}
	for _, r := range rs {
		known[r.Slug] = true
	}
	run := builtinHook(t, rs, map[string]string{"LESSONS_PROMPT_LESSONS": "on"})

	var tp, fp, fn int
	for i, c := range cases {
		for _, slug := range slices.Concat(c.Want, c.Allow, c.Not) {
			if !known[slug] {
				t.Fatalf("prompt %d (%q) names %s, which is no built-in lesson", i+1, c.Prompt, slug)
			}
		}
		got := run(fmt.Sprintf("labelled-%d", i), c.Prompt, c.Gemini)
		var extra, missed []string
		for _, slug := range got {
			switch {
			case slices.Contains(c.Want, slug):
				tp++
			case slices.Contains(c.Not, slug):
				t.Errorf("%q brought %s, which it must not", c.Prompt, slug)
				fallthrough
			case !slices.Contains(c.Allow, slug):
				fp++
				extra = append(extra, slug)
			}
		}
		for _, slug := range c.Want {
			if !slices.Contains(got, slug) {
				fn++
				missed = append(missed, slug)
			}
		}
		if len(extra)+len(missed) > 0 {
			t.Logf("%q (gemini %v): unwanted %v, missed %v", c.Prompt, c.Gemini, extra, missed)
		}
	}
	precision := float64(tp) / float64(max(tp+fp, 1))
	recall := float64(tp) / float64(max(tp+fn, 1))
	t.Logf("%d prompts: precision %.3f (%d of %d brought), recall %.3f (%d of %d wanted)",
		len(cases), precision, tp, tp+fp, recall, tp, tp+fn)
	if precision < precisionFloor {
		t.Errorf("precision %.3f, below the floor %.2f", precision, precisionFloor)
	}
	if recall < recallFloor {
		t.Errorf("recall %.3f, below the floor %.2f", recall, recallFloor)
	}
}

// builtinHook compiles lessons into a project's manifest and returns a
// function that sends one prompt to the hook, as Claude Code's
// UserPromptSubmit or, with gemini, as Gemini CLI's BeforeAgent in -p
// mode (the SessionStart text prepended, escaped as Gemini escapes hook
// text), and returns the slugs the answer injected.
func builtinHook(t *testing.T, rs []scope.Resolved, extra map[string]string) func(session, prompt string, gemini bool) []string {
	t.Helper()
	send := hookSender(t, rs, extra)
	return func(session, prompt string, gemini bool) []string {
		slugs, _ := send(session, prompt, gemini)
		return slugs
	}
}

// builtinHookText is builtinHook for Claude Code alone, with extra
// environment variables for the hook, returning the injected text too.
func builtinHookText(t *testing.T, rs []scope.Resolved, extra map[string]string) func(session, prompt string) ([]string, string) {
	t.Helper()
	send := hookSender(t, rs, extra)
	return func(session, prompt string) ([]string, string) { return send(session, prompt, false) }
}

func hookSender(t *testing.T, rs []scope.Resolved, extra map[string]string) func(session, prompt string, gemini bool) ([]string, string) {
	t.Helper()
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(project, ".lessons"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": root, "XDG_CACHE_HOME": root + "/cache", "XDG_STATE_HOME": root + "/state"}
	for k, v := range extra {
		env[k] = v
	}
	getenv := func(k string) string { return env[k] }
	m, err := Compile(scope.Merged{Project: project, Config: lessons.DefaultConfig(), Active: rs}, scope.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WriteManifest(scope.DefaultDirs(getenv).ManifestPath(project)); err != nil {
		t.Fatal(err)
	}
	escape := strings.NewReplacer("<", "&lt;", ">", "&gt;")
	return func(session, prompt string, gemini bool) ([]string, string) {
		payload := map[string]any{"session_id": session, "cwd": project, "hook_event_name": "UserPromptSubmit", "prompt": prompt}
		pf := Platforms["claude"]
		if gemini {
			pf = Platforms["gemini"]
			payload["hook_event_name"] = "BeforeAgent"
			payload["timestamp"] = "2026-11-24T10:00:00.000Z"
			payload["prompt"] = "<hook_context>" + escape.Replace(Protocol) + "</hook_context>\n\n" + prompt
		}
		in, _ := json.Marshal(payload)
		var out bytes.Buffer
		(&Hook{Getenv: getenv, Platform: pf}).Run(bytes.NewReader(in), &out)
		return injectedSlugs(t, out.Bytes()), answerContext(t, out.Bytes())
	}
}

// answerContext is the lesson text an answer added to the context.
func answerContext(t *testing.T, answer []byte) string {
	t.Helper()
	var a struct {
		Specific struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(answer, &a); err != nil {
		t.Fatalf("answer %q: %v", answer, err)
	}
	return a.Specific.Context
}

// injectedSlugs reads the slugs an answer injected from the line that
// lists them: an HTML comment, or Gemini CLI's bracketed line.
func injectedSlugs(t *testing.T, answer []byte) []string {
	t.Helper()
	var a struct {
		Specific struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(answer, &a); err != nil {
		t.Fatalf("answer %q: %v", answer, err)
	}
	text := a.Specific.Context
	for _, mark := range []string{"<!-- lessons injected: ", "[lessons injected: "} {
		if i := strings.LastIndex(text, mark); i >= 0 {
			list := text[i+len(mark):]
			if j := strings.IndexAny(list, "]\n"); j >= 0 {
				list = list[:j]
			}
			list = strings.TrimRight(list, " ->]")
			list, _, _ = strings.Cut(list, "; dropped:")
			return strings.Split(list, ", ")
		}
	}
	return nil
}
