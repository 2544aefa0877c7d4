package realagents

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// chatCompletions is OpenAI's Chat Completions API as opencode's
// openai-compatible provider calls it: POST /v1/chat/completions,
// streamed as server-sent events. A request offering tools is the
// conversation.
func chatCompletions(m *model, w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	var req struct {
		Stream bool              `json:"stream"`
		Tools  []json.RawMessage `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	s, i := m.take(r, body, len(req.Tools) > 0)
	id := fmt.Sprintf("chatcmpl-%02d", i+10)
	delta := map[string]any{"role": "assistant", "content": s.Text}
	finish := "stop"
	if s.Tool != "" {
		delta = map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"index": 0,
			"id": fmt.Sprintf("call_%02d", i+10), "type": "function",
			"function": map[string]any{"name": s.Tool, "arguments": mustJSON(s.Input)}}}}
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": s.Text}
		if s.Tool != "" {
			msg = delta
		}
		json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "chat.completion", "created": 1, "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	e := startSSE(w)
	chunk := func(delta map[string]any, finish any, usage any) {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1, "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		e.event("", c)
	}
	chunk(delta, nil, nil)
	chunk(map[string]any{}, finish, usage)
	e.raw("[DONE]")
}
