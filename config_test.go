package lessons

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestEnvName(t *testing.T) {
	for key, want := range map[string]string{
		"injectionBudgetBytes":           "LESSONS_INJECTION_BUDGET_BYTES",
		"minConfidence":                  "LESSONS_MIN_CONFIDENCE",
		"compactionReinjectionThreshold": "LESSONS_COMPACTION_REINJECTION_THRESHOLD",
		"packs":                          "LESSONS_PACKS",
	} {
		if got := EnvName(key); got != want {
			t.Errorf("EnvName(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestApplyEnvOverridesEveryKind(t *testing.T) {
	env := map[string]string{
		"LESSONS_INJECTION_BUDGET_BYTES": "2048",
		"LESSONS_MIN_CONFIDENCE":         "0.7",
		"LESSONS_DISABLE":                "a-1234, b-5678",
		"LESSONS_PACKS":                  `[{"name":"team","url":"https://example.com/p.git"}]`,
	}
	c, err := DefaultConfig().ApplyEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.InjectionBudgetBytes != 2048 || c.MinConfidence != 0.7 {
		t.Errorf("scalars not overridden: %+v", c)
	}
	if !reflect.DeepEqual(c.Disable, []string{"a-1234", "b-5678"}) {
		t.Errorf("Disable = %q", c.Disable)
	}
	if len(c.Packs) != 1 || c.Packs[0].Name != "team" {
		t.Errorf("Packs = %+v", c.Packs)
	}
	if c.MaxLessonsPerInjection != 3 {
		t.Errorf("unset key changed: MaxLessonsPerInjection = %d", c.MaxLessonsPerInjection)
	}
}

func TestApplyEnvNamesBadVariable(t *testing.T) {
	_, err := DefaultConfig().ApplyEnv(func(k string) string {
		if k == "LESSONS_MIN_PRIORITY" {
			return "high"
		}
		return ""
	})
	if err == nil || !strings.Contains(err.Error(), "LESSONS_MIN_PRIORITY") {
		t.Fatalf("err = %v, want one naming LESSONS_MIN_PRIORITY", err)
	}
}

func TestOverlayProjectWinsAndListsJoin(t *testing.T) {
	global := Config{MinPriority: 3, Disable: []string{"x"}, Packs: []PackRef{{Name: "a", URL: "u1"}, {Name: "b", URL: "u2"}}}
	project := Config{MinPriority: 5, Disable: []string{"y", "x"}, Packs: []PackRef{{Name: "b", URL: "u3"}}}
	c := DefaultConfig().Overlay(global).Overlay(project)
	if c.MinPriority != 5 || c.InjectionBudgetBytes != 4096 {
		t.Errorf("overlay: %+v", c)
	}
	if !reflect.DeepEqual(c.Disable, []string{"x", "y"}) {
		t.Errorf("Disable = %q, want [x y]", c.Disable)
	}
	if len(c.Packs) != 2 || c.Packs[1].URL != "u3" {
		t.Errorf("Packs = %+v, want b replaced by the project's", c.Packs)
	}
}

func TestConfigKeysMatchJSONTags(t *testing.T) {
	keys := ConfigKeys()
	if keys[0] != "injectionBudgetBytes" || keys[len(keys)-1] != "packs" {
		t.Errorf("ConfigKeys() = %q", keys)
	}
}

func TestApplyEnvCaptureNudges(t *testing.T) {
	for _, v := range []string{"0", "5"} {
		c, err := DefaultConfig().ApplyEnv(func(k string) string {
			if k == "LESSONS_CAPTURE_NUDGES" {
				return v
			}
			return ""
		})
		if err != nil || strconv.Itoa(c.Nudges()) != v {
			t.Errorf("LESSONS_CAPTURE_NUDGES=%s: Nudges() = %d, %v", v, c.Nudges(), err)
		}
	}
	if DefaultConfig().Nudges() != 3 {
		t.Errorf("default captureNudges = %d, want 3", DefaultConfig().Nudges())
	}
}

func TestOverlayJoinsAllow(t *testing.T) {
	c := Config{Allow: []string{"a"}}.Overlay(Config{Allow: []string{"b", "a"}})
	if !reflect.DeepEqual(c.Allow, []string{"a", "b"}) {
		t.Errorf("Allow = %q, want [a b]: a project's allow adds to the global one", c.Allow)
	}
}

func TestPromptLessonsEnv(t *testing.T) {
	if DefaultConfig().PromptLessonsOn() {
		t.Error("prompt-time lessons are on by default")
	}
	for _, tc := range []struct {
		value string
		on    bool
		err   bool
	}{{"on", true, false}, {"off", false, false}, {"yes", false, true}} {
		c, err := DefaultConfig().ApplyEnv(func(k string) string {
			if k == "LESSONS_PROMPT_LESSONS" {
				return tc.value
			}
			return ""
		})
		if (err != nil) != tc.err || err == nil && c.PromptLessonsOn() != tc.on {
			t.Errorf("LESSONS_PROMPT_LESSONS=%s: on %v, err %v; want on %v, error %v", tc.value, c.PromptLessonsOn(), err, tc.on, tc.err)
		}
	}
}

// TestConfigEnvIsConfig: ApplyEnv's table names every key of Config, in
// field order, with its variable.
func TestConfigEnvIsConfig(t *testing.T) {
	keys := ConfigKeys()
	if len(keys) != len(configEnv) {
		t.Fatalf("Config has %d keys, configEnv %d: add the new key to configEnv", len(keys), len(configEnv))
	}
	for i, key := range keys {
		if k := configEnv[i]; k.key != key || k.env != EnvName(key) {
			t.Errorf("configEnv[%d] = %v, want {%s %s}", i, k, key, EnvName(key))
		}
	}
}
