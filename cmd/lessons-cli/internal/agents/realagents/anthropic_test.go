package realagents

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// anthropic is the Messages API as Claude Code calls it: HEAD / to check
// the server, then POST /v1/messages streamed as server-sent events. A
// request offering tools is the conversation.
func anthropic(m *model, w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusOK)
		return
	}
	var req struct {
		Stream bool              `json:"stream"`
		Tools  []json.RawMessage `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	if r.URL.Path == "/v1/messages/count_tokens" {
		m.take(r, body, false)
		json.NewEncoder(w).Encode(map[string]any{"input_tokens": 100})
		return
	}
	s, i := m.take(r, body, len(req.Tools) > 0)
	usage := map[string]any{"input_tokens": 100, "output_tokens": 10}
	var block map[string]any
	stop := "end_turn"
	if s.Tool != "" {
		block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%02d", i+10), "name": s.Tool, "input": s.Input}
		stop = "tool_use"
	} else {
		block = map[string]any{"type": "text", "text": s.Text}
	}
	msg := map[string]any{"id": fmt.Sprintf("msg_%02d", i+10), "type": "message", "role": "assistant",
		"model": "claude-sonnet-4-5", "stop_reason": stop, "stop_sequence": nil, "usage": usage}
	if !req.Stream {
		msg["content"] = []any{block}
		json.NewEncoder(w).Encode(msg)
		return
	}
	msg["content"], msg["stop_reason"] = []any{}, nil
	e := startSSE(w)
	e.event("message_start", map[string]any{"type": "message_start", "message": msg})
	if s.Tool != "" {
		e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": s.Tool, "input": map[string]any{}}})
		e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": mustJSON(s.Input)}})
	} else {
		e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": s.Text}})
	}
	e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	e.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	e.event("message_stop", map[string]any{"type": "message_stop"})
}
