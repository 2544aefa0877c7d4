package realagents

import (
	"encoding/json"
	"net/http"
	"strings"
)

// geminiAPI is the Gemini API as Gemini CLI calls it: POST
// /v1beta/models/MODEL:streamGenerateContent?alt=sse, and
// :generateContent for its side questions. A request offering tools is the
// conversation.
func geminiAPI(m *model, w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if strings.HasSuffix(r.URL.Path, ":countTokens") {
		m.take(r, body, false)
		json.NewEncoder(w).Encode(map[string]any{"totalTokens": 100})
		return
	}
	var req struct {
		Tools []json.RawMessage `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	s, _ := m.take(r, body, len(req.Tools) > 0)
	part := map[string]any{"text": s.Text}
	if s.Tool != "" {
		part = map[string]any{"functionCall": map[string]any{"name": s.Tool, "args": s.Input}}
	}
	answer := map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
	}
	if !strings.HasSuffix(r.URL.Path, ":streamGenerateContent") {
		json.NewEncoder(w).Encode(answer)
		return
	}
	startSSE(w).event("", answer)
}
