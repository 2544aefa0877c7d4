package scanner

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lessons-dev/lessons"
)

// fixtures copies testdata/scanner into a fresh directory, so tests can
// change the files.
func fixtures(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir("../testdata/scanner", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../testdata/scanner", p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// later is a clock an hour ahead, so every fixture counts as idle.
func later() time.Time { return time.Now().Add(time.Hour) }

func scan(t *testing.T, state string, opts Options) Report {
	t.Helper()
	opts.StateDir = state
	if opts.Now == nil {
		opts.Now = later
	}
	rep, err := Scan(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func candidates(t *testing.T, state string) []Candidate {
	t.Helper()
	cs, err := OpenStore(state).List(ListOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// scanned writes each steps as a Claude Code session of project /p (s1,
// s2, …, in that order), scans them and returns the candidates.
func scanned(t *testing.T, sessions ...[]step) []Candidate {
	t.Helper()
	dir, state := t.TempDir(), t.TempDir()
	for i, steps := range sessions {
		writeClaude(t, dir, "/p", "s"+strconv.Itoa(i+1), steps)
	}
	scan(t, state, Options{Paths: []string{dir}})
	return candidates(t, state)
}

// atFailure reports whether a lesson on an error of the work, or a
// shell command's known failure, reaches the agent right after its
// failure without review: a reminder, below minConfidence (afterTheWork).
func atFailure(c Candidate) bool {
	cfg := lessons.DefaultConfig()
	return c.Reminder(cfg) && c.Confidence < cfg.MinConfidence
}

// ofKind is the candidates of cs of one kind.
func ofKind(cs []Candidate, kind string) []Candidate {
	var out []Candidate
	for _, c := range cs {
		if c.Kind == kind {
			out = append(out, c)
		}
	}
	return out
}

// hasKind reports whether one of cs is of kind, at or above confidence
// min.
func hasKind(cs []Candidate, kind string, min float64) bool {
	return slices.ContainsFunc(cs, func(c Candidate) bool { return c.Kind == kind && c.Confidence >= min })
}

func find(cs []Candidate, kind, trigger string) *Candidate {
	for i := range cs {
		if cs[i].Kind == kind && strings.Contains(cs[i].Trigger, trigger) {
			return &cs[i]
		}
	}
	return nil
}

func TestScanFixtures(t *testing.T) {
	dir, state := fixtures(t), t.TempDir()
	rep := scan(t, state, Options{Paths: []string{dir}})
	for f, want := range map[Format]int{FormatClaude: 1, FormatCodex: 1, FormatGeminiJSONL: 1, FormatGeminiJSON: 1, FormatOpencodeExport: 1, FormatOpencodeTree: 6} {
		if got := rep.Formats[f]; got == nil || got.Files != want {
			t.Errorf("format %s: files = %+v, want %d", f, got, want)
		}
	}
	if rep.Tags != 4 || rep.Malformed != 1 {
		t.Errorf("tags = %d, malformed = %d, want 4 and 1", rep.Tags, rep.Malformed)
	}
	if rep.Skipped.InvalidLines != 1 {
		t.Errorf("invalid lines = %d, want 1", rep.Skipped.InvalidLines)
	}
	cs := candidates(t, state)
	tests := []struct {
		kind, trigger  string
		match, noMatch string
	}{
		// A failure the agent reported with a #lesson is one candidate,
		// in the agent's words, counted once.
		{KindTag, "pytest tests/", "pytest tests/", "pytest -p no:cacheprovider tests/"},
		{KindRejection, "npm install", "npm install left-pad", "pnpm install left-pad"},
		{KindCorrection, "go test ./...", "go test ./...", ""},
		{KindTag, "pip install requests", "pip install requests", "pip install --user requests"},
		{KindRetry, "python manage.py", "python manage.py test", "python3 manage.py test"},
		{KindTag, "config.yaml", "", ""},
		{KindTag, "*.lock", "", ""},
	}
	for _, tt := range tests {
		c := find(cs, tt.kind, tt.trigger)
		if c == nil {
			t.Errorf("no %s candidate for %q", tt.kind, tt.trigger)
			continue
		}
		if tt.match != "" && !commandFires(c.Triggers, tt.match) {
			t.Errorf("%s %q: trigger %+v does not fire on %q", tt.kind, tt.trigger, c.Triggers, tt.match)
		}
		if tt.noMatch != "" && commandFires(c.Triggers, tt.noMatch) {
			t.Errorf("%s %q: trigger %+v fires on the fix %q", tt.kind, tt.trigger, c.Triggers, tt.noMatch)
		}
		if c.Occurrences != 1 || len(c.Provenance) != 1 || c.Provenance[0].Line == 0 {
			t.Errorf("%s %q: provenance %+v", tt.kind, tt.trigger, c.Provenance)
		}
	}
	for _, trigger := range []string{"pytest tests/", "pip install requests", "config.yaml"} {
		if c := find(cs, KindRetry, trigger); c != nil {
			t.Errorf("the reported failure of %q is a retry candidate too: %s", trigger, c.Summary)
		}
	}
	if c := find(cs, KindTag, "pytest"); c != nil {
		// the agent's report, confirmed by the retry that worked
		if c.Scope != "global" || !strings.Contains(c.Problem, "\nbecause the cache dir") || c.Confidence != 1 {
			t.Errorf("tag candidate: scope %q, problem %q, confidence %v", c.Scope, c.Problem, c.Confidence)
		}
	}
	if c := find(cs, KindRejection, "npm install"); c != nil && (!c.Signals.FixConfirmed || !c.Signals.UserCorrection) {
		t.Errorf("rejection signals = %+v, want a user correction confirmed by the pnpm retry", c.Signals)
	}
	for _, c := range cs {
		if strings.Contains(c.Problem+c.Solution, "rewound") || strings.Contains(c.Solution, "not a lesson") {
			t.Errorf("candidate from rewound or user text: %+v", c)
		}
		if find(cs, KindRetry, "grep") != nil {
			t.Errorf("a grep with no match became a candidate")
		}
		l := ToLesson(c)
		if errs := lessons.Errors(lessons.Validate(&l)); len(errs) > 0 {
			t.Errorf("ToLesson(%s) invalid: %v", c.ID, errs)
		}
	}
	agents := map[string]AgentReport{}
	for _, a := range rep.Agents {
		agents[a.Agent] = a
	}
	// the pytest failure was reported: 1 tag, 2 found by heuristics alone
	if a := agents["claude"]; a.Sessions != 1 || a.Tags != 1 || a.HeuristicOnly != 2 || a.Compliance != 1.0/3 {
		t.Errorf("claude compliance = %+v", a)
	}
}

func TestScanIncremental(t *testing.T) {
	dir, state := fixtures(t), t.TempDir()
	first := scan(t, state, Options{Paths: []string{dir}})
	again := scan(t, state, Options{Paths: []string{dir}})
	if again.Unchanged != again.Files || again.Findings != 0 || again.NewCandidates != 0 {
		t.Fatalf("rescan of unchanged files: %+v", again)
	}
	before := len(candidates(t, state))

	// A resumed session repeats records: nothing is counted twice.
	session := filepath.Join(dir, "claude", "session.jsonl")
	appendTo(t, session, `{"sessionId":"cc-1","type":"assistant","uuid":"a9","message":{"role":"assistant","content":[{"type":"text","text":"#lesson\ntool: Bash\ntrigger: make\nproblem: make needs -j1 here\nsolution: run make -j1\n#/lesson"}]}}`+"\n"+`{"sessionId":"cc-1","type":"user","uuid":"half`)
	rep := scan(t, state, Options{Paths: []string{dir}, Now: time.Now})
	if rep.Tags != 1 || rep.Formats[FormatClaude].Lines != 1 {
		t.Errorf("after an append: tags %d, lines %+v; want 1 new tag from 1 line", rep.Tags, rep.Formats[FormatClaude])
	}
	if got := len(candidates(t, state)); got != before+1 {
		t.Errorf("candidates = %d, want %d", got, before+1)
	}

	// Truncated and rewritten: read from the start, nothing counted twice.
	b, _ := os.ReadFile(filepath.Join("../testdata/scanner/claude/session.jsonl"))
	if err := os.WriteFile(session, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	rep = scan(t, state, Options{Paths: []string{dir}})
	for _, c := range candidates(t, state) {
		if c.Occurrences != 1 {
			t.Errorf("%s counted %d times after a rescan", c.ID, c.Occurrences)
		}
	}
	full := scan(t, state, Options{Paths: []string{dir}, Full: true})
	if full.Unchanged != 0 || full.Files != first.Files {
		t.Errorf("--full: %+v", full)
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func TestScanPendingUntilIdle(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	lines := `{"sessionId":"p","type":"assistant","uuid":"a","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"cargo build --featurs x"}}]}}
{"sessionId":"p","type":"user","uuid":"r","message":{"content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":"Exit code 101\nerror: unexpected argument --featurs found"}]}}
`
	if err := os.WriteFile(p, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	scan(t, state, Options{Paths: []string{dir}, Now: time.Now})
	appendTo(t, p, `{"sessionId":"p","type":"assistant","uuid":"b","message":{"content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"cargo build --features x"}}]}}
{"sessionId":"p","type":"user","uuid":"r2","message":{"content":[{"type":"tool_result","tool_use_id":"t2","content":"ok"}]}}
`)
	scan(t, state, Options{Paths: []string{dir}, Now: time.Now})
	cs := candidates(t, state)
	if len(cs) != 1 || cs[0].Kind != KindRetry || cs[0].Fixed != "cargo build --features x" {
		t.Fatalf("candidates = %+v, want the failure paired with the retry written later", cs)
	}
}

func TestScanRobust(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	huge := make([]byte, 0, 100<<20+200)
	huge = append(huge, `{"sessionId":"h","type":"user","message":{"content":"`...)
	huge = append(huge, strings.Repeat("x", 100<<20)...)
	huge = append(huge, "\"}}\n"...)
	huge = append(huge, `{"sessionId":"h","type":"assistant","uuid":"a","message":{"content":[{"type":"text","text":"#lesson\nproblem: p after a huge line\nsolution: s\n#/lesson"}]}}`+"\n"...)
	write("huge.jsonl", huge)
	garbage := make([]byte, 4096)
	for i := range garbage {
		garbage[i] = byte(i * 7)
	}
	write("garbage.jsonl", garbage)
	write("empty.jsonl", nil)
	write("doc.json", []byte(`{"sessionId":"x","messages":[{"type":"gemini","content":"#lesson\nproblem: truncated`))
	write("mixed.jsonl", append([]byte(`{"sessionId":"m","type":"user","message":{"content":"hi"}}`+"\n"), garbage...))
	locked := filepath.Join(dir, "locked.jsonl")
	write("locked.jsonl", []byte(`{"sessionId":"l","type":"user","message":{"content":"hi"}}`+"\n"))
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	rep := scan(t, state, Options{Paths: []string{dir}, MaxLineBytes: 1 << 20})
	if rep.Skipped.OverlongLines != 1 || rep.Tags != 1 {
		t.Errorf("huge line: overlong %d, tags %d; want 1 and 1", rep.Skipped.OverlongLines, rep.Tags)
	}
	if os.Geteuid() != 0 && rep.Skipped.UnreadableFiles != 1 {
		t.Errorf("unreadable = %d, want 1 (%v)", rep.Skipped.UnreadableFiles, rep.Errors)
	}
	if rep.Skipped.UnknownFiles < 2 {
		t.Errorf("unknown files = %d, want garbage and empty", rep.Skipped.UnknownFiles)
	}
	if rep.Skipped.InvalidLines == 0 {
		t.Error("the garbage after a valid line was not counted")
	}

	// A file deleted between the walk and the read is counted, not fatal.
	gone := filepath.Join(dir, "gone.jsonl")
	write("gone.jsonl", []byte("{}\n"))
	fi, _ := os.Lstat(gone)
	os.Remove(gone)
	if r := scanFile(job{path: gone, info: fi}, Options{}.withDefaults()); r.err == nil {
		t.Error("reading a deleted file gave no error")
	}
}

func TestScanLocked(t *testing.T) {
	state := t.TempDir()
	l, err := lockState(context.Background(), state, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Scan(context.Background(), Options{StateDir: state}); !errors.Is(err, ErrBusy) {
		t.Errorf("scan while locked: %v, want ErrBusy", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := Scan(ctx, Options{StateDir: state, Wait: true}); err == nil {
		t.Error("waiting scan did not give up with its context")
	}
	l.Unlock()

	// Concurrent scans of the same tree: one runs, the others wait, and
	// the store ends as after one scan.
	dir, state2 := fixtures(t), t.TempDir()
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			_, err := Scan(context.Background(), Options{StateDir: state2, Paths: []string{dir}, Wait: true, Now: later})
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for _, c := range candidates(t, state2) {
		if c.Occurrences != 1 {
			t.Errorf("%s: %d occurrences after concurrent scans", c.ID, c.Occurrences)
		}
	}
}
