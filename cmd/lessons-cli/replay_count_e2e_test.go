package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// loggedCall is one Bash call of a session these tests write, with its
// output; fail marks the output an error.
type loggedCall struct {
	command, out string
	fail         bool
}

// writeSession writes a Claude Code session log of calls, in project
// cwd, started at hour h of a fixed day; it returns the log's path.
func writeSession(t *testing.T, dir, id, cwd string, h int, calls ...loggedCall) string {
	t.Helper()
	at := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(h) * time.Hour)
	var b strings.Builder
	n := 0
	line := func(rec map[string]any) {
		n++
		rec["sessionId"], rec["cwd"], rec["uuid"] = id, cwd, fmt.Sprintf("%s-%d", id, n)
		rec["timestamp"] = at.Add(time.Duration(n) * time.Second).Format(time.RFC3339)
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": "carry on"}})
	for k, c := range calls {
		tid := fmt.Sprintf("t%d", k)
		line(map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": tid, "name": "Bash", "input": map[string]any{"command": c.command}}}}})
		res := map[string]any{"type": "tool_result", "tool_use_id": tid, "content": c.out}
		if c.fail {
			res["is_error"] = true
		}
		line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{res}}})
	}
	path := filepath.Join(dir, id+".jsonl")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	deployFails = loggedCall{"make deploy", "Exit code 2\nerror: STAGE is not set\nusage: STAGE=<env> make deploy", true}
	deployFixed = loggedCall{"STAGE=staging make deploy", "deployed", false}
	noTarget    = loggedCall{"make deploy", "Exit code 2\nmake: *** No rule to make target 'deploy'.  Stop.", true}
)

// traceLine is a --trace line, as a recounter reads it: a call's, a
// prompt's (Kind "prompt", with Before and Bytes) or a learned lesson's
// (Kind "lesson", with Slug and Live).
type traceLine struct {
	Kind, File, Session, Project, Agent, Tool, Command, Outcome, Family, Class, Verdict, Slug string
	Index, Line, InjectedBytes, Before, Bytes                                                 int
	Repeat, Live, Copy                                                                        bool
	Matched                                                                                   []string
	Fired                                                                                     []struct {
		Slug, Kind, At, Refused string
		Provisional, Addresses  bool
		LearnedFrom             []struct {
			File  string
			Index int
		}
	}
}

// traceFields are the fields of a call's and a prompt's trace line, and
// of a fire, sorted.
const (
	traceFields  = "agent class command family file fired index injectedBytes kind line matched outcome project repeat session tool verdict"
	promptFields = "agent before bytes file fired index injectedBytes kind line project session"
	lessonFields = "confidence file keys kind live project session slug summary triggers"
	fireFields   = "addresses at kind learnedFrom provisional slug"
)

// readTrace reads a trace file, checking that every line is a JSON
// object with exactly the documented fields of its kind.
func readTrace(t *testing.T, path string) []traceLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []traceLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			t.Fatalf("trace line %d is not a JSON object: %v\n%s", n, err, sc.Bytes())
		}
		want := traceFields
		switch string(raw["kind"]) {
		case `"prompt"`:
			want = promptFields
		case `"lesson"`:
			want = lessonFields
		}
		delete(raw, "copy") // only on a copy
		if got := strings.Join(slices.Sorted(maps.Keys(raw)), " "); got != want {
			t.Fatalf("trace line %d fields:\n got %s\nwant %s", n, got, want)
		}
		var fires []map[string]json.RawMessage
		_ = json.Unmarshal(raw["fired"], &fires)
		for _, fr := range fires {
			delete(fr, "refused") // only on a refusal
			if got := strings.Join(slices.Sorted(maps.Keys(fr)), " "); got != fireFields {
				t.Fatalf("trace line %d fire fields: %s", n, got)
			}
		}
		var l traceLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// replayRecounted runs replay with args and a trace, wants it to exit 0,
// and recounts its report from the trace, which it returns.
func (s *sandbox) replayRecounted(t *testing.T, args ...string) (replayJSON, []traceLine) {
	t.Helper()
	trace := filepath.Join(s.root, "trace.jsonl")
	rep, r := s.replay(t, append(args, "--trace", trace)...)
	if r.code != 0 {
		t.Fatalf("replay exit %d\n%s", r.code, r.stderr)
	}
	all := readTrace(t, trace)
	recount(t, all, rep)
	return rep, all
}

// callsOf are the call lines of a trace.
func callsOf(lines []traceLine) []traceLine {
	var out []traceLine
	for _, l := range lines {
		if l.Kind == "call" && !l.Copy {
			out = append(out, l) // a copy is no call (docs/replay.md)
		}
	}
	return out
}

// recount recomputes the report's figures from the trace alone, by its
// own reading of the definitions in docs/replay.md, and compares them
// with the report: repeats, verdicts, fires that address a failure,
// per-lesson and per-group figures from the call lines, prompt-time
// figures from the prompt lines.
func recount(t *testing.T, lines []traceLine, rep replayJSON) {
	t.Helper()
	recountPrompts(t, lines, rep)
	recountLearned(t, lines, rep)
	trace := callsOf(lines)
	byRef := map[string]*traceLine{}
	for i := range lines {
		if lines[i].Kind == "call" {
			byRef[fmt.Sprintf("%s#%d", lines[i].File, lines[i].Index)] = &lines[i]
		}
	}
	key := func(c *traceLine) string { return c.Family + " | " + c.Class }
	project := func(c *traceLine) string {
		if c.Project == "" {
			return "(no project)"
		}
		return c.Project
	}
	// Repeats, from the order of the lines alone.
	failedIn := map[string]map[string]bool{} // project → keys of earlier sessions
	var sessionKeys []string
	calls, failed, rejected, stopped, repeated, injections, injected, blocks := 0, 0, 0, 0, 0, 0, 0, 0
	verdicts := map[string]int{}
	type fig struct{ matches, fires, before, addressing, refused int }
	lessons := map[string]*fig{}
	groups := map[string]*groupJSON{}
	row := func(name string) *groupJSON {
		if groups[name] == nil {
			groups[name] = &groupJSON{Name: name}
		}
		return groups[name]
	}
	unrelatedFires, learnedBeforeFine := 0, 0
	for i := range trace {
		c := &trace[i]
		if i == 0 || c.File != trace[i-1].File {
			for _, k := range sessionKeys {
				p, kk, _ := strings.Cut(k, "\x00")
				if failedIn[p] == nil {
					failedIn[p] = map[string]bool{}
				}
				failedIn[p][kk] = true
			}
			sessionKeys = nil
		}
		repeat := c.Outcome == "failed" && failedIn[project(c)][key(c)]
		if repeat != c.Repeat {
			t.Errorf("%s#%d: repeat %v, recounted %v", c.File, c.Index, c.Repeat, repeat)
		}
		if c.Outcome == "failed" {
			sessionKeys = append(sessionKeys, project(c)+"\x00"+key(c))
		}
		// Each fire: does it address the call's failure?
		var prevented, shortened, other bool
		for _, f := range c.Fired {
			addr := false
			switch {
			case f.Provisional:
				for _, ref := range f.LearnedFrom {
					from := byRef[fmt.Sprintf("%s#%d", ref.File, ref.Index)]
					if from == nil {
						t.Fatalf("%s#%d: %s learned from %s#%d, not in the trace", c.File, c.Index, f.Slug, ref.File, ref.Index)
					}
					// the same key, or, for a fire with the failure, a
					// family or a class in common (learnedInfo.near)
					addr = addr || c.Outcome == "failed" && (key(from) == key(c) ||
						f.At == "after" && (from.Family == c.Family || from.Class == c.Class))
				}
			case f.Kind == "hazard":
			case c.Outcome == "failed":
				addr = true
			default:
				for j := i + 1; j < len(trace) && trace[j].File == c.File; j++ {
					if trace[j].Family == c.Family {
						addr = trace[j].Outcome == "failed"
						break
					}
				}
			}
			// A lesson that names the failures it addresses is credited
			// with fewer than these: the trace holds no output to check
			// which, so a loose address may be narrowed, never widened.
			narrowed := addr && !f.Addresses && !f.Provisional && f.At == "before"
			if addr != f.Addresses && !narrowed {
				t.Errorf("%s#%d: %s addresses %v, recounted %v", c.File, c.Index, f.Slug, f.Addresses, addr)
			}
			addr = f.Addresses
			l := lessons[f.Slug]
			if l == nil {
				l = &fig{}
				lessons[f.Slug] = l
			}
			l.fires++
			if addr {
				l.addressing++
			}
			if f.Refused != "" {
				l.refused++
				blocks++
			}
			if f.Provisional && c.Outcome == "failed" && f.At == "before" && !addr {
				unrelatedFires++
			}
			if f.Provisional && c.Outcome == "fine" && f.At == "before" {
				learnedBeforeFine++
			}
			switch {
			case !f.Provisional || c.Outcome != "failed":
			case addr && f.At == "before":
				prevented = true
			case addr:
				shortened = true
			case f.At == "before":
				other = true
			}
		}
		v := ""
		switch {
		case prevented:
			v = "prevented"
		case shortened:
			v = "shortened"
		case other:
			v = "unrelated"
		}
		if v != c.Verdict {
			t.Errorf("%s#%d: verdict %q, recounted %q", c.File, c.Index, c.Verdict, v)
		}
		verdicts[v]++
		for _, slug := range c.Matched {
			if lessons[slug] == nil {
				lessons[slug] = &fig{}
			}
			lessons[slug].matches++
		}
		calls++
		if c.InjectedBytes > 0 {
			injections++
			injected += c.InjectedBytes
		}
		for _, g := range []*groupJSON{row("agent " + c.Agent), row("project " + project(c))} {
			g.Calls++
			if c.Outcome == "failed" {
				g.Failed++
			}
			if repeat {
				g.Repeated++
			}
			switch v {
			case "prevented":
				g.Prevented++
			case "shortened":
				g.Shortened++
			case "unrelated":
				g.Unrelated++
			}
		}
		switch c.Outcome {
		case "failed":
			failed++
			if repeat {
				repeated++
			}
		case "rejected":
			rejected++
		case "stopped":
			stopped++
		}
	}
	if got, want := []int{rep.Calls, rep.Failed, rep.Rejected, rep.Stopped, rep.Repeated, rep.Injections, int(rep.InjectedBytes), rep.Blocks},
		[]int{calls, failed, rejected, stopped, repeated, injections, injected, blocks}; !slices.Equal(got, want) {
		t.Errorf("calls, failed, rejected, stopped, repeated, injections, bytes, blocks: report %v, trace %v", got, want)
	}
	if l := rep.Learn; l != nil {
		if got, want := []int{l.Prevented, l.Shortened, l.Unrelated, l.UnrelatedFires, l.LearnedFiresBeforeFine},
			[]int{verdicts["prevented"], verdicts["shortened"], verdicts["unrelated"], unrelatedFires, learnedBeforeFine}; !slices.Equal(got, want) {
			t.Errorf("prevented, shortened, unrelated, unrelated fires, learned fires before fine: report %v, trace %v", got, want)
		}
	}
	for _, gs := range []struct {
		prefix string
		rows   []groupJSON
	}{{"agent ", rep.Agents}, {"project ", rep.Projects}} {
		for _, g := range gs.rows {
			want := *groups[gs.prefix+g.Name]
			want.Name = g.Name
			if g != want {
				t.Errorf("%s%s: report %+v, trace %+v", gs.prefix, g.Name, g, want)
			}
		}
	}
	for _, l := range rep.Lessons {
		f := lessons[l["slug"].(string)]
		got := []int{int(l["matches"].(float64)), int(l["fires"].(float64)), int(l["firesAddressing"].(float64)),
			int(l["refused"].(float64) + l["asked"].(float64))}
		if want := []int{f.matches, f.fires, f.addressing, f.refused}; !slices.Equal(got, want) {
			t.Errorf("%s: matches, fires, addressing, refused: report %v, trace %v", l["slug"], got, want)
		}
		if p, ok := l["precision"].(float64); ok && math.Abs(p-float64(f.addressing)/float64(f.fires)) > 1e-4 {
			t.Errorf("%s: precision %g, recounted %d/%d", l["slug"], p, f.addressing, f.fires)
		}
	}
}

// recountLearned checks the learned lessons' lines against the fires
// and the report: a learned lesson fires only after a line that says it
// is live, and the lessons live after the last session are the report's
// provisional ones, global and project alike.
func recountLearned(t *testing.T, lines []traceLine, rep replayJSON) {
	t.Helper()
	live := map[string]*traceLine{}
	for i := range lines {
		l := &lines[i]
		switch l.Kind {
		case "lesson":
			live[l.Slug] = l
		case "call":
			for _, f := range l.Fired {
				if f.Provisional && (live[f.Slug] == nil || !live[f.Slug].Live) {
					t.Errorf("%s#%d: %s fired before a trace line said it was live", l.File, l.Index, f.Slug)
				}
			}
		}
	}
	if rep.Learn == nil {
		if len(live) > 0 {
			t.Errorf("lesson lines without --learn")
		}
		return
	}
	n, global := 0, 0
	for _, l := range live {
		if l.Live {
			n++
			if l.Project == "" {
				global++
			}
		}
	}
	if got, want := []int{rep.Learn.Provisional, rep.Learn.Global}, []int{n, global}; !slices.Equal(got, want) {
		t.Errorf("learned lessons live, of them global: report %v, trace %v", got, want)
	}
}

// recountPrompts recomputes the prompt-time figures from the prompt
// lines alone, and checks each prompt is in its place: numbered in
// order within its session, on the line before the call it came before.
func recountPrompts(t *testing.T, lines []traceLine, rep replayJSON) {
	t.Helper()
	prompts, injections, bytes := 0, 0, 0
	nextIndex := map[string]int{} // file → index of its next prompt
	for i, l := range lines {
		if l.Kind != "prompt" {
			if l.Kind != "call" && l.Kind != "lesson" {
				t.Fatalf("trace line %d: kind %q", i+1, l.Kind)
			}
			continue
		}
		if l.Index != nextIndex[l.File] {
			t.Errorf("%s: prompt %d, want %d", l.File, l.Index, nextIndex[l.File])
		}
		nextIndex[l.File]++
		next := len(lines)
		for j := i + 1; j < len(lines); j++ {
			if lines[j].Kind == "call" || lines[j].File != l.File {
				next = j
				break
			}
		}
		if next < len(lines) && lines[next].File == l.File && lines[next].Index != l.Before {
			t.Errorf("%s: prompt %d came before call %d, the next line is call %d", l.File, l.Index, l.Before, lines[next].Index)
		}
		prompts++
		if l.InjectedBytes > 0 {
			injections++
			bytes += l.InjectedBytes
		}
		if (l.InjectedBytes > 0) != (len(l.Fired) > 0) {
			t.Errorf("%s: prompt %d: %d bytes injected, %d fires", l.File, l.Index, l.InjectedBytes, len(l.Fired))
		}
		for _, f := range l.Fired {
			if f.At != "prompt" || f.Addresses || f.Refused != "" {
				t.Errorf("%s: prompt %d: fire %+v", l.File, l.Index, f)
			}
		}
	}
	per100 := func(n int) float64 {
		if prompts == 0 {
			return 0
		}
		return math.Round(float64(n)*100/float64(prompts)*100) / 100
	}
	if got, want := []float64{float64(rep.Prompts), float64(rep.PromptInjections), float64(rep.PromptBytes), rep.PromptInjectionsPer100, rep.PromptBytesPer100},
		[]float64{float64(prompts), float64(injections), float64(bytes), per100(injections), per100(bytes)}; !slices.Equal(got, want) {
		t.Errorf("prompts, prompt injections, bytes, per 100 prompts: report %v, trace %v", got, want)
	}
}

// TestE2EReplayCountsWithinProjectsForAReason pins repeats within a
// project, learned lessons that stay in the project they were learned
// in until a second project shows the same mistake, and verdicts: a
// failure in project A then the same in B is no repeat, the lesson
// learned in A does not fire in B, it prevents A's repeat, and it is
// unrelated to A's later failure of another kind.
func TestE2EReplayCountsWithinProjectsForAReason(t *testing.T) {
	s := newSandbox(t)
	logs := filepath.Join(s.root, "logs")
	writeSession(t, logs, "a1", "/w/a", 0, loggedCall{"ls", "Makefile", false}, deployFails, deployFixed)
	writeSession(t, logs, "b1", "/w/b", 1, deployFails, deployFixed)
	writeSession(t, logs, "a2", "/w/a", 2, deployFails, deployFixed)
	writeSession(t, logs, "a3", "/w/a", 3, noTarget, loggedCall{"make -f build/Makefile deploy", "ok", false})
	rep, all := s.replayRecounted(t, "--path", logs, "--learn", "--scope", "global")
	lines := callsOf(all)
	var got []string
	for _, c := range lines {
		var fired []string
		for _, f := range c.Fired {
			fired = append(fired, fmt.Sprintf("%v/%s", f.Provisional, f.At))
		}
		got = append(got, fmt.Sprintf("%s %d %s %s [%s | %s] repeat=%v fired=%v %s", c.Session, c.Index, c.Project, c.Outcome,
			c.Family, c.Class, c.Repeat, fired, c.Verdict))
	}
	want := []string{
		"a1 0 /w/a fine [Bash ls | ] repeat=false fired=[] ",
		"a1 1 /w/a failed [Bash make deploy | usage] repeat=false fired=[] ",
		"a1 2 /w/a fine [Bash make deploy | ] repeat=false fired=[] ",
		// Learned in /w/a only: a project lesson, silent in /w/b, whose
		// failure repeats nothing of /w/a's.
		"b1 0 /w/b failed [Bash make deploy | usage] repeat=false fired=[] ",
		"b1 1 /w/b fine [Bash make deploy | ] repeat=false fired=[] ",
		"a2 0 /w/a failed [Bash make deploy | usage] repeat=true fired=[true/before] prevented",
		"a2 1 /w/a fine [Bash make deploy | ] repeat=false fired=[] ",
		"a3 0 /w/a failed [Bash make deploy | make: *** No rule to make target <q>.] repeat=false fired=[true/before] unrelated",
		"a3 1 /w/a fine [Bash make deploy | ] repeat=false fired=[] ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("trace:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if l := rep.Learn; l == nil || l.Prevented != 1 || l.Unrelated != 1 || l.UnrelatedFires != 1 || l.Global != 1 || l.Project != 0 {
		t.Errorf("learn %+v; want 1 prevented, 1 unrelated, and the lesson global once /w/b showed the same mistake", rep.Learn)
	}
	if rep.Repeated != 1 || len(rep.Projects) != 2 || rep.Projects[0] != (groupJSON{"/w/a", 7, 3, 1, 1, 0, 1}) ||
		rep.Projects[1] != (groupJSON{"/w/b", 2, 1, 0, 0, 0, 0}) {
		t.Errorf("repeated %d, projects %+v", rep.Repeated, rep.Projects)
	}
}

// TestE2EReplayPrecisionGate pins a lesson that fires before 100 calls
// that went fine and once before its failure: precision 1/101, and
// --max-noise 0.5 fails on it.
func TestE2EReplayPrecisionGate(t *testing.T) {
	s := newSandbox(t)
	s.write(filepath.Join(s.home, "lessons", "build-needs-env.yaml"), `id: 01JQ0000000000000000000010
slug: build-needs-env
summary: npm run build needs NODE_ENV
problem: The build fails without NODE_ENV.
solution: Run NODE_ENV=production npm run build.
triggers:
  commands:
    - 'npm\s+run\s+build'
`)
	logs := filepath.Join(s.root, "logs")
	for i := range 100 {
		writeSession(t, logs, fmt.Sprintf("s%03d", i), "/w/app", i, loggedCall{"npm run build", "built", false})
	}
	writeSession(t, logs, "s100", "/w/app", 100, loggedCall{"npm run build", "Exit code 1\nError: NODE_ENV is not set", true})
	trace := filepath.Join(s.root, "trace.jsonl")
	rep, r := s.replay(t, "--path", logs, "--scope", "global", "--max-noise", "0.5", "--trace", trace)
	if r.code != 1 || rep.Gate == nil || !slices.Equal(rep.Gate.Noisy, []string{"build-needs-env"}) {
		t.Errorf("--max-noise 0.5: exit %d, gate %+v\n%s", r.code, rep.Gate, r.stderr)
	}
	l := rep.Lessons[0]
	if l["fires"] != 101.0 || l["firesAddressing"] != 1.0 || l["precision"] != 0.0099 || l["noise"] != 0.9901 || l["firesBeforeFine"] != 100.0 {
		t.Errorf("lesson %v; want 101 fires, 1 before its failure, precision 0.0099", l)
	}
	recount(t, readTrace(t, trace), rep)
}

// TestE2EReplayCountsOnlyTheFailuresALessonAddresses pins that a lesson
// naming the failures it is about (addresses) is credited only with
// those: a test run hanging in watch mode, not a test run that failed
// for another reason after the same command.
func TestE2EReplayCountsOnlyTheFailuresALessonAddresses(t *testing.T) {
	s := newSandbox(t)
	s.write(filepath.Join(s.home, "lessons", "test-watch.yaml"), `id: 01JQ0000000000000000000011
slug: test-watch
summary: npm test may start a watcher that never exits
problem: The test script runs in watch mode and the call never returns.
solution: Run CI=true npm test.
addresses: ['timed out after', 'Watch Usage']
triggers:
  commands:
    - 'npm\s+test'
`)
	logs := filepath.Join(s.root, "logs")
	unrelated := loggedCall{"npm test", "Exit code 1\nError: Cannot find module 'node:path'", true}
	hung := loggedCall{"npm test", "Exit code 143\nCommand timed out after 2m 0s\nWatch Usage\n › Press a to run all tests.", true}
	writeSession(t, logs, "s1", "/w/app", 1, unrelated)
	writeSession(t, logs, "s2", "/w/app", 2, hung)
	writeSession(t, logs, "s3", "/w/app", 3, loggedCall{"npm test -- --watchAll=false", "Tests: 3 passed", false}, hung)
	writeSession(t, logs, "s4", "/w/app", 4, loggedCall{"npm test", "Tests: 3 passed", false}, unrelated)
	trace := filepath.Join(s.root, "trace.jsonl")
	rep, r := s.replay(t, "--path", logs, "--scope", "global", "--trace", trace)
	if r.code != 0 || len(rep.Lessons) != 1 {
		t.Fatalf("replay: exit %d, lessons %v\n%s", r.code, rep.Lessons, r.stderr)
	}
	if l := rep.Lessons[0]; l["fires"] != 4.0 || l["firesAddressing"] != 2.0 || l["firesBeforeFailed"] != 2.0 {
		t.Errorf("lesson %v; want 4 fires, 2 before a failed call, 2 before the hang it addresses", l)
	}
	recount(t, readTrace(t, trace), rep)
}

// TestE2EReplayFamiliesAndBadInput pins the families and classes of
// failures in heredocs, chains and runners, a lesson on an error that
// reaches the agent after the failure, and a trace that stays valid
// JSON lines when a log holds control characters, invalid UTF-8 and a
// truncated line, which are counted and named.
func TestE2EReplayFamiliesAndBadInput(t *testing.T) {
	s := newSandbox(t)
	s.write(filepath.Join(s.home, "lessons", "missing-module.yaml"), `id: 01JQ0000000000000000000011
slug: missing-module
summary: a missing module usually means the virtualenv is not active
problem: Python cannot import a module the project depends on.
solution: Run it with uv run, or activate .venv first.
triggers:
  errors:
    - 'No module named'
`)
	logs := filepath.Join(s.root, "logs")
	writeSession(t, logs, "f1", "/w/py", 0,
		loggedCall{"cat > /tmp/t.py <<'EOF'\nimport os\nfrom x import y\ndef f(): pass\nEOF\npython3 /tmp/t.py",
			"Exit code 1\nTraceback (most recent call last):\n  File \"/tmp/t.py\", line 2, in <module>\nModuleNotFoundError: No module named 'x'", true},
		loggedCall{"sed -i 's/a/b/' app.py && python app.py",
			"Exit code 1\nTraceback (most recent call last):\n  File \"app.py\", line 3, in <module>\nKeyError: 'k'", true},
		loggedCall{"sed -i 's/a/b app.py && python app.py", "Exit code 1\nsed: -e expression #1, char 5: unterminated `s' command", true},
		loggedCall{"uv run pytest -x tests/", "Exit code 1\nE   AssertionError: assert 1 == 2\nFAILED tests/test_a.py::test_b", true},
		loggedCall{"python -c 'import yaml'", "Exit code 1\nModuleNotFoundError: No module named 'yaml'", true},
		loggedCall{"npm run lint && npm test", "Exit code 1\nnpm ERR! Missing script: \"test\"", true},
		loggedCall{"bin/test unit \x1b[31m\xff", "Exit code 127\nbash: bin/test: No such file or directory", true},
	)
	bad := writeSession(t, logs, "f2", "/w/py", 1, loggedCall{"ls", "a", false})
	f, err := os.OpenFile(bad, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"x","name":"Bash","inp`)
	f.Close()
	rep, all := s.replayRecounted(t, "--path", logs, "--scope", "global")
	lines := callsOf(all)
	var got []string
	for _, c := range lines {
		var after []string
		for _, f := range c.Fired {
			after = append(after, f.Slug+"/"+f.At)
		}
		got = append(got, fmt.Sprintf("%s | %s %v", c.Family, c.Class, after))
	}
	want := []string{
		"Bash python3 t.py | No module named x [missing-module/after]",
		"Bash python app.py | KeyError []",
		"Bash sed | sed: -e expression #N, char N: unterminated <q> command []",
		"Bash pytest | AssertionError []",
		// the same error came back: the lesson is said again (sayAgain)
		"Bash python -c | No module named yaml [missing-module/after]",
		"Bash npm test | npm ERR! Missing script: <q> []",
		"Bash bin/test | missing path []",
		"Bash ls |  []",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("families and classes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(lines[6].Command, "\x1b[31m") || !strings.Contains(lines[6].Command, "\ufffd") {
		t.Errorf("command with control characters and invalid UTF-8 read back as %q", lines[6].Command)
	}
	if rep.Input.Skipped["invalidLines"] != 1 || !strings.Contains(strings.Join(rep.Input.Errors, "\n"), "f2.jsonl:4: not a JSON record") {
		t.Errorf("input %+v: want the truncated line counted and named", rep.Input)
	}
}

// TestE2EReplayRecountsATeamHistory recounts, from the trace alone, the
// report of a learning replay of a real team history (../shared, when
// present).
func TestE2EReplayRecountsATeamHistory(t *testing.T) {
	logs, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "team-history", "oh-my-posh", ".claude", "projects"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(logs); err != nil || testing.Short() {
		t.Skip("no team history in ../shared, or -short")
	}
	s := newSandbox(t)
	trace := filepath.Join(s.root, "trace.jsonl")
	rep, r := s.replay(t, "--path", logs, "--learn", "--trace", trace)
	if r.code != 0 || rep.Learn == nil {
		t.Fatalf("replay exit %d\n%s", r.code, r.stderr)
	}
	all := readTrace(t, trace)
	lines := callsOf(all)
	if len(lines) != rep.Calls || rep.Calls < 1000 {
		t.Fatalf("%d trace lines for %d calls", len(lines), rep.Calls)
	}
	recount(t, all, rep)
}
