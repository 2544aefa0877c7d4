package scanner

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLineReader(t *testing.T) {
	in := "a\n" + strings.Repeat("x", 100) + "\nb\nhalf"
	lr := newLineReader(strings.NewReader(in), 0, 0, 10)
	var got []string
	for {
		b, _, complete, err := lr.next()
		if err == io.EOF {
			break
		}
		if complete {
			got = append(got, string(b))
		}
	}
	if strings.Join(got, ",") != "a,b" || lr.overlong != 1 {
		t.Errorf("lines %q, overlong %d", got, lr.overlong)
	}
	off, line := lr.resume()
	if off != int64(len(in)-len("half")) || line != 3 {
		t.Errorf("resume = %d, %d; want the start of the half-written line", off, line)
	}
}

func FuzzLines(f *testing.F) {
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"x","is_error":true,"content":"Exit code 1"}]}}`))
	f.Add([]byte(`{"type":"response_item","payload":{"type":"function_call","arguments":"{\"cmd\":\"ls\"}"}}`))
	f.Add([]byte(`{"id":"m","type":"gemini","toolCalls":[{"id":"t","status":"error"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		a := newAnalyzer()
		claudeLine(b, 1, a)
		newCodexReader().line(b, 1, a)
		geminiLines(nil)(b, 1, a)
		geminiJSON(b, a)
		opencodeExport(b, a)
		a.flush()
		detect("x.jsonl", b)
	})
}

func FuzzUnquote(f *testing.F) {
	f.Add(`"a\nb\"c\\d\u00e9\ud83d\ude00\/"`)
	f.Fuzz(func(t *testing.T, s string) {
		raw, _ := json.Marshal(s)
		if got := str(raw); got != s && utf8.ValidString(s) {
			t.Errorf("str(%s) = %q, want %q", raw, got, s)
		}
		var want string
		if utf8.ValidString(s) && json.Unmarshal([]byte(`"`+s+`"`), &want) == nil && str([]byte(`"`+s+`"`)) != want {
			t.Errorf("str(%q) = %q, want %q", s, str([]byte(`"`+s+`"`)), want)
		}
	})
}
