package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
)

// antigravity is Antigravity CLI (agy), Gemini CLI's successor. Its
// hooks.json groups hooks by name, then by event: {"lessons":
// {"PreToolUse": [{"matcher": "", "hooks": [handler]}], "PreInvocation":
// [handler]}}; tool events take matcher groups, the others a flat list of
// handlers; timeouts are seconds; the parser is strict JSON and drops the
// whole file on an error.
//
// Where it reads the file is not settled, so lessons writes both places
// at each level: Google's migration guide names ~/.gemini/antigravity-cli/
// hooks.json and .agents/hooks.json; integrators who ran agy 1.0 to 1.2
// found it reading ~/.gemini/config/hooks.json (and a workspace
// .antigravitycli/hooks.json). Read twice, a hook only costs its time:
// its blocks agree, and once-per-session claims keep text from coming
// twice.
var antigravity = &Agent{
	Name: "antigravity", Title: "Antigravity CLI", HookName: "lessons",
	Events: []Event{
		{"PreToolUse", "", hookTimeout, ""},    // blocks; "" matches every tool
		{"PreInvocation", "", hookTimeout, ""}, // the protocol, and the lessons of the calls since the last model call
	},
	user:    func(e Env) string { return filepath.Join(e.Home, ".gemini", "config", "hooks.json") },
	project: func(root string) string { return filepath.Join(root, ".agents", "hooks.json") },
	more: func(e Env, root string) []string {
		if root != "" {
			return []string{filepath.Join(root, ".antigravitycli", "hooks.json")}
		}
		return []string{filepath.Join(e.Home, ".gemini", "antigravity-cli", "hooks.json")}
	},
}

// toolEvent reports whether an Antigravity CLI event takes matcher groups
// rather than a flat list of handlers.
func toolEvent(name string) bool { return name == "PreToolUse" || name == "PostToolUse" }

// namedGroup is a matcher group of a hooks.json grouped by hook name; its
// matcher is always written, "" matching every tool.
type namedGroup struct {
	Matcher string        `json:"matcher"`
	Hooks   []hookCommand `json:"hooks"`
}

// namedValue is lessons' named hook: its events in a.Events order, each
// running `lessons hook --platform NAME --event EVENT`, since the agent's
// payloads do not name the event.
func (a *Agent) namedValue(bin string) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, ev := range a.Events {
		h := hookCommand{Type: "command", Command: a.Command(bin) + " --event " + ev.Name, Timeout: ev.Seconds}
		var v any = []hookCommand{h}
		if toolEvent(ev.Name) {
			v = []namedGroup{{Matcher: ev.Matcher, Hooks: []hookCommand{h}}}
		}
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(ev.Name)
		val, _ := json.Marshal(v)
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// addNamed returns src with lessons' named hook, replacing an older one
// of lessons'. A hook of that name that runs something else is refused.
func (a *Agent) addNamed(src []byte, bin string) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = emptySettings
	}
	d, err := load(src)
	if err != nil {
		return nil, err
	}
	want := a.namedValue(bin)
	cur := d.root.get(a.HookName)
	switch {
	case cur == nil:
		return appendMember(src, d.style, d.root, a.HookName, want), nil
	case sameJSON(src, cur, want):
		return src, nil
	}
	if events, _ := a.namedEvents(cur); len(events) == 0 {
		return nil, fmt.Errorf("a hook named %q is there and does not run lessons; rename it first", a.HookName)
	}
	src = removeMember(src, d.root, a.HookName)
	if d, err = load(src); err != nil {
		return nil, err
	}
	return appendMember(src, d.style, d.root, a.HookName, want), nil
}

// removeNamed returns src without lessons' named hook, and whether it was
// there.
func (a *Agent) removeNamed(src []byte) ([]byte, bool, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return src, false, nil
	}
	d, err := load(src)
	if err != nil {
		return nil, false, err
	}
	cur := d.root.get(a.HookName)
	if events, _ := a.namedEvents(cur); len(events) == 0 {
		return src, false, nil
	}
	return removeMember(src, d.root, a.HookName), true, nil
}

// installedNamed is Installed for a hooks.json grouped by hook name.
func (a *Agent) installedNamed(src []byte) (events, commands []string, err error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, nil, nil
	}
	d, err := load(src)
	if err != nil {
		return nil, nil, err
	}
	events, commands = a.namedEvents(d.root.get(a.HookName))
	return events, commands, nil
}

// namedEvents are the events of a named hook that run `lessons hook`,
// and their commands.
func (a *Agent) namedEvents(hook *value) (events, commands []string) {
	for _, ev := range a.Events {
		arr := hook.get(ev.Name)
		if arr == nil || arr.kind != '[' {
			continue
		}
		if toolEvent(ev.Name) {
			if g, h := findOurs(arr); g >= 0 {
				events = append(events, ev.Name)
				commands = append(commands, arr.elems[g].get("hooks").elems[h].get("command").str)
			}
			continue
		}
		for _, e := range arr.elems {
			if cmd := e.get("command"); cmd != nil && cmd.kind == '"' && isOurs(cmd.str) {
				events = append(events, ev.Name)
				commands = append(commands, cmd.str)
				break
			}
		}
	}
	return events, commands
}
