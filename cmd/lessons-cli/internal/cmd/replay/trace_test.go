package replay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// TestTraceMatchesItsSchema pins the trace format: the schema names
// exactly TraceCall's, TracePrompt's and TraceFire's fields, every line
// a learning replay writes is valid against it, and each session's
// typed prompt is on the line before the first call that came after it.
func TestTraceMatchesItsSchema(t *testing.T) {
	data, err := lessons.Schemas.ReadFile("schemas/replay-trace.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("trace.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("trace.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for def, v := range map[string]any{"call": TraceCall{}, "prompt": TracePrompt{}, "fire": TraceFire{}, "lesson": TraceLesson{}} {
		if got, want := sortedKeys(raw.Defs[def].Properties), jsonFields(v); !slices.Equal(got, want) {
			t.Errorf("schema %s properties %v, Go fields %v", def, got, want)
		}
	}

	var out bytes.Buffer
	_, err = Run(context.Background(), Job{Merged: scope.Merged{Config: lessons.DefaultConfig()}, Learn: LearnAll,
		Weights: scanner.DefaultWeights(), Read: scanner.ReadOptions{Paths: []string{learningHistory(t, 12)}}, Trace: &out})
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	n, verdicts, kinds := 0, map[string]int{}, map[string]int{}
	var prev struct {
		Kind  string
		Index int
	}
	for sc.Scan() {
		n++
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc.Bytes()))
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("line %d: %v\n%s", n, err, sc.Bytes())
		}
		var tc TraceCall
		_ = json.Unmarshal(sc.Bytes(), &tc)
		kinds[tc.Kind]++
		if tc.Kind == traceKindLesson && prev.Kind != traceKindCall {
			t.Errorf("line %d: a lesson after a %s line; want it after its session's calls", n, prev.Kind)
		}
		if tc.Kind == traceKindCall {
			verdicts[tc.Verdict]++
			if (tc.Index == 0) != (prev.Kind == traceKindPrompt) {
				t.Errorf("line %d: call %d after a %s line; want each session's prompt right before its first call", n, tc.Index, prev.Kind)
			}
		}
		prev.Kind, prev.Index = tc.Kind, tc.Index
	}
	// 12 sessions of 12 calls after one prompt; each failed make deployN
	// is a first, learned as a lesson after its session's calls.
	if kinds[traceKindCall] != 12*12 || kinds[traceKindPrompt] != 12 || kinds[traceKindLesson] != 12 || n != 12*14 || verdicts[""] != 12*12 {
		t.Errorf("%d lines, kinds %v, verdicts %v", n, kinds, verdicts)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// jsonFields are the JSON names of a struct's fields, sorted.
func jsonFields(v any) []string {
	var out []string
	rt := reflect.TypeOf(v)
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// TestTraceHoldsNoSecret: a secret a logged command held is redacted in
// the trace, as in every candidate: a trace is a file a user keeps.
func TestTraceHoldsNoSecret(t *testing.T) {
	dir := t.TempDir()
	token := "glpat-Xq9Lm2Kp7Zc8Vb1Nd6Hf"
	for i, s := range []string{"s1", "s2"} {
		l := newClaudeLog(s, "/home/dev/shop", time.Date(2025, 1, 1, i, 0, 0, 0, time.UTC))
		l.bash("curl -s --header \"PRIVATE-TOKEN: "+token+"\" https://gitlab.example/api/v4/projects | python3 -m json.tool", "Exit code 1\nExpecting value: line 1 column 1 (char 0)", true)
		l.bash("ls", "Makefile", false)
		l.write(t, dir)
	}
	var out bytes.Buffer
	if _, err := Run(context.Background(), Job{Merged: scope.Merged{Config: lessons.DefaultConfig()}, Learn: LearnAll,
		Weights: scanner.DefaultWeights(), Read: scanner.ReadOptions{Paths: []string{dir}}, Trace: &out}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "curl -s") {
		t.Fatalf("trace holds no command:\n%s", out.String())
	}
	if strings.Contains(out.String(), token) {
		t.Errorf("trace holds the token:\n%s", out.String())
	}
}
