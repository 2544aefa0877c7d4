package engine

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

func TestManifestRoundTrip(t *testing.T) {
	mg := merged(
		lesson("a", lessons.Trigger{Commands: []string{`x`}, SessionStart: true}),
		lesson("bad", lessons.Trigger{Commands: []string{`(?<=x`}}),
		lesson("b", lessons.Trigger{Keywords: []string{"docker image"}}),
	)
	mg.Active[0].Block, mg.Active[0].BlockReason, mg.Active[0].Tags = true, "no {command}", []string{"lang:go", "tool:x"}
	mg.Active[2].Scope, mg.Active[2].AllowBlock = lessons.PackScope("acme"), false
	mg.Sources = []scope.Stamp{scope.StampOf(t.TempDir())}
	m, err := Compile(mg, scope.Stamp{Path: "/nonexistent/lessons-cli", Missing: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings()) != 1 || m.Len() != 2 {
		t.Fatalf("warnings %v, %d lessons: want the bad pattern left out", m.Warnings(), m.Len())
	}
	path := filepath.Join(t.TempDir(), "sub", "x.manifest")
	if err := m.WriteManifest(path); err != nil {
		t.Fatal(err)
	}
	o, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if o.Project != "/p" || !reflect.DeepEqual(o.Stack, []string{"lang:go"}) || len(o.Sources) != 2 || !o.Fresh() {
		t.Errorf("header = %q %v %v fresh=%v", o.Project, o.Stack, o.Sources, o.Fresh())
	}
	if o.Config.InjectionBudgetBytes != 4096 || o.Config.PromptMinScore != 2 {
		t.Errorf("config = %+v", o.Config)
	}
	a, _ := o.Entry(0)
	want := Entry{ID: "a", Slug: "a", Scope: lessons.ScopeGlobal, Priority: 5, Confidence: 1, StackBonus: 1,
		Tags: []string{"lang:go", "tool:x"}, Block: true, Decision: lessons.DecisionDeny, BlockReason: "no {command}", Kind: lessons.KindHazard,
		Summary: "summary of a", Text: "## Lesson: summary of a\nproblem of a\n**Fix**: solution of a", SessionStart: true}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("Entry(0) = %+v\nwant %+v", a, want)
	}
	if a.Reason("rm x") != "no rm x" {
		t.Errorf("Reason = %q", a.Reason("rm x"))
	}
	b, _ := o.Entry(1)
	if b.Block || b.Text != "## Lesson: summary of b\nproblem of b\n**Fix**: solution of b\n(from team pack acme)" {
		t.Errorf("pack entry = %+v", b)
	}
	if idx, _ := o.SessionStart(); !reflect.DeepEqual(idx, []int{0}) {
		t.Errorf("SessionStart = %v", idx)
	}
	if s, _ := o.Relevant("how do I shrink a Docker image", 0.1, 3); len(s) != 1 || s[0].Index != 1 {
		t.Errorf("Relevant = %v", s)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing) = %v, want fs.ErrNotExist", err)
	}
}

// TestCorruptManifests reads manifests with bytes changed, cut and
// inserted, deterministically: every reader must fail cleanly.
func TestCorruptManifests(t *testing.T) {
	m, err := Compile(merged(syntheticLessons(20)...), scope.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 5000 {
		data := bytes.Clone(m.data)
		for range 1 + rng.IntN(4) {
			i := rng.IntN(len(data))
			switch rng.IntN(3) {
			case 0:
				data[i] = byte(rng.IntN(256))
			case 1:
				data = append(data[:i], data[min(len(data), i+1+rng.IntN(8)):]...)
			case 2:
				data = append(data[:i], append([]byte{byte(rng.IntN(256)), 0xff, 0xff, 0x7f}, data[i:]...)...)
			}
		}
		readAll(data)
	}
}

func readAll(data []byte) {
	m, err := decodeManifest(data)
	if err != nil {
		return
	}
	for i := range min(m.Len(), 50) {
		_, _ = m.Entry(i)
	}
	for _, c := range benchCalls {
		idx, _ := m.candidates(c.Tool, nil)
		for _, i := range idx {
			_, _ = m.part(i, 0)
		}
	}
	_, _ = m.SessionStart()
	_, _ = m.Relevant("git push npm install", 0, 3)
}

// FuzzDecode feeds corrupt manifests to every reader: none may panic.
// It stops short of running regexes: a corrupt pattern is regexp2's
// problem, bounded by its timeout.
func FuzzDecode(f *testing.F) {
	m, err := Compile(merged(syntheticLessons(20)...), scope.Stamp{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(m.data)
	f.Add(m.data[:len(m.data)/2])
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) { readAll(bytes.Clone(data)) })
}

// TestManifestChecksums: a manifest of the wrong length or with a byte
// changed before the entries fails to open; one changed in the entries
// opens, matches calls without reading them, and fails at its first
// entry, removed so that the next call rebuilds it.
func TestManifestChecksums(t *testing.T) {
	path := syntheticManifest(t, 50)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	entries := m.entries
	m.Close()
	if entries <= headerSize || entries >= len(good) {
		t.Fatalf("entries at %d of %d", entries, len(good))
	}
	write := func(data []byte) {
		t.Helper()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	flip := func(at int) []byte {
		b := bytes.Clone(good)
		b[at] ^= 0x55
		return b
	}
	for name, data := range map[string][]byte{
		"cut short":       good[:len(good)-1],
		"grown":           append(bytes.Clone(good), 0),
		"header changed":  flip(lengthAt - 1),
		"triggers change": flip(entries - 1),
	} {
		write(data)
		if _, err := Open(path); !errors.Is(err, errCorrupt) {
			t.Errorf("%s: Open = %v, want corrupt", name, err)
		}
	}

	write(flip(len(good) - 1))
	m, err = Open(path)
	if err != nil {
		t.Fatalf("entries changed: Open = %v, want it to open", err)
	}
	defer m.Close()
	if idx, err := m.candidates("Bash", nil); err != nil || len(idx) == 0 {
		t.Fatalf("candidates = %v, %v", idx, err)
	}
	if _, err := m.part(0, 0); err != nil {
		t.Errorf("triggers of lesson 0: %v", err)
	}
	if _, err := m.Entry(0); !errors.Is(err, errCorrupt) {
		t.Errorf("Entry(0) = %v, want corrupt", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the manifest that failed its entries' checksum is still there: %v", err)
	}
}
