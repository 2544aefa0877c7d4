package realagents

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// responses is OpenAI's Responses API as Codex calls it: POST
// /v1/responses, streamed as server-sent events. A request offering tools
// is the conversation.
func responses(m *model, w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	var req struct {
		Tools []json.RawMessage `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	s, i := m.take(r, body, len(req.Tools) > 0)
	id := fmt.Sprintf("resp_%02d", i+10)
	var item map[string]any
	switch {
	case s.Freeform != "":
		item = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_%02d", i+10),
			"call_id": fmt.Sprintf("call_%02d", i+10), "name": s.Tool, "input": s.Freeform}
	case s.Tool != "":
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%02d", i+10),
			"call_id": fmt.Sprintf("call_%02d", i+10), "name": s.Tool, "arguments": mustJSON(s.Input)}
	default:
		item = map[string]any{"type": "message", "role": "assistant", "id": fmt.Sprintf("msg_%02d", i+10),
			"content": []any{map[string]any{"type": "output_text", "text": s.Text, "annotations": []any{}}}}
	}
	e := startSSE(w)
	e.event("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	e.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if s.Tool == "" {
		e.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta",
			"item_id": item["id"], "output_index": 0, "content_index": 0, "delta": s.Text})
	}
	e.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	e.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": id,
		"usage": map[string]any{"input_tokens": 100, "input_tokens_details": nil, "output_tokens": 10,
			"output_tokens_details": nil, "total_tokens": 110}}})
}
