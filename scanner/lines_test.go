package scanner

import (
	"io"
	"strings"
	"testing"
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
		codexLine(b, 1, a)
		geminiLines(nil)(b, 1, a)
		geminiJSON(b, a)
		opencodeExport(b, a)
		a.flush()
		detect("x.jsonl", b)
	})
}
