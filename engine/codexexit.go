package engine

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/lessons-dev/lessons/scope"
)

// codexTail is how much of the end of a Codex session file codexExit
// reads.
const codexTail = 64 << 10

// codexExit reads the exit code of Codex's call callID from the
// session's rollout file (the payload's transcript_path). Codex 0.169.0
// gives PostToolUse the call's output text only, without its exit status,
// but it has logged the call's item_completed, with exit_code, before the
// hook runs. Only the file's last codexTail bytes are read, so a call
// whose logged output is longer than that is judged from its text alone,
// as is every call when the file is missing or not a regular file.
func codexExit(transcript, callID string) (int, bool) {
	if transcript == "" || callID == "" {
		return 0, false
	}
	f, err := scope.OpenRegular(transcript)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, false
	}
	// The quoted id, whatever the spacing around the key: lines that
	// hold it are decoded, and only the decoded record decides.
	needle, _ := json.Marshal(callID)
	// The call's line is most often the last: read a little first.
	for _, n := range []int64{8 << 10, codexTail} {
		off := max(fi.Size()-n, 0)
		buf := make([]byte, fi.Size()-off)
		if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
			return 0, false
		}
		if code, ok := findExit(buf, needle, callID); ok {
			return code, true
		}
		if off == 0 {
			break
		}
	}
	return 0, false
}

// findExit finds the exit code of call callID in the lines of buf, the
// last line first: the item_completed line that holds needle.
func findExit(buf, needle []byte, callID string) (int, bool) {
	for len(buf) > 0 {
		i := bytes.LastIndexByte(bytes.TrimRight(buf, "\n"), '\n')
		line := buf[i+1:]
		buf = buf[:max(i, 0)]
		if !bytes.Contains(line, needle) || !bytes.Contains(line, []byte(`"item_completed"`)) {
			continue
		}
		var rec struct {
			Payload struct {
				Type string `json:"type"`
				Item struct {
					ID       string `json:"id"`
					ExitCode *int   `json:"exit_code"`
				} `json:"item"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &rec) == nil && rec.Payload.Type == "item_completed" &&
			rec.Payload.Item.ID == callID && rec.Payload.Item.ExitCode != nil {
			return *rec.Payload.Item.ExitCode, true
		}
	}
	return 0, false
}
