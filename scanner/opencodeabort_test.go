package scanner

import "testing"

// events keeps what a reader reports.
type events struct {
	sess Session
	got  []Event
}

func (e *events) event(ev Event)    { e.got = append(e.got, ev) }
func (e *events) session() *Session { return &e.sess }

// TestOpencodeAbortIsNoFailure: opencode marks a call still running when
// the user aborts as an error, "Tool execution aborted", with
// metadata.interrupted (opencode 1.18's SessionProcessor.cleanup). The
// agent did not fail: the user stopped it. Before, the aborted call was
// a failure, and an abort in two sessions made a known failure
// ("`apply_patch` fails before any change: Tool execution aborted").
func TestOpencodeAbortIsNoFailure(t *testing.T) {
	var e events
	opencodeRecord([]byte(`{"id":"prt_1","messageID":"msg_1","sessionID":"ses_1","type":"tool","tool":"bash","callID":"call_1",`+
		`"state":{"status":"error","input":{"command":"npm test"},"error":"Tool execution aborted","metadata":{"interrupted":true},"time":{"start":1,"end":2}}}`), &e)
	opencodeRecord([]byte(`{"id":"prt_2","messageID":"msg_1","sessionID":"ses_1","type":"tool","tool":"bash","callID":"call_2",`+
		`"state":{"status":"error","input":{"command":"npm test"},"error":"Error: exit 1","metadata":{"exit":1},"time":{"start":3,"end":4}}}`), &e)
	var results []*Result
	for _, ev := range e.got {
		if ev.Kind == ToolResult {
			results = append(results, ev.Result)
		}
	}
	if len(results) != 2 || results[0].Failed() || !results[1].Failed() {
		t.Fatalf("results %+v: want the aborted call stopped, not failed, and the other failed", results)
	}
}
