package openai

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
)

var testTools = []factcheck.ToolSpec{
	{Name: "web_search", Description: "Search the web.", Parameters: map[string]any{
		"type": "object", "properties": map[string]any{"query": map[string]any{"type": "string"}}, "required": []any{"query"},
	}},
	{Name: "read_page", Description: "Read a page.", Parameters: map[string]any{
		"type": "object", "properties": map[string]any{"url": map[string]any{"type": "string"}},
	}},
	{Name: "submit_verdict", Description: "Give the verdict.", Parameters: map[string]any{
		"type": "object", "properties": map[string]any{"verdict": map[string]any{"type": "string"}},
	}},
}

func newModel(t *testing.T, f *fakeServer, sleep *recordingSleep) *Model {
	t.Helper()
	cfg := Config{BaseURL: f.url(), Model: "test-model", HTTPClient: f.srv.Client(), MaxAttempts: 3}
	if sleep != nil {
		cfg.Sleep = sleep.sleep
	} else {
		cfg.Sleep = func(context.Context, time.Duration) error { t.Error("unexpected sleep"); return nil }
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m
}

// jsonOf round-trips v through JSON so it compares with decoded bodies.
func jsonOf(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestToolCallRoundTrip(t *testing.T) {
	f := newFakeServer(t,
		reply{body: completion(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_abc","type":"function","function":{"name":"web_search","arguments":"{\"query\":\"moon landing 1969\"}"}}]}`, "tool_calls")},
		reply{body: completion(`{"role":"assistant","content":"Done."}`, "stop")},
	)
	m := newModel(t, f, nil)
	ctx := context.Background()
	temp := float32(0.2)
	req := &factcheck.ModelRequest{
		System:      "You verify claims.",
		Messages:    []factcheck.Message{{Role: factcheck.RoleUser, Text: "Claim: the Moon landing was in 1969."}},
		Tools:       testTools[:1],
		Temperature: &temp,
		MaxOutput:   500,
	}
	resp, err := m.Generate(ctx, req)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	want := &factcheck.ModelResponse{
		Message: factcheck.Message{Role: factcheck.RoleModel, ToolCalls: []factcheck.ToolCall{
			{ID: "call_abc", Name: "web_search", Args: json.RawMessage(`{"query":"moon landing 1969"}`)},
		}},
		Usage:        factcheck.Usage{PromptTokens: 120, OutputTokens: 30},
		Model:        "test-model-0613",
		FinishReason: "tool_calls",
	}
	if diff := cmp.Diff(want, resp); diff != "" {
		t.Errorf("first response (-want +got):\n%s", diff)
	}

	req.Messages = append(req.Messages, resp.Message, factcheck.Message{Role: factcheck.RoleUser, ToolResults: []factcheck.ToolResult{
		{ID: "call_abc", Name: "web_search", Content: json.RawMessage(`{"results":[]}`)},
	}})
	resp, err = m.Generate(ctx, req)
	if err != nil {
		t.Fatalf("Generate 2: %v", err)
	}
	if resp.Message.Text != "Done." || len(resp.Message.ToolCalls) != 0 {
		t.Errorf("second response = %+v, want text Done.", resp.Message)
	}

	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("server saw %d requests, want 2", len(reqs))
	}
	first := reqs[0]
	wantFirst := map[string]any{
		"model":       "test-model",
		"temperature": 0.2,
		"max_tokens":  500.0,
		"messages": jsonOf(t, []map[string]any{
			{"role": "system", "content": "You verify claims."},
			{"role": "user", "content": "Claim: the Moon landing was in 1969."},
		}),
		"tools": jsonOf(t, []map[string]any{{"type": "function", "function": map[string]any{
			"name": "web_search", "description": "Search the web.", "parameters": testTools[0].Parameters,
		}}}),
	}
	// temperature is a float32 widened to float64: compare it approximately.
	if got, _ := first["temperature"].(float64); got < 0.199 || got > 0.201 {
		t.Errorf("temperature = %v, want 0.2", first["temperature"])
	}
	first["temperature"] = 0.2
	if diff := cmp.Diff(wantFirst, first); diff != "" {
		t.Errorf("first request (-want +got):\n%s", diff)
	}
	wantMsgs := jsonOf(t, []map[string]any{
		{"role": "system", "content": "You verify claims."},
		{"role": "user", "content": "Claim: the Moon landing was in 1969."},
		{"role": "assistant", "tool_calls": []map[string]any{{"id": "call_abc", "type": "function", "function": map[string]any{
			"name": "web_search", "arguments": `{"query":"moon landing 1969"}`,
		}}}},
		{"role": "tool", "tool_call_id": "call_abc", "content": `{"results":[]}`},
	})
	if diff := cmp.Diff(wantMsgs, reqs[1]["messages"]); diff != "" {
		t.Errorf("second request's messages (-want +got):\n%s", diff)
	}
}

func TestToolChoice(t *testing.T) {
	for _, tc := range []struct {
		name      string
		mode      factcheck.ToolMode
		allowed   []string
		want      any // tool_choice on the wire; nil = absent
		wantTools []string
	}{
		{"auto", factcheck.ToolAuto, nil, nil, []string{"web_search", "read_page", "submit_verdict"}},
		{"forced final call", factcheck.ToolRequired, []string{"submit_verdict"},
			map[string]any{"type": "function", "function": map[string]any{"name": "submit_verdict"}},
			[]string{"web_search", "read_page", "submit_verdict"}},
		{"required any", factcheck.ToolRequired, nil, "required", []string{"web_search", "read_page", "submit_verdict"}},
		{"required among two", factcheck.ToolRequired, []string{"read_page", "submit_verdict"}, "required", []string{"read_page", "submit_verdict"}},
		{"none", factcheck.ToolNone, nil, "none", []string{"web_search", "read_page", "submit_verdict"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeServer(t, reply{body: completion(`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"submit_verdict","arguments":"{\"verdict\":\"supported\"}"}}]}`, "tool_calls")})
			m := newModel(t, f, nil)
			resp, err := m.Generate(context.Background(), &factcheck.ModelRequest{
				Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "x"}},
				Tools:    testTools, ToolMode: tc.mode, Allowed: tc.allowed,
			})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if len(resp.Message.ToolCalls) != 1 || resp.Message.ToolCalls[0].Name != "submit_verdict" {
				t.Errorf("tool calls = %+v", resp.Message.ToolCalls)
			}
			body := f.requests()[0]
			if diff := cmp.Diff(tc.want, body["tool_choice"]); diff != "" {
				t.Errorf("tool_choice (-want +got):\n%s", diff)
			}
			var names []string
			for _, tl := range body["tools"].([]any) {
				names = append(names, tl.(map[string]any)["function"].(map[string]any)["name"].(string))
			}
			if diff := cmp.Diff(tc.wantTools, names); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRetry429ThenSuccess(t *testing.T) {
	rateLimited := `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`
	f := newFakeServer(t,
		reply{status: 429, header: map[string]string{"Retry-After": "7"}, body: rateLimited},
		reply{status: 503, header: map[string]string{"Retry-After-Ms": "250"}, body: `{"error":{"message":"overloaded"}}`},
		reply{body: completion(`{"role":"assistant","content":"ok"}`, "stop")},
	)
	sl := &recordingSleep{}
	m := newModel(t, f, sl)
	resp, err := m.Generate(context.Background(), &factcheck.ModelRequest{Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "hi"}}})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if resp.Message.Text != "ok" {
		t.Errorf("text = %q, want ok", resp.Message.Text)
	}
	if diff := cmp.Diff([]time.Duration{7 * time.Second, 250 * time.Millisecond}, sl.waits); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("server saw %d requests, want 3 (the SDK's own retries must be off)", n)
	}
}

func TestRetryBounded(t *testing.T) {
	f := newFakeServer(t, reply{status: 429, body: `{"error":{"message":"slow down","code":"rate_limit_exceeded"}}`})
	sl := &recordingSleep{}
	m := newModel(t, f, sl) // MaxAttempts 3
	_, err := m.Generate(context.Background(), &factcheck.ModelRequest{Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "hi"}}})
	if !errors.Is(err, factcheck.ErrRateLimited) {
		t.Fatalf("err = %v, want ErrRateLimited", err)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("server saw %d requests, want 3", n)
	}
	if diff := cmp.Diff([]time.Duration{time.Second, 2 * time.Second}, sl.waits); diff != "" {
		t.Errorf("backoff waits (-want +got):\n%s", diff)
	}
}

func TestRetryAfterTooLong(t *testing.T) {
	f := newFakeServer(t, reply{status: 429, header: map[string]string{"Retry-After": "3600"}, body: `{"error":{"message":"quota"}}`})
	m := newModel(t, f, nil) // sleeping fails the test
	_, err := m.Generate(context.Background(), &factcheck.ModelRequest{Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "hi"}}})
	if !errors.Is(err, factcheck.ErrRateLimited) {
		t.Fatalf("err = %v, want ErrRateLimited", err)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

func TestAnswerWithoutTools(t *testing.T) {
	f := newFakeServer(t, reply{body: completion(`{"role":"assistant","content":"The claim is supported by NASA's records."}`, "stop")})
	m := newModel(t, f, nil)
	resp, err := m.Generate(context.Background(), &factcheck.ModelRequest{
		Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "Claim: x"}},
		Tools:    testTools,
	})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	want := factcheck.Message{Role: factcheck.RoleModel, Text: "The claim is supported by NASA's records."}
	if diff := cmp.Diff(want, resp.Message); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
}

func TestLocalModelShapes(t *testing.T) {
	searchArgs := json.RawMessage(`{"query":"eiffel tower height"}`)
	for _, tc := range []struct {
		name     string
		message  string
		finish   string
		want     []factcheck.ToolCall // IDs "" mean "synthesised": checked separately
		wantText string
	}{
		{"arguments as object, no id (Ollama)",
			`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"web_search","arguments":{"query":"eiffel tower height"}}}]}`, "stop",
			[]factcheck.ToolCall{{Name: "web_search", Args: searchArgs}}, ""},
		{"finish stop with tool_calls (vLLM)",
			`{"role":"assistant","content":null,"tool_calls":[{"id":"chatcmpl-tool-9","type":"function","function":{"name":"web_search","arguments":"{\"query\":\"eiffel tower height\"}"}}]}`, "stop",
			[]factcheck.ToolCall{{ID: "chatcmpl-tool-9", Name: "web_search", Args: searchArgs}}, ""},
		{"empty arguments string",
			`{"role":"assistant","tool_calls":[{"id":"x","type":"function","function":{"name":"read_page","arguments":""}}]}`, "tool_calls",
			[]factcheck.ToolCall{{ID: "x", Name: "read_page", Args: json.RawMessage(`{}`)}}, ""},
		// Calls written into the text stay text here: the factcheck loop
		// reads them (see loop_test.go).
		{"call as JSON content stays text",
			`{"role":"assistant","content":"{\"name\": \"web_search\", \"arguments\": {\"query\": \"eiffel tower height\"}}"}`, "stop",
			nil, `{"name": "web_search", "arguments": {"query": "eiffel tower height"}}`},
		{"tool_call tags stay text",
			`{"role":"assistant","content":"Let me search.\n<tool_call>{\"name\": \"web_search\", \"arguments\": {}}</tool_call>"}`, "stop",
			nil, "Let me search.\n<tool_call>{\"name\": \"web_search\", \"arguments\": {}}</tool_call>"},
		{"JSON content naming an unknown tool stays text",
			`{"role":"assistant","content":"{\"name\": \"delete_all\", \"arguments\": {}}"}`, "stop",
			nil, `{"name": "delete_all", "arguments": {}}`},
		{"content as parts",
			`{"role":"assistant","content":[{"type":"text","text":"plain "},{"type":"text","text":"answer"}]}`, "stop",
			nil, "plain answer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeServer(t, reply{body: completion(tc.message, tc.finish)})
			m := newModel(t, f, nil)
			resp, err := m.Generate(context.Background(), &factcheck.ModelRequest{
				Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "x"}}, Tools: testTools,
			})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			got := resp.Message.ToolCalls
			seen := map[string]bool{}
			for i := range got {
				if got[i].ID == "" || seen[got[i].ID] {
					t.Errorf("call %d has empty or duplicate id %q", i, got[i].ID)
				}
				seen[got[i].ID] = true
				if i < len(tc.want) && tc.want[i].ID == "" {
					got[i].ID = ""
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("tool calls (-want +got):\n%s", diff)
			}
			if resp.Message.Text != tc.wantText {
				t.Errorf("text = %q, want %q", resp.Message.Text, tc.wantText)
			}
		})
	}
}

// A synthesised id is sent back unchanged with the call and its result,
// and results without ids are matched to calls by name.
func TestSynthesisedIDsStayConsistent(t *testing.T) {
	f := newFakeServer(t,
		reply{body: completion(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"web_search","arguments":{"query":"a"}}}]}`, "stop")},
		reply{body: completion(`{"role":"assistant","content":"done"}`, "stop")},
	)
	m := newModel(t, f, nil)
	req := &factcheck.ModelRequest{Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "x"}}, Tools: testTools}
	resp, err := m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	id := resp.Message.ToolCalls[0].ID
	// One result echoes the id; a second, hand-built pair has no ids at all.
	req.Messages = append(req.Messages, resp.Message,
		factcheck.Message{Role: factcheck.RoleUser, ToolResults: []factcheck.ToolResult{{ID: id, Name: "web_search", Content: json.RawMessage(`{}`)}}},
		factcheck.Message{Role: factcheck.RoleModel, ToolCalls: []factcheck.ToolCall{{Name: "read_page", Args: json.RawMessage(`{"url":"u"}`)}, {Name: "web_search", Args: json.RawMessage(`{"query":"b"}`)}}},
		factcheck.Message{Role: factcheck.RoleUser, ToolResults: []factcheck.ToolResult{{Name: "web_search", Content: json.RawMessage(`{"n":2}`)}, {Name: "read_page", Content: json.RawMessage(`{"n":1}`)}}},
	)
	if _, err := m.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	msgs := f.requests()[1]["messages"].([]any)
	var callIDs, resultIDs []string
	for _, raw := range msgs {
		msg := raw.(map[string]any)
		for _, c := range asSlice(msg["tool_calls"]) {
			callIDs = append(callIDs, c.(map[string]any)["id"].(string))
		}
		if msg["role"] == "tool" {
			resultIDs = append(resultIDs, msg["tool_call_id"].(string))
		}
	}
	if diff := cmp.Diff([]string{id, "call_m3_0", "call_m3_1"}, callIDs); diff != "" {
		t.Errorf("call ids (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{id, "call_m3_1", "call_m3_0"}, resultIDs); diff != "" {
		t.Errorf("result ids (-want +got):\n%s", diff)
	}
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		reply   reply
		wantVar string
		wantErr error
	}{
		{"Ollama model without tools", reply{status: 400, body: `{"error":{"message":"registry.ollama.ai/library/gemma2:2b does not support tools","type":"api_error","param":null,"code":null}}`},
			"FACTBOT_MODEL", ErrNoTools},
		{"error as a bare string", reply{status: 400, body: `{"error":"gemma2:2b does not support tools"}`},
			"FACTBOT_MODEL", ErrNoTools},
		{"vLLM without tool parser", reply{status: 400, body: `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}`},
			"FACTBOT_MODEL", ErrNoTools},
		{"unknown model (OpenAI)", reply{status: 404, body: `{"error":{"message":"The model 'gpt-nope' does not exist","type":"invalid_request_error","param":null,"code":"model_not_found"}}`},
			"FACTBOT_MODEL", factcheck.ErrUnknownModel},
		{"unknown model (Ollama)", reply{status: 404, body: `{"error":{"message":"model \"llama9\" not found, try pulling it first","type":"api_error"}}`},
			"FACTBOT_MODEL", factcheck.ErrUnknownModel},
		{"plain-text 404", reply{status: 404, body: "404 page not found", contentType: "text/plain"},
			"FACTBOT_MODEL", factcheck.ErrUnknownModel},
		{"bad key", reply{status: 401, body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`},
			"OPENAI_API_KEY", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeServer(t, tc.reply)
			m := newModel(t, f, nil)
			_, err := m.Generate(context.Background(), &factcheck.ModelRequest{
				Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "x"}}, Tools: testTools,
			})
			var ce *usererr.Config
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v (%T), want *usererr.Config", err, err)
			}
			if ce.Var != tc.wantVar {
				t.Errorf("Var = %q, want %q (%v)", ce.Var, tc.wantVar, err)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("err = %v, want it to wrap %v", err, tc.wantErr)
			}
			if _, ok := usererr.Message(err); !ok {
				t.Errorf("IsUserError(%v) = false", err)
			}
			if n := len(f.requests()); n != 1 {
				t.Errorf("server saw %d requests, want 1 (no retries)", n)
			}
		})
	}
}

func TestNewConfig(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     Config
		wantVar string // "" = no error
	}{
		{"hosted without key", Config{Model: "gpt-4.1-mini"}, "OPENAI_API_KEY"},
		{"hosted explicit without key", Config{BaseURL: "https://api.openai.com/v1", Model: "gpt-4.1-mini"}, "OPENAI_API_KEY"},
		{"hosted with key", Config{APIKey: "sk-test", Model: "gpt-4.1-mini"}, ""},
		{"local without key", Config{BaseURL: "http://localhost:11434/v1", Model: "qwen3:8b"}, ""},
		{"no model", Config{BaseURL: "http://localhost:11434/v1"}, "FACTBOT_MODEL"},
		{"bad URL", Config{BaseURL: "localhost:11434", Model: "m"}, "OPENAI_BASE_URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(tc.cfg)
			if tc.wantVar == "" {
				if err != nil || m == nil {
					t.Fatalf("New = %v, %v; want a model", m, err)
				}
				if m.Name() != tc.cfg.Model {
					t.Errorf("Name = %q", m.Name())
				}
				return
			}
			var ce *usererr.Config
			if !errors.As(err, &ce) || ce.Var != tc.wantVar {
				t.Errorf("New err = %v, want ConfigError for %s", err, tc.wantVar)
			}
		})
	}
}

func TestAuthorizationHeader(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-env-must-not-leak")
	for _, key := range []string{"", "sk-local"} {
		f := newFakeServer(t, reply{body: completion(`{"role":"assistant","content":"ok"}`, "stop")})
		m, err := New(Config{APIKey: key, BaseURL: f.url(), Model: "m", HTTPClient: f.srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Generate(context.Background(), &factcheck.ModelRequest{Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "x"}}}); err != nil {
			t.Fatal(err)
		}
		want := ""
		if key != "" {
			want = "Bearer " + key
		}
		if got := f.headers[0].Get("Authorization"); got != want {
			t.Errorf("key %q: Authorization = %q, want %q", key, got, want)
		}
	}
}

// TestImagesAsDataURLs: a model configured for image input is sent the
// pictures as image_url parts after the text; one that is not says so.
func TestImagesAsDataURLs(t *testing.T) {
	f := newFakeServer(t, reply{body: completion(`{"role":"assistant","content":"ok"}`, "stop")})
	m := newModel(t, f, nil)
	if m.ReadsImages() {
		t.Error("a model not configured for image input reads images")
	}
	m.images = true
	_, err := m.Generate(context.Background(), &factcheck.ModelRequest{Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "Claims?",
		Images: []factcheck.File{{Name: "a.png", MIME: "image/png", Data: []byte("\x89PNG")}}}}})
	if err != nil {
		t.Fatal(err)
	}
	msgs := f.bodies[0]["messages"].([]any)
	want := []any{map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "text", "text": "Claims?"},
		map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,iVBORw=="}},
	}}}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}
