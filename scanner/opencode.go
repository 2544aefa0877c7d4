package scanner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// opencode keeps a session as a tree of small JSON files under storage/
// (session/<project>/<id>.json, message/<session>/<id>.json,
// part/<message>/<id>.json); `opencode export` prints the same as one
// object {info, messages: [{info, parts}]}. Messages are numbered from 1
// in place of lines.

// opencodeExport reads an export object.
func opencodeExport(b []byte, s sink) {
	f := fields(b, "info", "messages")
	opencodeSession(f[0], s)
	n := 0
	eachElem(f[1], func(m []byte) {
		n++
		mf := fields(m, "info", "parts")
		role := opencodeMessage(mf[0], "", n, s)
		eachElem(mf[1], func(p []byte) { opencodePart(p, "", role, n, s) })
	})
}

func opencodeSession(info []byte, s sink) {
	f := fields(info, "id", "directory")
	sess := s.session()
	sess.ID, sess.Project = str(f[0]), str(f[1])
}

// opencodeMessage emits what a message's info says (an aborted turn) and
// returns its role. id is the message's id, "" to read it from info (the
// database keeps it in a column of its own).
func opencodeMessage(info []byte, id string, n int, s sink) string {
	f := fields(info, "id", "role", "error")
	if id == "" {
		id = str(f[0])
	}
	if name := str(field(f[2], "name")); name == "MessageAbortedError" {
		s.event(Event{Kind: Interrupt, Line: n, UID: id})
	}
	return str(f[1])
}

// opencodePart emits the events of one part of a message with role. uid
// is the part's id, "" to read it from b.
func opencodePart(b []byte, uid, role string, n int, s sink) {
	f := fields(b, "id", "type", "text", "synthetic", "callID", "tool", "state")
	if uid == "" {
		uid = str(f[0])
	}
	switch str(f[1]) {
	case "text":
		if isTrue(f[3]) {
			return
		}
		switch role {
		case "user":
			humanText(str(f[2]), n, uid, s)
		case "assistant":
			s.event(Event{Kind: AssistantText, Line: n, UID: uid, Text: str(f[2])})
		}
	case "compaction":
		s.event(Event{Kind: Compaction, Line: n, UID: uid})
	case "tool":
		id := str(f[4])
		st := fields(f[6], "status", "input", "output", "error", "metadata")
		s.event(Event{Kind: ToolCall, Line: n, UID: uid, CallID: id, Call: newCall(str(f[5]), st[1])})
		status := str(st[0])
		if status != "completed" && status != "error" && status != "success" {
			return
		}
		out := firstString(st[3], st[2])
		if ok, reason := rejection(out); ok {
			s.event(Event{Kind: Rejection, Line: n, UID: uid, CallID: id, Text: reason})
			return
		}
		r := &Result{IsError: status == "error", ExitCode: integer(field(st[4], "exit"), -1), Timeout: timedOut(out),
			Stopped: isTrue(field(st[4], "interrupted"))} // opencode aborts a call still running: "Tool execution aborted"
		r.keep(out)
		s.event(Event{Kind: ToolResult, Line: n, UID: uid, CallID: id, Result: r})
	}
}

// opencodeRecord reads one stray storage file (a part, message or
// session seen outside its tree): only what stands on its own.
func opencodeRecord(b []byte, s sink) {
	f := fields(b, "messageID", "role", "projectID", "sessionID")
	switch {
	case f[0] != nil:
		opencodePart(b, "", "", 1, s)
	case f[2] != nil:
		opencodeSession(b, s)
	case f[3] != nil:
		s.session().ID = str(f[3])
	}
}

// opencodeTree reads the session whose file is path, with its messages
// and parts from the storage tree around it. Message and part files that
// are larger than max or cannot be read (a named pipe) are skipped and
// told to skip.
func opencodeTree(path string, max int64, s sink, skip func(error)) (files int, err error) {
	b, err := readCapped(path, max)
	if err != nil {
		return 0, err
	}
	opencodeSession(b, s)
	storage := filepath.Dir(filepath.Dir(filepath.Dir(path)))
	msgs := sortedJSON(filepath.Join(storage, "message", s.session().ID))
	files = 1
	for i, m := range msgs {
		mb, err := readCapped(m, max)
		if err != nil {
			skip(err)
			continue
		}
		files++
		role := opencodeMessage(mb, "", i+1, s)
		id := str(field(mb, "id"))
		for _, p := range sortedJSON(filepath.Join(storage, "part", id)) {
			pb, err := readCapped(p, max)
			if err != nil {
				skip(err)
				continue
			}
			files++
			opencodePart(pb, "", role, i+1, s)
		}
	}
	return files, nil
}

// sortedJSON lists the .json files of dir by name; opencode's ids sort
// by creation time.
func sortedJSON(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out)
	return out
}
