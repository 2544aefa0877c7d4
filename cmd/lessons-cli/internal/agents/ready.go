package agents

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// ourHook is one hook entry of lessons in a settings file: its event, the
// index of its group in the event's list and its own in the group's
// hooks (Codex keys its trust by them), and the entry.
type ourHook struct {
	Event        string
	Group, Index int
	entry        *value
	group        *value // the entry's group: its matcher and hooks
	src          []byte // the settings file the values span
}

// ourHooks lists lessons' hook entries in a settings file.
func (a *Agent) ourHooks(src []byte) ([]ourHook, error) {
	d, err := load(src)
	if err != nil {
		return nil, err
	}
	var out []ourHook
	for _, ev := range a.Events {
		arr := d.root.get("hooks").get(ev.Name)
		if arr == nil || arr.kind != '[' {
			continue
		}
		if g, h := findOurs(arr); g >= 0 {
			out = append(out, ourHook{Event: ev.Name, Group: g, Index: h, entry: arr.elems[g].get("hooks").elems[h],
				group: arr.elems[g], src: src})
		}
	}
	return out, nil
}

// typeProblems finds values of lessons' hook entries that the agent
// rejects or misreads: a type other than "command", a command that is not
// a string, a timeout that is not a whole number (Codex refuses
// "timeout": "10"), a name that is not a string.
func (a *Agent) typeProblems(src []byte, hooks []ourHook) []string {
	var out []string
	for _, h := range hooks {
		bad := func(key, want string) {
			v := h.entry.get(key)
			out = append(out, fmt.Sprintf("the %s entry has %q: %s, which %s rejects: it must be %s",
				h.Event, key, src[v.start:v.end], a.Title, want))
		}
		if v := h.entry.get("type"); v == nil || v.kind != '"' || v.str != "command" {
			if v == nil {
				out = append(out, fmt.Sprintf(`the %s entry has no "type": %s wants "command"`, h.Event, a.Title))
			} else {
				bad("type", `"command"`)
			}
		}
		if v := h.entry.get("timeout"); v != nil {
			if _, err := strconv.ParseUint(string(src[v.start:v.end]), 10, 32); v.kind != 'x' || err != nil {
				unit := "seconds"
				if a.Millis {
					unit = "milliseconds"
				}
				bad("timeout", "a whole number of "+unit)
			}
		}
		if v := h.entry.get("name"); v != nil && v.kind != '"' {
			bad("name", "a string")
		}
	}
	return out
}

// readiness finds what else keeps the agent from running lessons' hooks
// in the settings file at path (a project's when root is not ""): the
// agent's own switches and trust.
func (a *Agent) readiness(env Env, path, root, cwd string, hooks []ourHook) []Problem {
	switch a.Name {
	case "codex":
		return codexReadiness(env, path, root, hooks)
	case "gemini":
		return geminiReadiness(env, path, root, cwd, hooks)
	}
	return nil
}

// codexHome is Codex's configuration directory.
func codexHome(env Env) string {
	if d := env.Getenv("CODEX_HOME"); d != "" {
		return d
	}
	return filepath.Join(env.Home, ".codex")
}

// codexEventLabels are the names Codex's trust keys give lessons' events.
var codexEventLabels = map[string]string{
	"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use",
	"SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit",
}

// codexReadiness checks what Codex 0.169 to 0.171 needs before it runs
// the hooks of hooks.json at path: each hook trusted, a trust Codex keeps
// in its config.toml as [hooks.state."PATH:EVENT:GROUP:INDEX"]
// trusted_hash (codex exec skips an untrusted hook without a word), that
// hash still the hook's own (a hook changed since, its command moved to
// another lessons binary say, is skipped the same way until trusted
// again), not disabled there, and for a project's hooks.json a trusted
// project, the only kind whose .codex directory Codex reads.
func codexReadiness(env Env, path, root string, hooks []ourHook) []Problem {
	configPath := filepath.Join(codexHome(env), "config.toml")
	var config struct {
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		} `toml:"projects"`
		Hooks struct {
			State map[string]struct {
				Enabled     *bool  `toml:"enabled"`
				TrustedHash string `toml:"trusted_hash"`
			} `toml:"state"`
		} `toml:"hooks"`
	}
	data, err := os.ReadFile(configPath)
	if err != nil && !os.IsNotExist(err) {
		return []Problem{{Severity: "warning", File: configPath, Message: "cannot read Codex's config: " + err.Error(),
			Fix: "make it readable, then run lessons doctor again"}}
	}
	if err := toml.Unmarshal(data, &config); err != nil {
		return []Problem{{Severity: "warning", File: configPath,
			Message: "cannot read Codex's config, so whether Codex trusts lessons' hooks is unknown: " + err.Error(),
			Fix:     "fix the TOML syntax (codex refuses to start with it too)"}}
	}
	var out []Problem
	if root != "" {
		if config.Projects[root].TrustLevel != "trusted" {
			out = append(out, Problem{Severity: "warning", File: path,
				Message: fmt.Sprintf("Codex reads %s only in a trusted project, and %s is not trusted in %s", path, root, configPath),
				Fix:     "trust the project when codex asks, or add [projects." + strconv.Quote(root) + "] trust_level = \"trusted\" to " + configPath})
		}
	}
	var untrusted, stale, disabled []string
	for _, h := range hooks {
		state, ok := config.Hooks.State[fmt.Sprintf("%s:%s:%d:%d", path, codexEventLabels[h.Event], h.Group, h.Index)]
		switch {
		case ok && state.Enabled != nil && !*state.Enabled:
			disabled = append(disabled, h.Event)
		case !ok || state.TrustedHash == "":
			untrusted = append(untrusted, h.Event)
		default:
			if now := codexTrustHash(h); now != "" && now != state.TrustedHash {
				stale = append(stale, h.Event)
			}
		}
	}
	if len(untrusted) > 0 {
		out = append(out, Problem{Severity: "warning", File: path,
			Message: fmt.Sprintf("Codex has not trusted lessons' %s hooks: it skips untrusted hooks (codex exec without a word)", strings.Join(untrusted, ", ")),
			Fix:     "open codex and trust them in /hooks (they are listed as lessons hook --platform codex)"})
	}
	if len(stale) > 0 {
		out = append(out, Problem{Severity: "warning", File: path,
			Message: fmt.Sprintf("Codex trusted lessons' %s hooks as they were before they changed: it skips a hook modified since it was trusted (codex exec without a word)", strings.Join(stale, ", ")),
			Fix:     "open codex and trust them again in /hooks (they are listed as lessons hook --platform codex)"})
	}
	if len(disabled) > 0 {
		out = append(out, Problem{Severity: "error", File: configPath,
			Message: fmt.Sprintf("Codex has lessons' %s hooks disabled (enabled = false under [hooks.state])", strings.Join(disabled, ", ")),
			Fix:     "enable them in codex's /hooks"})
	}
	return out
}

// geminiHome is the directory Gemini CLI takes for the home: it keeps
// .gemini there ($GEMINI_CLI_HOME, else the home).
func geminiHome(env Env) string {
	if d := env.Getenv("GEMINI_CLI_HOME"); d != "" {
		return d
	}
	return env.Home
}

// geminiReadiness checks what Gemini CLI 0.61 needs before it runs the
// hooks of the settings file at path (hooksOff reads hooksConfig.enabled):
// none of lessons' hooks in hooksConfig.disabled, and, unless
// security.folderTrust.enabled is false, a trusted folder (trustedFolders.json): Gemini loads no hook in an
// untrusted one, and its headless runs refuse to start there.
func geminiReadiness(env Env, path, root, cwd string, hooks []ourHook) []Problem {
	type settings struct {
		HooksConfig struct {
			Disabled []string `json:"disabled"`
		} `json:"hooksConfig"`
		Security struct {
			FolderTrust struct {
				Enabled *bool `json:"enabled"`
			} `json:"folderTrust"`
		} `json:"security"`
	}
	userPath := Agents["gemini"].Path(env, "")
	files := []string{userPath}
	if root != "" || ProjectRoot(cwd) != "" {
		files = append(files, Agents["gemini"].Path(env, ProjectRoot(cwd)))
	}
	var out []Problem
	folderTrust := true
	names := map[string]bool{}
	for _, h := range hooks {
		names["lessons-"+strings.ToLower(h.Event)] = true
		names[h.entry.get("command").str] = true
	}
	for _, f := range slices.Compact(files) {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s settings
		if err := json.Unmarshal(data, &s); err != nil {
			continue // check reports a file it cannot read
		}
		for _, d := range s.HooksConfig.Disabled {
			if names[d] {
				out = append(out, Problem{Severity: "error", File: f,
					Message: fmt.Sprintf("Gemini CLI skips lessons' hook %q: it is in hooksConfig.disabled", d), Fix: "remove it from hooksConfig.disabled"})
			}
		}
		if f == userPath && s.Security.FolderTrust.Enabled != nil && !*s.Security.FolderTrust.Enabled {
			folderTrust = false
		}
	}
	if folderTrust && env.Getenv("GEMINI_CLI_TRUST_WORKSPACE") != "true" && !geminiTrusts(filepath.Join(geminiHome(env), ".gemini", "trustedFolders.json"), cwd) {
		out = append(out, Problem{Severity: "warning", File: path,
			Message: fmt.Sprintf("Gemini CLI loads hooks only in a trusted folder, and %s is not trusted", cwd),
			Fix:     "trust the folder when gemini asks (or /permissions); headless runs take --skip-trust or GEMINI_CLI_TRUST_WORKSPACE=true"})
	}
	return out
}

// geminiTrusts reports whether Gemini CLI's trustedFolders.json at path
// trusts dir: the longest rule that holds dir decides (TRUST_PARENT
// trusts the rule's parent).
func geminiTrusts(path, dir string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var rules map[string]string
	if json.Unmarshal(data, &rules) != nil {
		return false
	}
	best, trust := -1, ""
	for rule, level := range rules {
		folder := rule
		if level == "TRUST_PARENT" {
			folder = filepath.Dir(rule)
		}
		rel, err := filepath.Rel(filepath.Clean(folder), filepath.Clean(dir))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if len(rule) > best {
			best, trust = len(rule), level
		}
	}
	return trust == "TRUST_FOLDER" || trust == "TRUST_PARENT"
}
