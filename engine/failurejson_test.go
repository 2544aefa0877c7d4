package engine

import (
	"bytes"
	"encoding/json"
	"testing"
)

var failureJSONCases = []string{
	"", "go test ./...", `a "quoted" \ path`, "tab\tnew\nline\rcr\bback\fform", "\x00\x01\x1f\x7f",
	"<script>&amp;</script>", "caf\u00e9 \u20ac \U0001f600", "bad \xff\xfe utf-8 \xe2\x82", "\u2028 and \u2029",
}

// sameFailureJSON checks failure.marshal against json.Marshal.
func sameFailureJSON(t *testing.T, f failure) {
	t.Helper()
	want, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.marshal(); !bytes.Equal(got, want) {
		t.Errorf("marshal(%+v)\n got %s\nwant %s", f, got, want)
	}
}

// TestFailureMarshalIsEncodingJSON: the record written is the bytes
// json.Marshal writes.
func TestFailureMarshalIsEncodingJSON(t *testing.T) {
	for _, s := range failureJSONCases {
		sameFailureJSON(t, failure{Family: s, Command: s + "x", Error: "e" + s, Limit: 3, Project: s})
		sameFailureJSON(t, failure{Family: "git push", Command: s, Limit: -1})
	}
}

// FuzzFailureMarshal holds failure.marshal to json.Marshal on any text.
func FuzzFailureMarshal(f *testing.F) {
	for _, s := range failureJSONCases {
		f.Add(s, 2)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		sameFailureJSON(t, failure{Family: s, Command: s, Error: s, Limit: limit, Project: s})
	})
}

// sameFailureRead checks unmarshalFailure against json.Unmarshal.
func sameFailureRead(t *testing.T, data []byte) {
	t.Helper()
	var want failure
	wantErr := json.Unmarshal(data, &want)
	got, err := unmarshalFailure(data)
	if (err == nil) != (wantErr == nil) || err == nil && got != want {
		t.Errorf("unmarshalFailure(%q) = %+v, %v; json.Unmarshal: %+v, %v", data, got, err, want, wantErr)
	}
}

// TestFailureUnmarshalIsEncodingJSON: a record reads as json.Unmarshal
// reads it, as marshal wrote it (padded with the blanks a shorter one
// written over a longer leaves) or not.
func TestFailureUnmarshalIsEncodingJSON(t *testing.T) {
	for _, s := range failureJSONCases {
		data := failure{Family: s, Command: s + "x", Error: "e" + s, Limit: 3, Project: s}.marshal()
		sameFailureRead(t, data)
		sameFailureRead(t, append(data, "   "...))
	}
	for _, s := range []string{
		`{"family":"go test","limit":-1}`, `{"Family":"go test"}`, `{"family":"a","family":"b"}`, `{"limit":2.5}`,
		`{"limit":1e2}`, `{"limit":"3"}`, `{"limit":null}`, `{"limit":99999999999999999999}`, `{"other":[1,{"x":2}]}`,
		`{"family":"a"} x`, `{"family":`, `[]`, ``, `{"error":"\ud83d\ude00"}`,
	} {
		sameFailureRead(t, []byte(s))
	}
}

// FuzzFailureUnmarshal holds unmarshalFailure to json.Unmarshal on any
// bytes.
func FuzzFailureUnmarshal(f *testing.F) {
	for _, s := range failureJSONCases {
		f.Add(failure{Family: s, Command: s, Error: s, Limit: 2, Project: s}.marshal())
	}
	f.Fuzz(sameFailureRead)
}
