package lessons

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
)

// Config tunes selection, capture and packs. It is read from config.yaml in
// the global store and in a project's .lessons/ (the project wins), then
// from LESSONS_* environment variables (see ApplyEnv).
type Config struct {
	// InjectionBudgetBytes caps the lesson text added to one tool call.
	InjectionBudgetBytes int `json:"injectionBudgetBytes,omitempty"`
	// MaxLessonsPerInjection caps the lessons added to one tool call.
	MaxLessonsPerInjection int `json:"maxLessonsPerInjection,omitempty"`
	// MinConfidence excludes less certain lessons from the manifest.
	MinConfidence float64 `json:"minConfidence,omitempty"`
	// MinErrorConfidence is the confidence enough for a lesson that speaks
	// only after a failure whose error its triggers name (triggers.errors):
	// it never comes before a call, so a less certain one costs nothing
	// until the same error comes back. See Config.Admits.
	MinErrorConfidence float64 `json:"minErrorConfidence,omitempty"`
	// MinPriority excludes less important lessons from the manifest.
	MinPriority int `json:"minPriority,omitempty"`
	// CompactionReinjectionThreshold is the priority from which a lesson
	// may be injected again after the agent compacts its context.
	CompactionReinjectionThreshold int `json:"compactionReinjectionThreshold,omitempty"`
	// PromptMinScore is the relevance a prompt needs to bring a lesson up.
	PromptMinScore float64 `json:"promptMinScore,omitempty"`
	// PromptLessons turns lessons at a prompt on or off: "on" or "off"
	// (the default; see PromptLessonsOn).
	PromptLessons string `json:"promptLessons,omitempty"`
	// ScanPaths are where session logs are read from.
	ScanPaths []string `json:"scanPaths,omitempty"`
	// ScanIntervalMinutes spaces the background scans a session start runs.
	ScanIntervalMinutes int `json:"scanIntervalMinutes,omitempty"`
	// AggregateMinLessons is how many lessons a tool (tag tool:X) needs
	// for build to join them into one aggregated text.
	AggregateMinLessons int `json:"aggregateMinLessons,omitempty"`
	// InjectAggregates makes the hook inject a tool's aggregated text
	// instead of its lessons one by one.
	InjectAggregates bool `json:"injectAggregates,omitempty"`
	// CaptureNudges caps the times per session the hook asks the agent to
	// write a #lesson block after it fixed a failed call; 0 turns live
	// capture off. A pointer, so that a file can set 0 over the default.
	CaptureNudges *int `json:"captureNudges,omitempty"`
	// SayAgain is how many more times a session may hear a lesson on an
	// error (triggers.errors) after the first: each time that error comes
	// back after the lesson was said, it is said again with the failure,
	// up to this many times; 0 says every lesson once a session. A
	// pointer, so that a file can set 0 over the default.
	SayAgain *int `json:"sayAgain,omitempty"`
	// NetworkTimeoutSeconds bounds each network step of a pack's sync,
	// update or submit: listing the remote, fetching, pushing.
	NetworkTimeoutSeconds int `json:"networkTimeoutSeconds,omitempty"`
	// Scoring overrides, by name, the weights that score captured
	// candidates (see scanner.DefaultWeights), e.g. heuristicConfidence.
	Scoring map[string]float64 `json:"scoring,omitempty"`
	// Disable mutes lessons by slug or id, from any scope.
	Disable []string `json:"disable,omitempty"`
	// Allow names, by slug or id, the blocking lessons whose calls this
	// scope permits: they neither refuse nor ask here, and still say why
	// the call is risky once a session. A project's config allows a
	// hazard its own workflow uses on purpose (a reset to the remote
	// branch) without turning it off anywhere else.
	Allow []string `json:"allow,omitempty"`
	// Packs are the team packs this scope subscribes to.
	Packs []PackRef `json:"packs,omitempty"`
}

// PackRef subscribes to a team pack.
type PackRef struct {
	Name string `json:"name"`
	URL  string `json:"url"`
	Ref  string `json:"ref,omitempty"`
	// AllowBlock lets the pack's lessons block tool calls.
	AllowBlock bool `json:"allowBlock,omitempty"`
	// Store is the directory of the config that subscribed the pack, set
	// when the config is read. Each subscribing store keeps its own active
	// version of the pack, the one its lessons.lock pins.
	Store string `json:"-"`
}

// DefaultConfig is the configuration before any file or variable.
func DefaultConfig() Config {
	return Config{
		InjectionBudgetBytes:           4096,
		MaxLessonsPerInjection:         3,
		MinConfidence:                  0.5,
		MinErrorConfidence:             0.4,
		MinPriority:                    1,
		CompactionReinjectionThreshold: 7,
		PromptMinScore:                 2.0,
		PromptLessons:                  "off",
		ScanIntervalMinutes:            60,
		AggregateMinLessons:            5,
		NetworkTimeoutSeconds:          60,
		CaptureNudges:                  new(DefaultCaptureNudges),
		SayAgain:                       new(DefaultSayAgain),
	}
}

// PromptLessonsOn reports whether the hook brings lessons up at a prompt.
// Off unless set to "on": on 172 real prompts nobody tuned on, none of
// the lessons that came up bore on the work asked for (see the README),
// so text that costs tokens on every prompt stays out until the user
// asks for it.
func (c Config) PromptLessonsOn() bool { return c.PromptLessons == "on" }

// Admits reports whether a lesson of confidence conf is certain enough
// for the manifest: minConfidence, or minErrorConfidence (when lower) for
// one that comes only after its error (afterOnly).
func (c Config) Admits(conf float64, afterOnly bool) bool {
	if afterOnly && c.MinErrorConfidence > 0 && conf >= min(c.MinErrorConfidence, c.MinConfidence) {
		return true
	}
	return conf >= c.MinConfidence
}

// DefaultCaptureNudges is captureNudges' default.
const DefaultCaptureNudges = 3

// Nudges is the captureNudges setting: its default when unset.
func (c Config) Nudges() int {
	if c.CaptureNudges == nil {
		return DefaultCaptureNudges
	}
	return max(*c.CaptureNudges, 0)
}

// DefaultSayAgain is sayAgain's default: a mistake made a third time in
// a session hears its lesson a third time, and after that the lesson is
// not what stops it.
const DefaultSayAgain = 2

// MaxSayAgain caps sayAgain: each saying is a claim file the hook may
// try in turn at a failure.
const MaxSayAgain = 10

// Again is the sayAgain setting: its default when unset, at most
// MaxSayAgain.
func (c Config) Again() int {
	if c.SayAgain == nil {
		return DefaultSayAgain
	}
	return min(max(*c.SayAgain, 0), MaxSayAgain)
}

// Overlay returns c with every field that o sets replacing c's. Disable
// and allow lists are joined, and packs are joined with o winning on a
// name clash.
func (c Config) Overlay(o Config) Config {
	out := c
	cv, ov := reflect.ValueOf(&out).Elem(), reflect.ValueOf(o)
	for i := 0; i < ov.NumField(); i++ {
		if f := ov.Field(i); !f.IsZero() {
			cv.Field(i).Set(f)
		}
	}
	out.Disable = joinUnique(c.Disable, o.Disable)
	out.Allow = joinUnique(c.Allow, o.Allow)
	out.Packs = append([]PackRef(nil), c.Packs...)
	for _, p := range o.Packs {
		replaced := false
		for i := range out.Packs {
			if out.Packs[i].Name == p.Name {
				out.Packs[i], replaced = p, true
			}
		}
		if !replaced {
			out.Packs = append(out.Packs, p)
		}
	}
	return out
}

func joinUnique(a, b []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range append(append([]string(nil), a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// EnvName is the variable that overrides a config key, for example
// injectionBudgetBytes -> LESSONS_INJECTION_BUDGET_BYTES.
func EnvName(key string) string {
	var b strings.Builder
	b.WriteString("LESSONS_")
	for i, r := range key {
		if r >= 'A' && r <= 'Z' && i > 0 {
			b.WriteByte('_')
		}
		b.WriteString(strings.ToUpper(string(r)))
	}
	return b.String()
}

// ApplyEnv overrides c with LESSONS_* variables read through getenv. Lists
// are comma-separated (scanPaths uses the OS path list separator); packs
// and scoring are JSON. A variable that does not parse is an error naming it.
func (c Config) ApplyEnv(getenv func(string) string) (Config, error) {
	var v reflect.Value
	for i, k := range configEnv {
		key, name := k.key, k.env
		s := getenv(name)
		if s == "" {
			continue
		}
		if !v.IsValid() {
			v = reflect.ValueOf(&c).Elem()
		}
		f := v.Field(i)
		if f.Kind() == reflect.Pointer {
			f.Set(reflect.New(f.Type().Elem()))
			f = f.Elem()
		}
		var err error
		switch f.Kind() {
		case reflect.String:
			if key == "promptLessons" && s != "on" && s != "off" {
				err = fmt.Errorf("want on or off")
			}
			f.SetString(s)
		case reflect.Int:
			var n int
			n, err = strconv.Atoi(s)
			f.SetInt(int64(n))
		case reflect.Bool:
			var v bool
			v, err = strconv.ParseBool(s)
			f.SetBool(v)
		case reflect.Float64:
			var x float64
			x, err = strconv.ParseFloat(s, 64)
			f.SetFloat(x)
		case reflect.Slice:
			if f.Type().Elem().Kind() == reflect.String {
				sep := ","
				if key == "scanPaths" {
					sep = string(os.PathListSeparator)
				}
				f.Set(reflect.ValueOf(splitList(s, sep)))
			} else {
				err = json.Unmarshal([]byte(s), f.Addr().Interface())
			}
		case reflect.Map:
			err = json.Unmarshal([]byte(s), f.Addr().Interface())
		}
		if err != nil {
			return c, fmt.Errorf("environment variable %s=%q: %w", name, s, err)
		}
	}
	return c, nil
}

// configEnv are Config's keys in field order, each with its variable
// (EnvName): ApplyEnv reads the variables without reflecting on the type,
// which cost every hook call about 35 µs, and reflects only on a field
// whose variable is set. A key added to Config goes here too
// (TestConfigEnvIsConfig says so).
var configEnv = [...]struct{ key, env string }{
	{"injectionBudgetBytes", "LESSONS_INJECTION_BUDGET_BYTES"},
	{"maxLessonsPerInjection", "LESSONS_MAX_LESSONS_PER_INJECTION"},
	{"minConfidence", "LESSONS_MIN_CONFIDENCE"},
	{"minErrorConfidence", "LESSONS_MIN_ERROR_CONFIDENCE"},
	{"minPriority", "LESSONS_MIN_PRIORITY"},
	{"compactionReinjectionThreshold", "LESSONS_COMPACTION_REINJECTION_THRESHOLD"},
	{"promptMinScore", "LESSONS_PROMPT_MIN_SCORE"},
	{"promptLessons", "LESSONS_PROMPT_LESSONS"},
	{"scanPaths", "LESSONS_SCAN_PATHS"},
	{"scanIntervalMinutes", "LESSONS_SCAN_INTERVAL_MINUTES"},
	{"aggregateMinLessons", "LESSONS_AGGREGATE_MIN_LESSONS"},
	{"injectAggregates", "LESSONS_INJECT_AGGREGATES"},
	{"captureNudges", "LESSONS_CAPTURE_NUDGES"},
	{"sayAgain", "LESSONS_SAY_AGAIN"},
	{"networkTimeoutSeconds", "LESSONS_NETWORK_TIMEOUT_SECONDS"},
	{"scoring", "LESSONS_SCORING"},
	{"disable", "LESSONS_DISABLE"},
	{"allow", "LESSONS_ALLOW"},
	{"packs", "LESSONS_PACKS"},
}

func splitList(s, sep string) []string {
	var out []string
	for _, p := range strings.Split(s, sep) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ConfigKeys lists the keys a config file may hold.
func ConfigKeys() []string {
	t := reflect.TypeOf(Config{})
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return keys
}
