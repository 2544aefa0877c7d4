package realagents

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// step is one answer of the fake model: a call of Tool with Input, or,
// when Tool is "", the final Text of the turn.
type step struct {
	Tool  string
	Input map[string]any
	Text  string
	// Freeform is a freeform tool's input (Codex's custom tools: the
	// code-mode exec cell), sent instead of Input's JSON.
	Freeform string
}

func call(tool string, input map[string]any) step { return step{Tool: tool, Input: input} }
func say(text string) step                        { return step{Text: text} }

// request is one request an agent sent the fake model.
type request struct {
	Path string
	// Text is every string in the request's JSON body, one a line: what
	// the model reads, the tools' descriptions included.
	Text string
	// Step is the index of the script step it was answered with; -1 for a
	// side request (one that offers no tools, such as a title), -2 for a
	// request past the script's end.
	Step int
	// Body is the request's JSON body.
	Body []byte
}

// model is a fake model server on 127.0.0.1: it answers the agent's
// conversation requests with its script's steps, in order, and side
// requests with a short text; it logs every request.
type model struct {
	t      *testing.T
	URL    string
	mu     sync.Mutex
	script []step
	next   int
	reqs   []request
}

// apiShape answers one API's requests: serve decodes the request and
// writes the answer to take's step, streamed as the API streams.
type apiShape func(m *model, w http.ResponseWriter, r *http.Request, body []byte)

func newModel(t *testing.T, shape apiShape, script ...step) *model {
	m := &model{t: t, script: script}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		shape(m, w, r, body)
	}))
	t.Cleanup(srv.Close)
	m.URL = srv.URL
	return m
}

// take logs a request and returns the step to answer it with: the next
// one of the script when conversation is true, else a side text.
func (m *model) take(r *http.Request, body []byte, conversation bool) (step, int) {
	var v any
	_ = json.Unmarshal(body, &v)
	var b strings.Builder
	flatten(&b, v)
	m.mu.Lock()
	defer m.mu.Unlock()
	req := request{Path: r.URL.Path, Text: b.String(), Step: -1, Body: body}
	s := say("A short title")
	if conversation {
		req.Step = -2
		s = say("Done.")
		if m.next < len(m.script) {
			req.Step, s = m.next, m.script[m.next]
			m.next++
		}
	}
	m.reqs = append(m.reqs, req)
	if dir := os.Getenv("LESSONS_E2E_DUMP"); dir != "" { // to read what an agent sends
		name := fmt.Sprintf("%s-%02d.json", strings.ReplaceAll(m.t.Name(), "/", "_"), len(m.reqs)-1)
		_ = os.WriteFile(filepath.Join(dir, name), body, 0o644)
	}
	return s, req.Step
}

// flatten writes every string in v, one a line, object keys sorted.
func flatten(b *strings.Builder, v any) {
	switch v := v.(type) {
	case string:
		b.WriteString(v)
		b.WriteByte('\n')
	case []any:
		for _, e := range v {
			flatten(b, e)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			flatten(b, v[k])
		}
	}
}

// conversation are the requests answered with a step of the script.
func (m *model) conversation() []request {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []request
	for _, r := range m.reqs {
		if r.Step >= 0 {
			out = append(out, r)
		}
	}
	return out
}

// all are every request, in order.
func (m *model) all() []request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]request(nil), m.reqs...)
}

// after is the request answered right after step i was: the one that
// carries what the agent made of step i.
func (m *model) after(i int) request {
	m.t.Helper()
	for _, r := range m.conversation() {
		if r.Step == i+1 {
			return r
		}
	}
	m.t.Fatalf("no request after step %d; the agent sent:\n%s", i, m.dump())
	return request{}
}

// last is the last conversation request.
func (m *model) last() request {
	m.t.Helper()
	c := m.conversation()
	if len(c) == 0 {
		m.t.Fatalf("the agent sent no conversation request:\n%s", m.dump())
	}
	return c[len(c)-1]
}

// done fails the test unless the agent asked for every step.
func (m *model) done() {
	m.t.Helper()
	m.mu.Lock()
	next, n := m.next, len(m.script)
	m.mu.Unlock()
	if next < n {
		m.t.Fatalf("the agent stopped after %d of %d steps:\n%s", next, n, m.dump())
	}
}

// dump describes the requests for a failure message.
func (m *model) dump() string {
	var b strings.Builder
	for i, r := range m.all() {
		fmt.Fprintf(&b, "--- request %d: %s, step %d, %d bytes of text\n%s\n", i, r.Path, r.Step, len(r.Text), excerpt(r.Text))
	}
	return b.String()
}

// excerpt keeps the lines of text that matter to the suite.
func excerpt(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		for _, mark := range []string{callMark, blockMark, startMark, protocolMark, "lessons injected", "e2e", "stands for"} {
			if strings.Contains(line, mark) {
				if len(line) > 300 {
					line = line[:300] + "…"
				}
				b.WriteString("  | " + line + "\n")
				break
			}
		}
	}
	return b.String()
}

// sse writes server-sent events, each a JSON object after its optional
// event name.
type sse struct{ w http.ResponseWriter }

func startSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

func (s sse) event(name string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", b)
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (s sse) raw(line string) {
	fmt.Fprintf(s.w, "data: %s\n\n", line)
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
