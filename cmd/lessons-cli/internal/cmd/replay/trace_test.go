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

	"github.com/santhosh-tekuri/jsonschema/v6"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// TestTraceMatchesItsSchema pins the trace format: the schema names
// exactly TraceCall's and TraceFire's fields, and every line a learning
// replay writes is valid against it.
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
		Properties map[string]struct {
			Items struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"items"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if got, want := sortedKeys(raw.Properties), jsonFields(TraceCall{}); !slices.Equal(got, want) {
		t.Errorf("schema properties %v, TraceCall fields %v", got, want)
	}
	if got, want := sortedKeys(raw.Properties["fired"].Items.Properties), jsonFields(TraceFire{}); !slices.Equal(got, want) {
		t.Errorf("schema fire properties %v, TraceFire fields %v", got, want)
	}

	var out bytes.Buffer
	_, err = Run(context.Background(), Job{Merged: scope.Merged{Config: lessons.DefaultConfig()}, Learn: LearnAll,
		Weights: scanner.DefaultWeights(), Read: scanner.ReadOptions{Paths: []string{learningHistory(t, 12)}}, Trace: &out})
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	n, verdicts := 0, map[string]int{}
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
		verdicts[tc.Verdict]++
	}
	// 12 sessions of 12 calls; each failed make deployN is a first.
	if n != 12*12 || verdicts[""] != n {
		t.Errorf("%d lines, verdicts %v", n, verdicts)
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
