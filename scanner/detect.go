package scanner

import (
	"bytes"
	"path/filepath"
	"strings"
)

// Format is a session log format, detected per file.
type Format string

// The formats the scanner reads. Unknown files are counted and skipped.
const (
	FormatClaude         Format = "claude"          // Claude Code .jsonl
	FormatCodex          Format = "codex"           // Codex rollout .jsonl
	FormatGeminiJSONL    Format = "gemini-jsonl"    // Gemini CLI chat .jsonl
	FormatGeminiJSON     Format = "gemini-json"     // Gemini CLI legacy chat .json
	FormatOpencodeExport Format = "opencode-export" // `opencode export` JSON
	FormatOpencodeTree   Format = "opencode-tree"   // opencode storage/session/… with its tree
	FormatOpencodeRecord Format = "opencode-record" // one stray opencode storage file
	FormatOpencodeDB     Format = "opencode-db"     // opencode 1.2+'s SQLite database, opencode.db
	FormatUnknown        Format = "unknown"
)

// Agent is the agent that writes a format.
func (f Format) Agent() string {
	a, _, _ := strings.Cut(string(f), "-")
	return a
}

// lineBased reports whether the format is read line by line (and so can
// be resumed at an offset) rather than as one JSON document.
func (f Format) lineBased() bool {
	return f == FormatClaude || f == FormatCodex || f == FormatGeminiJSONL
}

var codexTypes = map[string]bool{"session_meta": true, "turn_context": true, "response_item": true, "event_msg": true, "compacted": true}

// detect names the format of the file at path from its first bytes.
func detect(path string, head []byte) Format {
	head = bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(head) == 0 || head[0] != '{' {
		return FormatUnknown
	}
	first, _, _ := bytes.Cut(head, []byte("\n"))
	if filepath.Ext(path) == ".json" || len(bytes.TrimSpace(first)) == 1 {
		return detectDocument(path, head)
	}
	rest := head
	for i := 0; i < 8 && len(rest) > 0; i++ {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if f := detectLine(line); f != FormatUnknown {
			return f
		}
	}
	return FormatUnknown
}

func detectLine(line []byte) Format {
	keys := map[string][]byte{}
	eachField(line, func(k, v []byte) bool {
		keys[string(k)] = v
		return true
	})
	typ := str(keys["type"])
	switch {
	case codexTypes[typ] && keys["payload"] != nil:
		return FormatCodex
	case keys["projectHash"] != nil && keys["startTime"] != nil,
		(typ == "gemini" || typ == "user") && keys["id"] != nil && keys["content"] != nil && keys["message"] == nil,
		keys["$set"] != nil, keys["$rewindTo"] != nil:
		return FormatGeminiJSONL
	case keys["parentUuid"] != nil, keys["leafUuid"] != nil,
		keys["sessionId"] != nil && typ != "",
		(typ == "user" || typ == "assistant") && keys["message"] != nil,
		typ == "file-history-snapshot", typ == "queue-operation":
		return FormatClaude
	}
	return FormatUnknown
}

func detectDocument(path string, head []byte) Format {
	keys := map[string]bool{}
	complete := eachField(head, func(k, _ []byte) bool {
		keys[string(k)] = true
		return true
	})
	if !complete { // a big document: its head ends inside a value
		for _, k := range []string{"messages", "info"} {
			keys[k] = keys[k] || bytes.Contains(head, []byte(`"`+k+`":`)) || bytes.Contains(head, []byte(`"`+k+`" :`))
		}
	}
	switch {
	case keys["messages"] && (keys["projectHash"] || keys["sessionId"] || keys["startTime"]):
		return FormatGeminiJSON
	case keys["info"] && keys["messages"]:
		return FormatOpencodeExport
	case keys["projectID"] && keys["id"]:
		if inStorage(path, "session") {
			return FormatOpencodeTree
		}
		return FormatOpencodeRecord
	case keys["messageID"], keys["sessionID"] && keys["role"]:
		return FormatOpencodeRecord
	}
	return FormatUnknown
}

// inStorage reports whether path lies in an opencode storage/<kind>/ dir.
func inStorage(path, kind string) bool {
	return strings.Contains(filepath.ToSlash(path), "/storage/"+kind+"/")
}
