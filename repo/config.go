package repo

import (
	"bytes"
	"errors"
	"io/fs"
	"reflect"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// Config reads the config.yaml at path, checked against the config
// schema: an unknown key is an error naming the key and its file:line.
// A missing file is the zero Config and no error.
func (Loader) Config(path string) (lessons.Config, error) {
	var cfg lessons.Config
	data, err := ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, err
	}
	err = Decode(ConfigSchema, path, data, &cfg)
	return cfg, err
}

// WriteConfig writes cfg to path atomically as canonical YAML of its
// non-zero fields; a zero Config is written as DefaultConfigFile.
func WriteConfig(path string, cfg lessons.Config) error {
	data := DefaultConfigFile()
	if !reflect.ValueOf(cfg).IsZero() {
		var err error
		if data, err = canonicalYAML(cfg, nil); err != nil {
			return err
		}
	}
	return scope.WriteFileAtomic(path, data, 0o644)
}

// DefaultConfigFile is a new store's config.yaml: every key commented out
// with its default value, so it reads as documentation and sets nothing.
func DefaultConfigFile() []byte {
	var b bytes.Buffer
	b.WriteString("# lessons configuration. Uncomment a key to change it; a project's\n" +
		"# .lessons/config.yaml wins over this one, and a LESSONS_* environment\n" +
		"# variable wins over both (minPriority -> LESSONS_MIN_PRIORITY).\n")
	defaults, _ := canonicalYAML(lessons.DefaultConfig(), nil)
	for line := range bytes.Lines(defaults) {
		b.WriteString("# ")
		b.Write(line)
	}
	b.WriteString("# scanPaths: []    # where session logs are read from\n" +
		"# disable: []      # slugs or ids of lessons to mute\n" +
		"# allow: []        # slugs or ids of blocking lessons whose calls this project permits\n" +
		"# injectAggregates: false  # inject a tool's aggregated text instead of its lessons\n" +
		"# scoring: {}      # weights for captured candidates, e.g. heuristicConfidence: 0.3\n" +
		"# packs:           # team packs\n" +
		"#   - name: team\n" +
		"#     url: https://example.com/team/lessons-pack.git\n")
	return b.Bytes()
}
