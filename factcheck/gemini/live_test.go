package gemini_test

import (
	"cmp"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
)

// TestLive calls the real Gemini API. It runs only with
// FACTBOT_LIVE_GEMINI=1 and a key in GEMINI_API_KEY or GOOGLE_API_KEY
// (model: FACTBOT_MODEL or the default):
//
//	FACTBOT_LIVE_GEMINI=1 go test -run TestLive -v ./factcheck/gemini/
func TestLive(t *testing.T) {
	if os.Getenv("FACTBOT_LIVE_GEMINI") != "1" {
		t.Skip("set FACTBOT_LIVE_GEMINI=1 to call the real Gemini API")
	}
	key := cmp.Or(os.Getenv("GEMINI_API_KEY"), os.Getenv("GOOGLE_API_KEY"))
	m, err := gemini.New(t.Context(), gemini.Config{APIKey: key, Model: os.Getenv("FACTBOT_MODEL")})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("text", func(t *testing.T) {
		resp, err := m.Generate(t.Context(), &factcheck.ModelRequest{
			Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "Reply with the single word: pong"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("model %s, finish %s, usage %+v, text %q", resp.Model, resp.FinishReason, resp.Usage, resp.Message.Text)
		if !strings.Contains(strings.ToLower(resp.Message.Text), "pong") {
			t.Errorf("text = %q, want pong", resp.Message.Text)
		}
	})

	t.Run("tool round trip", func(t *testing.T) {
		req := &factcheck.ModelRequest{
			System:   "Use the lookup tool before answering.",
			Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "What is the capital of Freedonia?"}},
			Tools: []factcheck.ToolSpec{{
				Name: "lookup", Description: "Look up a fact.",
				Parameters: map[string]any{
					"type": "object", "properties": map[string]any{"query": map[string]any{"type": "string"}},
					"required": []any{"query"},
				},
			}},
			ToolMode: factcheck.ToolRequired,
		}
		first, err := m.Generate(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		if len(first.Message.ToolCalls) == 0 {
			t.Fatalf("no tool call: %+v", first.Message)
		}
		t.Logf("calls %s, signature %d bytes", first.Message.ToolCalls[0].Args, len(first.Message.ToolCalls[0].Signature))
		var results []factcheck.ToolResult
		for _, c := range first.Message.ToolCalls {
			results = append(results, factcheck.ToolResult{ID: c.ID, Name: c.Name, Content: json.RawMessage(`{"answer":"Fredville"}`)})
		}
		req.Messages = append(req.Messages, first.Message, factcheck.Message{Role: factcheck.RoleUser, ToolResults: results})
		req.ToolMode = factcheck.ToolNone
		second, err := m.Generate(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(second.Message.Text, "Fredville") {
			t.Errorf("text = %q, want Fredville", second.Message.Text)
		}
	})
}
