package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// replaySandbox is a user whose global store holds the lessons of
// testdata/replay/lessons (one with a broken regex), and the path of the
// session logs written for these tests: a Claude Code session, a Codex
// rollout and a Gemini CLI chat, oldest first, then a truncated Claude
// Code log and a JSON file of no known format.
func replaySandbox(t *testing.T) (*sandbox, string) {
	t.Helper()
	s := newSandbox(t)
	src := filepath.Join("..", "..", "testdata", "replay")
	ents, err := os.ReadDir(filepath.Join(src, "lessons"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(src, "lessons", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		s.write(filepath.Join(s.home, "lessons", e.Name()), string(data))
	}
	logs, err := filepath.Abs(filepath.Join(src, "logs"))
	if err != nil {
		t.Fatal(err)
	}
	return s, logs
}

// replayLessons are the lessons the tests replay (not the built-in ones).
var replayLessons = []string{"deploy-needs-stage", "no-force-push", "ls-noise", "never-fires"}

type replayJSON struct {
	Sessions, Calls, Failed, Rejected, Stopped, Repeated, Injections, Blocks int
	InjectedBytes                                                            int64
	InjectionsPer100                                                         float64 `json:"injectionsPer100Calls"`
	BytesPer100                                                              float64 `json:"bytesPer100Calls"`
	Prompts, PromptInjections                                                int
	PromptBytes                                                              int64
	PromptInjectionsPer100                                                   float64 `json:"promptInjectionsPer100Prompts"`
	PromptBytesPer100                                                        float64 `json:"promptBytesPer100Prompts"`
	Refused                                                                  []map[string]any
	Lessons                                                                  []map[string]any
	NeverFired, Noisiest                                                     []string
	Agents, Projects                                                         []groupJSON
	Learn                                                                    *struct {
		Mode                                            string
		Provisional, Global, Project                    int
		Prevented, Shortened, Unrelated, UnrelatedFires int
		LearnedFiresBeforeFine                          int
		LearnedFiresBeforeFinePer100                    float64 `json:"learnedFiresBeforeFinePer100Calls"`
	}
	Gate *struct {
		MaxNoise float64
		MinFires int
		Noisy    []string
	}
	Input struct {
		Files          int
		Formats        map[string]struct{ Files, Lines int }
		Skipped        map[string]int
		Lessons        int
		LessonsLeftOut []string
		Errors         []string
	}
}

// groupJSON is one row of the per-agent or per-project table.
type groupJSON struct {
	Name                                                     string
	Calls, Failed, Repeated, Prevented, Shortened, Unrelated int
}

func (s *sandbox) replay(t *testing.T, args ...string) (replayJSON, result) {
	t.Helper()
	r := s.run(s.root, "", append([]string{"replay", "--json"}, args...)...)
	var rep replayJSON
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("replay --json: %v (exit %d)\n%s\n%s", err, r.code, r.stdout, r.stderr)
	}
	return rep, r
}

// lessonFigures are a lesson's figures: matches, fires, before failed,
// before fine, before rejected, refused, sessions, fires before a
// failure it addresses, calls of its tools.
func lessonFigures(t *testing.T, rep replayJSON, slug string) []int {
	t.Helper()
	for _, l := range rep.Lessons {
		if l["slug"] == slug {
			var out []int
			for _, k := range []string{"matches", "fires", "firesBeforeFailed", "firesBeforeFine", "firesBeforeRejected",
				"refused", "sessions", "firesAddressing", "toolCalls"} {
				out = append(out, int(l[k].(float64)))
			}
			return out
		}
	}
	t.Fatalf("no figures for %s in %v", slug, rep.Lessons)
	return nil
}

func TestE2EReplayReport(t *testing.T) {
	s, logs := replaySandbox(t)
	rep, r := s.replay(t, append([]string{"--path", logs}, replayLessons...)...)
	if r.code != 0 {
		t.Fatalf("replay exit %d\n%s", r.code, r.stderr)
	}
	// 6 calls in Claude Code's session (one rejected), 3 in Codex's, 4 in
	// Gemini CLI's, 1 before the truncated line; make deploy failed once
	// in each of the first three.
	if rep.Sessions != 4 || rep.Calls != 14 || rep.Failed != 3 || rep.Rejected != 1 {
		t.Errorf("sessions %d, calls %d, failed %d, rejected %d; want 4, 14, 3, 1", rep.Sessions, rep.Calls, rep.Failed, rep.Rejected)
	}
	// Injections: ls and make deploy in Claude Code's session and in
	// Codex's (Codex reads a call's lessons at the call since 0.169.0, as
	// the real-agent suite checks); make deploy and ls -la in Gemini's;
	// ls in the truncated session. The push is refused, not injected.
	if rep.Injections != 7 || rep.InjectedBytes != 1477 || rep.InjectionsPer100 != 50 || rep.BytesPer100 != 10550 {
		t.Errorf("injections %d, %d bytes, %g and %g per 100 calls; want 7, 1477, 50, 10550",
			rep.Injections, rep.InjectedBytes, rep.InjectionsPer100, rep.BytesPer100)
	}
	if rep.Blocks != 1 || len(rep.Refused) != 1 || rep.Refused[0]["slug"] != "no-force-push" ||
		rep.Refused[0]["call"] != "git push --force origin main" || rep.Refused[0]["line"] != 8.0 ||
		rep.Refused[0]["outcome"] != "fine" || !strings.HasSuffix(rep.Refused[0]["file"].(string), "claude/s1.jsonl") {
		t.Errorf("blocks %d, refused %v; want the force push of s1.jsonl:8", rep.Blocks, rep.Refused)
	}
	// All 14 calls are Bash calls.
	for slug, want := range map[string][]int{
		// fired on each failed make deploy, never on STAGE=… make deploy
		"deploy-needs-stage": {3, 3, 3, 0, 0, 0, 3, 3, 14},
		"no-force-push":      {1, 1, 0, 1, 0, 1, 1, 0, 14},
		"ls-noise":           {5, 4, 0, 3, 0, 0, 4, 0, 14},
	} {
		if got := lessonFigures(t, rep, slug); !slices.Equal(got, want) {
			t.Errorf("%s: figures %v, want %v", slug, got, want)
		}
	}
	if l := rep.Lessons[0]; l["slug"] != "ls-noise" || l["precision"] != 0.0 || l["noise"] != 1.0 {
		t.Errorf("first lesson %v, want ls-noise, the most fires, at precision 0 (no fire before a failed ls)", l)
	}
	for _, l := range rep.Lessons {
		if l["slug"] == "no-force-push" && (l["kind"] != "hazard" || l["precision"] != nil) {
			t.Errorf("the blocking lesson %v: want a hazard, judged by its refusals and not by precision", l)
		}
	}
	// ls-noise has 4 fires, fewer than the 5 from which noise is judged.
	if !slices.Equal(rep.NeverFired, []string{"never-fires"}) || len(rep.Noisiest) != 0 {
		t.Errorf("never fired %v, noisiest %v", rep.NeverFired, rep.Noisiest)
	}
	// Codex's make deploy repeats Claude Code's in /home/dev/shop; Gemini
	// CLI's names no project, so it repeats nothing.
	if rep.Repeated != 1 || len(rep.Projects) != 2 || rep.Projects[0] != (groupJSON{Name: "/home/dev/shop", Calls: 10, Failed: 2, Repeated: 1}) {
		t.Errorf("repeated %d, projects %+v", rep.Repeated, rep.Projects)
	}
	in := rep.Input
	if in.Files != 5 || in.Lessons != 4 || in.Skipped["unknownFiles"] != 1 || in.Skipped["invalidLines"] != 1 ||
		in.Formats["claude"].Files != 2 || in.Formats["codex"].Files != 1 || in.Formats["gemini-jsonl"].Files != 1 {
		t.Errorf("input %+v", in)
	}
	if len(in.LessonsLeftOut) != 1 || !strings.Contains(in.LessonsLeftOut[0], "broken-regex.yaml:8") {
		t.Errorf("lessons left out %v, want broken-regex.yaml named with its line", in.LessonsLeftOut)
	}
	errs := strings.Join(in.Errors, "\n")
	if !strings.Contains(errs, "s4-truncated.jsonl:3: not a JSON record") || !strings.Contains(errs, "notes.json: not a session log of a known format") {
		t.Errorf("errors do not name the truncated line and the unknown file:\n%s", errs)
	}
	if rep.Learn != nil || rep.Gate != nil {
		t.Errorf("learn %v, gate %v without --learn or --max-noise", rep.Learn, rep.Gate)
	}

	// The table, as a script reads it off a pipe.
	r = s.ok(s.root, append([]string{"replay", "--path", logs}, replayLessons...)...)
	for _, want := range []string{
		"replayed 14 calls in 4 sessions through 4 lessons in ", ": 3 failed, 1 rejected, 0 stopped by the agent\n",
		"injections: 7 (50.00 per 100 calls), 1477 bytes of lesson text (10550 per 100 calls)\nblocks: 1\n",
		"LESSON\tKIND\tFIRES\tBEFORE FAILED\tBEFORE FINE\tADDRESSING\tPRECISION\tREFUSED\tPER 100 CALLS\n",
		"ls-noise\tpitfall\t4\t0\t3\t0\t0.0%\t0\t28.57\n", "deploy-needs-stage\tpitfall\t3\t3\t0\t3\t100.0%\t0\t21.43\n",
		"no-force-push\thazard\t1\t0\t1\t0\t-\t1\t7.14\n",
		"PROJECT\tCALLS\tFAILED\tREPEATED\tPREVENTED\tSHORTENED\tUNRELATED\n/home/dev/shop\t10\t2\t1\t0\t0\t0\n",
		"never fired (1): never-fires\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("replay output lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "skipped: 1 files of unknown format, 1 lines that are not JSON records, 1 lessons left out") {
		t.Errorf("replay stderr:\n%s", r.stderr)
	}
}

// TestE2EReplayJSONFields pins the field names of replay --json.
func TestE2EReplayJSONFields(t *testing.T) {
	s, logs := replaySandbox(t)
	r := s.ok(s.root, "replay", "--json", "--learn", "--max-noise", "1", "--path", logs)
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.stdout), &top); err != nil {
		t.Fatal(err)
	}
	keys := func(raw json.RawMessage) []string {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return slices.Sorted(maps.Keys(m))
	}
	first := func(raw json.RawMessage) json.RawMessage {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil || len(list) == 0 {
			t.Fatalf("%s: not a list with an item", raw)
		}
		return list[0]
	}
	for name, c := range map[string]struct {
		got  []string
		want string
	}{
		"report": {slices.Sorted(maps.Keys(top)), "agents blocks bytesPer100Calls calls durationNs failed gate injectedBytes injections " +
			"injectionsPer100Calls input learn lessons minFires neverFired noisiest projects promptBytes promptBytesPer100Prompts promptInjections promptInjectionsPer100Prompts prompts refused rejected repeated sessions stopped"},
		"lesson": {keys(first(top["lessons"])), "asked fires firesAddressing firesAfter firesBeforeFailed firesBeforeFine " +
			"firesBeforeRejected firesPer100ToolCalls keys kind learnedFrom matches noise precision prevented provisional " +
			"refused scope sessions shortened slug toolCalls tools unrelated"},
		"refused": {keys(first(top["refused"])), "agent call file line outcome slug tool"},
		"input":   {keys(top["input"]), "errors files formats lessons lessonsLeftOut skipped timeouts"},
		"learn": {keys(top["learn"]), "global learnedFiresBeforeFine learnedFiresBeforeFinePer100Calls mode prevented " +
			"project provisional shortened unrelated unrelatedFires"},
		"group": {keys(first(top["agents"])), "calls failed name prevented repeated shortened unrelated"},
		"gate":  {keys(top["gate"]), "maxNoise minFires noisy"},
	} {
		if strings.Join(c.got, " ") != c.want {
			t.Errorf("%s fields:\n got %s\nwant %s", name, strings.Join(c.got, " "), c.want)
		}
	}
}

func TestE2EReplayLearn(t *testing.T) {
	s, logs := replaySandbox(t)
	rep, r := s.replay(t, append([]string{"--path", logs, "--learn"}, replayLessons...)...)
	if r.code != 0 || rep.Learn == nil {
		t.Fatalf("replay --learn exit %d, learn %v\n%s", r.code, rep.Learn, r.stderr)
	}
	// Claude Code's session reports the failed make deploy in a #lesson
	// block, which asks for the global scope, and fixes it by
	// STAGE=staging make deploy: one lesson, in the agent's words with the
	// retry's evidence (issue 18). Codex's session in the same project
	// repeats the failure (Bash make deploy | usage) and the lesson fires
	// before it: prevented. Gemini CLI's session names no project: the
	// global lesson applies there too, and prevents a failure that is no
	// repeat.
	l := rep.Learn
	if l.Mode != "all" || l.Provisional != 2 || l.Global != 2 || l.Project != 0 || l.Prevented != 2 || l.Unrelated != 0 ||
		l.LearnedFiresBeforeFine != 0 || rep.Repeated != 1 {
		t.Errorf("learn %+v, repeated %d; want 2 lessons (2 global), 2 prevented, 1 repeated", *l, rep.Repeated)
	}
	if got := rep.Agents; len(got) != 3 || got[0] != (groupJSON{"codex", 3, 1, 1, 1, 0, 0}) || got[2] != (groupJSON{"gemini", 4, 1, 0, 1, 0, 0}) {
		t.Errorf("per agent: %+v", got)
	}
	scopes := map[string]string{}
	for _, les := range rep.Lessons {
		if les["provisional"] == true {
			scopes[les["slug"].(string)] = les["scope"].(string)
			if les["firesAddressing"] != les["fires"] || les["precision"] != 1.0 || les["keys"].([]any)[0] != "Bash make deploy | usage" {
				t.Errorf("learned lesson %v", les)
			}
		}
	}
	if len(scopes) != 1 {
		t.Errorf("learned lessons that fired: %v, want 1", scopes)
	}

	rep, _ = s.replay(t, append([]string{"--path", logs, "--learn=tags"}, replayLessons...)...)
	if l := rep.Learn; l == nil || l.Mode != "tags" || l.Provisional != 1 || l.Prevented != 2 {
		t.Errorf("--learn=tags: %+v; want the one #lesson report, learned from the make deploy failure, preventing 2", rep.Learn)
	}
	r = s.ok(s.root, append([]string{"replay", "--path", logs, "--learn"}, replayLessons...)...)
	for _, want := range []string{"\nrepeats (a failure whose command family and error class failed in an earlier session of the same project): 1\n" +
		"learned from every candidate: 2 lessons by the last session (0 project, 2 global)\nprevented: 2 ",
		"AGENT\tCALLS\tFAILED\tREPEATED\tPREVENTED\tSHORTENED\tUNRELATED\ncodex\t3\t1\t1\t1\t0\t0\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("replay --learn output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestE2EReplayNoiseGate(t *testing.T) {
	s, logs := replaySandbox(t)
	// ls-noise fired 4 times, never before a failed ls: noise 1.
	rep, r := s.replay(t, append([]string{"--path", logs, "--max-noise", "0.2", "--min-fires", "1"}, replayLessons...)...)
	if r.code != 1 || rep.Gate == nil || !slices.Equal(rep.Gate.Noisy, []string{"ls-noise"}) ||
		!strings.Contains(r.stderr, "1 lesson fired more than 0.2 of the time not before a failure they address: ls-noise") {
		t.Errorf("gate at 0.2: exit %d, gate %+v\n%s", r.code, rep.Gate, r.stderr)
	}
	// What a pack's CI runs: its lessons are the global store's.
	if rep, r := s.replay(t, "--path", logs, "--scope", "global", "--max-noise", "0.2", "--min-fires", "1"); r.code != 1 ||
		rep.Input.Lessons != 4 || !slices.Equal(rep.Gate.Noisy, []string{"ls-noise"}) {
		t.Errorf("gate at 0.2 on the global lessons: exit %d, %d lessons, gate %+v", r.code, rep.Input.Lessons, rep.Gate)
	}
	// The force push lesson is a hazard, never gated; deploy-needs-stage
	// fired before failures only.
	if _, r := s.replay(t, "--path", logs, "--max-noise", "0.2", "--min-fires", "1", "deploy-needs-stage", "no-force-push"); r.code != 0 {
		t.Errorf("gate at 0.2 on the quiet lessons: exit %d\n%s", r.code, r.stderr)
	}
	// With the default --min-fires 5, 4 fires are too few to judge.
	if rep, r := s.replay(t, "--path", logs, "--max-noise", "0.2", "ls-noise"); r.code != 0 || rep.Gate.MinFires != 5 {
		t.Errorf("gate at 0.2 on ls-noise with 4 fires: exit %d, gate %+v\n%s", r.code, rep.Gate, r.stderr)
	}
	if r := s.run(s.root, "", "replay", "--path", logs, "--max-noise", "2"); r.code == 0 || !strings.Contains(r.stderr, "between 0 and 1") {
		t.Errorf("--max-noise 2: exit %d\n%s", r.code, r.stderr)
	}
}

// TestE2EAddWarnsOfANoisyTrigger puts the test sessions where the agents
// keep theirs, as written today, and adds a lesson whose trigger fires
// mostly before calls that went fine, then one that fires before
// failures only.
func TestE2EAddWarnsOfANoisyTrigger(t *testing.T) {
	s := newSandbox(t)
	src := filepath.Join("..", "..", "testdata", "replay", "logs")
	for from, to := range map[string]string{
		"claude/s1.jsonl":           ".claude/projects/-home-dev-shop/s1.jsonl",
		"claude/s4-truncated.jsonl": ".claude/projects/-home-dev-shop/s4.jsonl",
		"codex/rollout-s2.jsonl":    ".codex/sessions/2025/01/02/rollout-s2.jsonl",
		"gemini/chat-s3.jsonl":      ".gemini/tmp/shop-hash/chats/session-s3.jsonl",
	} {
		data, err := os.ReadFile(filepath.Join(src, from))
		if err != nil {
			t.Fatal(err)
		}
		s.write(filepath.Join(s.root, to), string(data))
	}
	noisy := []string{"add", "--global",
		"--summary", "Plain ls hides dotfiles such as .env and .github",
		"--problem", "ls without -a leaves out every file whose name starts with a dot.",
		"--solution", "Run ls -a when looking for configuration files.",
		"--command", `^ls\b`, "--match", "ls", "--no-match", "make deploy"}
	r := s.ok(s.root, noisy...)
	slug := strings.TrimSpace(r.stdout)
	want := slug + " would have fired 4 times in the last 7 days, 0 of them before a failure and 3 before a call that went fine " +
		"(its trigger matched 5 of 14 calls in 4 sessions); see lessons replay " + slug
	if !strings.Contains(r.stderr, "warning: "+want+"\n") {
		t.Errorf("add of a noisy trigger, stderr:\n%s\nwant the warning %q", r.stderr, want)
	}
	s.ok(s.root, "rm", slug)
	r = s.ok(s.root, append(noisy, "--no-replay")...)
	if strings.Contains(r.stderr, "would have fired") {
		t.Errorf("add --no-replay replayed:\n%s", r.stderr)
	}
	r = s.ok(s.root, "add", "--global",
		"--summary", "make deploy needs STAGE set to the target environment",
		"--problem", "make deploy fails with a usage error when STAGE is not set.",
		"--solution", "Run STAGE=staging make deploy, or the stage you mean.",
		"--command", `\bmake\s+deploy\b`, "--unless", "STAGE=", "--match", "make deploy", "--no-match", "STAGE=prod make deploy")
	if strings.Contains(r.stderr, "would have") {
		t.Errorf("add of a trigger that fires only before failures warned:\n%s", r.stderr)
	}
}
