package repo

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	writeFiles(t, dir, map[string]string{"config.yaml": "minPriority: 3\ndisable:\n  - noisy-lesson-ab12\npacks:\n  - name: team\n    url: https://example.com/pack.git\n    allowBlock: true\n"})
	cfg, err := Loader{}.Config(path)
	want := lessons.Config{MinPriority: 3, Disable: []string{"noisy-lesson-ab12"},
		Packs: []lessons.PackRef{{Name: "team", URL: "https://example.com/pack.git", AllowBlock: true}}}
	if err != nil || !reflect.DeepEqual(cfg, want) {
		t.Errorf("Config = %+v, %v; want %+v", cfg, err, want)
	}
}

func TestConfigUnknownKey(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"config.yaml": "minPriority: 3\nmaxLesons: 4\npacks:\n  - name: team\n    url: x\n    branch: main\n"})
	_, err := Loader{}.Config(filepath.Join(dir, "config.yaml"))
	var ps Problems
	if !errors.As(err, &ps) || len(ps) != 2 {
		t.Fatalf("Config = %v, want two unknown keys", err)
	}
	prefix := filepath.Join(dir, "config.yaml")
	if got := ps[0].Error(); got != prefix+`:2:1: maxLesons: unknown key "maxLesons"` {
		t.Errorf("first error = %q", got)
	}
	if got := ps[1].Error(); got != prefix+`:6:5: packs[0].branch: unknown key "branch"` {
		t.Errorf("second error = %q", got)
	}
}

func TestConfigMissingFile(t *testing.T) {
	cfg, err := Loader{}.Config(filepath.Join(t.TempDir(), "config.yaml"))
	if err != nil || !reflect.ValueOf(cfg).IsZero() {
		t.Errorf("Config(missing) = %+v, %v; want the zero Config", cfg, err)
	}
}

func TestWriteConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "config.yaml")
	cfg := lessons.Config{MinConfidence: 0.7, Disable: []string{"a-lesson-ab12"}, Packs: []lessons.PackRef{{Name: "team", URL: "u", Ref: "main"}}}
	if err := WriteConfig(path, cfg); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if want := "minConfidence: 0.7\ndisable:\n  - a-lesson-ab12\npacks:\n  - name: team\n    url: u\n    ref: main\n"; string(data) != want {
		t.Errorf("WriteConfig wrote\n%s\nwant\n%s", data, want)
	}
	if got, err := (Loader{}).Config(path); err != nil || !reflect.DeepEqual(got, cfg) {
		t.Errorf("Config(WriteConfig(cfg)) = %+v, %v; want %+v", got, err, cfg)
	}
	if err := WriteConfig(path, lessons.Config{}); err != nil {
		t.Fatal(err)
	}
	if got, err := (Loader{}).Config(path); err != nil || !reflect.ValueOf(got).IsZero() {
		t.Errorf("Config(WriteConfig(zero)) = %+v, %v; want zero", got, err)
	}
}

func TestDefaultConfigFile(t *testing.T) {
	text := string(DefaultConfigFile())
	for _, key := range lessons.ConfigKeys() {
		if !strings.Contains(text, "# "+key+":") {
			t.Errorf("DefaultConfigFile does not mention %s:\n%s", key, text)
		}
	}
	var cfg lessons.Config
	if err := Decode(ConfigSchema, "config.yaml", DefaultConfigFile(), &cfg); err != nil || !reflect.ValueOf(cfg).IsZero() {
		t.Errorf("DefaultConfigFile decodes to %+v, %v; want it to set nothing", cfg, err)
	}
	// Uncommenting the defaults gives a valid config equal to the defaults.
	var uncommented strings.Builder
	for line := range strings.Lines(text) {
		if s, ok := strings.CutPrefix(line, "# "); ok && !strings.Contains(s, "[]") && !strings.Contains(s, "{}") && !strings.HasPrefix(s, "packs") && !strings.HasPrefix(s, "  ") && strings.Contains(s, ": ") {
			uncommented.WriteString(s)
		}
	}
	if err := Decode(ConfigSchema, "config.yaml", []byte(uncommented.String()), &cfg); err != nil || !reflect.DeepEqual(cfg, lessons.DefaultConfig()) {
		t.Errorf("uncommented defaults decode to %+v, %v; want %+v", cfg, err, lessons.DefaultConfig())
	}
}

func TestPackSchema(t *testing.T) {
	var pack struct {
		Name        string   `json:"name"`
		Maintainers []string `json:"maintainers"`
		MinVersion  string   `json:"minVersion"`
	}
	if err := Decode(PackSchema, "pack.yaml", []byte("name: acme-python\nmaintainers: [ana]\nminVersion: v1.2.0\n"), &pack); err != nil || pack.Name != "acme-python" {
		t.Errorf("Decode(pack) = %+v, %v", pack, err)
	}
	err := Decode(PackSchema, "pack.yaml", []byte("description: x\nminVersion: 1.2\n"), &pack)
	if err == nil || !strings.Contains(err.Error(), "pack.yaml:2:13: minVersion:") || !strings.Contains(err.Error(), "name: required key is missing") {
		t.Errorf("Decode(bad pack) = %v", err)
	}
}

// captureNudges 0 turns live capture off and sayAgain 0 says every lesson
// once a session: a file's 0 must win over the default, unlike the other
// keys' zero, and a negative count is refused.
func TestConfigCountsZero(t *testing.T) {
	for _, tc := range []struct {
		key  string
		get  func(lessons.Config) int
		dflt int
	}{
		{"captureNudges", lessons.Config.Nudges, lessons.DefaultCaptureNudges},
		{"sayAgain", lessons.Config.Again, lessons.DefaultSayAgain},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"config.yaml": tc.key + ": 0\n"})
		cfg, err := Loader{}.Config(filepath.Join(dir, "config.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.get(lessons.DefaultConfig().Overlay(cfg)); got != 0 {
			t.Errorf("%s: 0 over the default = %d", tc.key, got)
		}
		if got := tc.get(lessons.DefaultConfig().Overlay(lessons.Config{})); got != tc.dflt {
			t.Errorf("no %s = %d, want the default %d", tc.key, got, tc.dflt)
		}
		writeFiles(t, dir, map[string]string{"config.yaml": tc.key + ": -1\n"})
		if _, err := (Loader{}).Config(filepath.Join(dir, "config.yaml")); err == nil {
			t.Errorf("%s: -1 was accepted", tc.key)
		}
	}
}

// sayAgain past its cap is refused in a file and capped from the
// environment, where no schema checks it: each saying is a claim file
// the hook may try in turn at a failure.
func TestConfigSayAgainCapped(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"config.yaml": "sayAgain: 1000000\n"})
	if _, err := (Loader{}).Config(filepath.Join(dir, "config.yaml")); err == nil {
		t.Error("sayAgain: 1000000 was accepted")
	}
	if got := (lessons.Config{SayAgain: new(1000000)}).Again(); got != lessons.MaxSayAgain {
		t.Errorf("sayAgain 1000000 = %d, want the cap %d", got, lessons.MaxSayAgain)
	}
}
