package agents

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
)

// Problem is something wrong with how lessons is installed in an agent,
// for lessons doctor.
type Problem struct {
	Severity string // "error" or "warning"
	File     string
	Message  string
	Fix      string
}

// samplePayloads are what doctor sends each agent's hook: a harmless
// shell command, shaped as the agent sends it.
var samplePayloads = map[string]map[string]any{
	"claude": {"hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "echo lessons-doctor"}, "permission_mode": "default"},
	"codex": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "turn_id": "lessons-doctor",
		"tool_input": map[string]any{"command": "echo lessons-doctor"}},
	"gemini": {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "timestamp": "2025-01-01T00:00:00Z",
		"tool_input": map[string]any{"command": "echo lessons-doctor"}},
	"opencode": {"hook_event_name": "PreToolUse", "tool_name": "bash",
		"tool_input": map[string]any{"command": "echo lessons-doctor"}},
	"antigravity": {"conversationId": "lessons-doctor",
		"toolCall": map[string]any{"name": "run_command", "args": map[string]any{"CommandLine": "echo lessons-doctor"}}},
}

// Check finds every agent lessons is installed in, for the user and for
// the project around cwd, and checks each (see Report).
func Check(getenv func(string) string, cwd string) []Problem {
	problems, _ := Report(getenv, cwd)
	return problems
}

// Status is one agent's state for lessons doctor: where lessons is
// installed for it, and the worst of its problems.
type Status struct {
	Title string
	Files []string
	// Worst is "error", "warning", or "" when all is well.
	Worst    string
	Problems int
}

// Line says the status in one line, for people.
func (s Status) Line() string {
	switch {
	case len(s.Files) == 0:
		return s.Title + ": not installed"
	case s.Problems == 0:
		return fmt.Sprintf("%s: ok (%s)", s.Title, strings.Join(s.Files, ", "))
	}
	return fmt.Sprintf("%s: %d %s, worst %s (%s)", s.Title, s.Problems, plural(s.Problems, "problem", "problems"),
		s.Worst, strings.Join(s.Files, ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Report finds every agent lessons is installed in, for the user and for
// the project around cwd, and checks each: every event has its entry of
// the right value types, the binary the entries run exists, the hook
// answers a sample payload with one JSON object, on time, and the agent
// will run the hooks (Codex's trust, Gemini CLI's hooksConfig and folder
// trust, and each agent's switch that turns all hooks off: see
// hooksOff). It returns the problems and one status per agent, in name
// order. A nil getenv checks nothing.
func Report(getenv func(string) string, cwd string) ([]Problem, []Status) {
	if getenv == nil {
		return nil, nil
	}
	env := EnvFrom(getenv)
	var out []Problem
	var statuses []Status
	roots := []string{""}
	if root := ProjectRoot(cwd); root != "" {
		roots = append(roots, root)
	}
	for _, name := range Names() {
		a := Agents[name]
		st := Status{Title: a.Title}
		var ps []Problem
		release := sync.OnceValue(func() string { return a.Release(env) })
		for _, root := range roots {
			for _, path := range a.Paths(env, root) {
				if a.InstalledAt(path) {
					st.Files = append(st.Files, path)
				}
				ps = append(ps, a.check(env, path, root, cwd, release)...)
			}
		}
		if name == "claude" {
			files, problems := checkClaudePlugins(env, cwd, st.Files, release)
			st.Files = append(st.Files, files...)
			ps = append(ps, problems...)
		}
		if len(st.Files) > 0 {
			ps = append(ps, a.hooksOff(env, ProjectRoot(cwd))...)
		}
		if user, project := a.Twice(env, cwd); user != "" {
			ps = append(ps, Problem{Severity: "warning", File: project,
				Message: fmt.Sprintf("%s runs lessons from %s and from %s: every hook runs twice and injects twice", a.Title, user, project),
				Fix:     "lessons uninstall --platform " + a.Name + " --project (or without --project, to keep the project's)"})
		}
		for _, p := range ps {
			st.Problems++
			if st.Worst != "error" {
				st.Worst = p.Severity
			}
		}
		out = append(out, ps...)
		statuses = append(statuses, st)
	}
	return out, statuses
}

// check checks lessons' entries in the file at path; release is the
// agent's release, which decides whether an event that only newer
// releases have must be there.
func (a *Agent) check(env Env, path, root, cwd string, release func() string) []Problem {
	data, existed, err := readFile(path)
	if !existed {
		return nil
	}
	reinstall := "lessons install --platform " + a.Name
	if root != "" {
		reinstall += " --project"
	}
	problem := func(sev, format string, args ...any) Problem {
		return Problem{Severity: sev, File: path, Message: fmt.Sprintf(format, args...), Fix: reinstall}
	}
	if err != nil {
		return []Problem{problem("error", "%v", err)}
	}
	var commands []string
	var out []Problem
	if a.Plugin {
		if !IsOurPlugin(data) {
			return nil
		}
		commands = []string{a.Command(PluginBinary(data))}
	} else {
		var events []string
		events, commands, err = a.Installed(data)
		if err != nil {
			return []Problem{{Severity: "error", File: path, Message: "cannot read the settings: " + err.Error(),
				Fix: "fix the JSON syntax, then run " + reinstall}}
		}
		if len(events) == 0 {
			return nil
		}
		var missing []string
		for _, ev := range a.Events {
			if !slices.Contains(events, ev.Name) && ev.required(release) {
				missing = append(missing, ev.Name)
			}
		}
		if len(missing) > 0 {
			return []Problem{problem("warning", "%s runs lessons for %s but not for %s",
				a.Title, strings.Join(events, ", "), strings.Join(missing, ", "))}
		}
		hooks, err := a.ourHooks(data)
		if err != nil {
			return []Problem{problem("error", "cannot read the settings: %v", err)}
		}
		for _, msg := range a.typeProblems(data, hooks) {
			out = append(out, problem("error", "%s", msg))
		}
		out = append(out, a.readiness(env, path, root, cwd, hooks)...)
	}
	for _, cmd := range uniq(commands) {
		if p := a.probe(cmd, cwd); p != "" {
			out = append(out, problem("error", "%s", p))
		}
	}
	return out
}

// probe runs a hook command line's binary on the agent's sample payload
// and says what is wrong with its answer, or "".
func (a *Agent) probe(command, cwd string) string {
	bin, _ := commandBinary(command)
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return fmt.Sprintf("the hook runs %s, which is not an executable file", bin)
	}
	payload := map[string]any{"session_id": "lessons-doctor", "cwd": cwd, "transcript_path": ""}
	for k, v := range samplePayloads[a.Name] {
		payload[k] = v
	}
	in, _ := json.Marshal(payload)
	timeout := time.Duration(hookTimeout) * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := []string{"hook", "--platform", a.Name}
	if a.HookName != "" { // Antigravity CLI: its payloads name no event
		args = append(args, "--event", a.Events[0].Name)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Stdin = cwd, bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	took := time.Since(start).Round(time.Millisecond)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Sprintf("the hook did not answer within %s, the agent's limit", timeout)
	case err != nil:
		return fmt.Sprintf("the hook failed: %v: %s", err, strings.TrimSpace(stderr.String()))
	case stderr.Len() > 0:
		return fmt.Sprintf("the hook wrote to its error output: %s (update lessons, then reinstall)", strings.TrimSpace(stderr.String()))
	}
	var answer map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&answer); err != nil || dec.More() {
		return fmt.Sprintf("the hook's answer is not one JSON object (in %s): %q", took, out)
	}
	for key := range answer {
		if !slices.Contains(answerKeys[a.Name], key) {
			return fmt.Sprintf("the hook's answer has %q, which %s does not read: %s", key, a.Title, out)
		}
	}
	var specific struct {
		Event *string `json:"hookEventName"`
	}
	if raw, ok := answer["hookSpecificOutput"]; ok && (json.Unmarshal(raw, &specific) != nil || specific.Event == nil) {
		return fmt.Sprintf("the hook's answer names no hookEventName: %s", out)
	}
	return ""
}

// answerKeys are the top-level keys each agent reads in a hook's answer.
var answerKeys = map[string][]string{
	"claude":      {"hookSpecificOutput"},
	"codex":       {"hookSpecificOutput"},
	"opencode":    {"hookSpecificOutput"},
	"gemini":      {"decision", "reason", "hookSpecificOutput", "systemMessage", "continue", "stopReason", "suppressOutput"},
	"antigravity": {"allowTool", "denyReason", "decision", "reason", "injectSteps"},
}
