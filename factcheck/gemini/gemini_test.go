package gemini_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/internal/usererr"
)

const testKey = "test-key"

// sleeper records the waits Generate asks for, without waiting.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return ctx.Err()
}

func (s *sleeper) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// newModel starts a fake server answering with h and returns a Model on it.
func newModel(t *testing.T, h geminitest.Handler, cfg gemini.Config) (*gemini.Model, *geminitest.Server, *sleeper) {
	t.Helper()
	srv := geminitest.NewServer(t, h)
	sl := &sleeper{}
	if cfg.APIKey == "" {
		cfg.APIKey = testKey
	}
	cfg.BaseURL = srv.URL
	if cfg.Sleep == nil {
		cfg.Sleep = sl.Sleep
	}
	m, err := gemini.New(t.Context(), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m, srv, sl
}

func userText(s string) factcheck.Message {
	return factcheck.Message{Role: factcheck.RoleUser, Text: s}
}

var searchTools = []factcheck.ToolSpec{
	{
		Name:        "search",
		Description: "Search the web.",
		Parameters: map[string]any{
			"type":       "object",
			"properties": map[string]any{"query": map[string]any{"type": "string"}},
			"required":   []any{"query"},
		},
	},
	{
		Name:        "read",
		Description: "Read a page.",
		Parameters: map[string]any{
			"type":       "object",
			"properties": map[string]any{"url": map[string]any{"type": "string"}},
		},
	},
}

func TestToolCallRoundTrip(t *testing.T) {
	m, srv, _ := newModel(t, geminitest.Script(
		geminitest.Call("search", map[string]any{"query": "moon cheese", "limit": 3}),
		geminitest.Text("The moon is not made of cheese."),
	), gemini.Config{})
	ctx := t.Context()

	req := &factcheck.ModelRequest{
		System:   "You check facts.",
		Messages: []factcheck.Message{userText("Claim: the moon is made of cheese.")},
		Tools:    searchTools,
	}
	first, err := m.Generate(ctx, req)
	if err != nil {
		t.Fatalf("Generate #1: %v", err)
	}
	wantCalls := []factcheck.ToolCall{{
		ID:        "call-1",
		Name:      "search",
		Args:      json.RawMessage(`{"limit":3,"query":"moon cheese"}`),
		Signature: geminitest.FakeSignature("call-1"),
	}}
	if diff := cmp.Diff(wantCalls, first.Message.ToolCalls); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
	if first.Message.Role != factcheck.RoleModel || first.Message.Text != "" {
		t.Errorf("message = %+v, want a model message without text", first.Message)
	}

	results := `{"results":[{"url":"https://example.org/moon","title":"Moon","snippet":"rock"}]}`
	req.Messages = append(req.Messages, first.Message, factcheck.Message{
		Role: factcheck.RoleUser,
		ToolResults: []factcheck.ToolResult{{
			ID: first.Message.ToolCalls[0].ID, Name: "search", Content: json.RawMessage(results),
		}},
	})
	second, err := m.Generate(ctx, req)
	if err != nil {
		t.Fatalf("Generate #2: %v", err)
	}
	if got, want := second.Message.Text, "The moon is not made of cheese."; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	if got, want := second.Model, geminitest.ModelVersion(gemini.DefaultModel); got != want {
		t.Errorf("Model = %q, want %q", got, want)
	}
	if second.FinishReason != "STOP" {
		t.Errorf("FinishReason = %q, want STOP", second.FinishReason)
	}
	if second.Usage.PromptTokens <= first.Usage.PromptTokens || second.Usage.OutputTokens == 0 {
		t.Errorf("usage = %+v after %+v, want a growing prompt and some output", second.Usage, first.Usage)
	}

	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("server got %d requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		if r.Model != gemini.DefaultModel || r.APIKey != testKey || r.System != "You check facts." {
			t.Errorf("request %d: model %q, key %q, system %q", i, r.Model, r.APIKey, r.System)
		}
		if diff := cmp.Diff([]string{"search", "read"}, r.ToolNames()); diff != "" {
			t.Errorf("request %d tools (-want +got):\n%s", i, diff)
		}
		if r.FirstUserText() != "Claim: the moon is made of cheese." {
			t.Errorf("request %d first user text = %q", i, r.FirstUserText())
		}
		if r.Mode != "" {
			t.Errorf("request %d mode = %q, want unset (AUTO)", i, r.Mode)
		}
	}
	var schema map[string]any
	if err := json.Unmarshal(reqs[0].Tools[0].ParametersJSONSchema, &schema); err != nil {
		t.Fatalf("parametersJsonSchema: %v", err)
	}
	if diff := cmp.Diff(searchTools[0].Parameters, schema); diff != "" {
		t.Errorf("parametersJsonSchema (-want +got):\n%s", diff)
	}

	echoed := reqs[1].LastFunctionCalls()
	wantEcho := []geminitest.Part{{
		FunctionCall: &geminitest.FunctionCall{
			ID: "call-1", Name: "search", Args: map[string]any{"query": "moon cheese", "limit": float64(3)},
		},
		ThoughtSignature: geminitest.FakeSignature("call-1"),
	}}
	if diff := cmp.Diff(wantEcho, echoed); diff != "" {
		t.Errorf("echoed call (-want +got):\n%s", diff)
	}
	var wantResp map[string]any
	if err := json.Unmarshal([]byte(results), &wantResp); err != nil {
		t.Fatal(err)
	}
	wantFR := []geminitest.FunctionResponse{{ID: "call-1", Name: "search", Response: wantResp}}
	if diff := cmp.Diff(wantFR, reqs[1].LastFunctionResponses()); diff != "" {
		t.Errorf("function responses (-want +got):\n%s", diff)
	}
	roles := []string{}
	for _, c := range reqs[1].Contents {
		roles = append(roles, c.Role)
	}
	if diff := cmp.Diff([]string{"user", "model", "user"}, roles); diff != "" {
		t.Errorf("roles (-want +got):\n%s", diff)
	}
}

func TestParallelCallsAndMixedTurns(t *testing.T) {
	m, srv, _ := newModel(t, geminitest.Script(
		geminitest.Call("search", map[string]any{"query": "a"}).Call("read", map[string]any{"url": "https://example.org/"}).
			WithText("Let me look."),
		geminitest.Text("done"),
	), gemini.Config{})
	req := &factcheck.ModelRequest{Messages: []factcheck.Message{userText("check")}, Tools: searchTools}
	first, err := m.Generate(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if first.Message.Text != "Let me look." || len(first.Message.ToolCalls) != 2 {
		t.Fatalf("message = %+v, want text and two calls", first.Message)
	}
	if c := first.Message.ToolCalls[1]; c.ID != "call-2" || c.Signature != nil {
		t.Errorf("second parallel call = %+v, want id call-2 and no signature (only the first call is signed)", c)
	}
	var results []factcheck.ToolResult
	for _, c := range first.Message.ToolCalls {
		results = append(results, factcheck.ToolResult{ID: c.ID, Name: c.Name, Content: json.RawMessage(`{"ok":true}`)})
	}
	req.Messages = append(req.Messages, first.Message, factcheck.Message{
		Role: factcheck.RoleUser, ToolResults: results, Text: "Budget: 3 steps left.",
	})
	if _, err := m.Generate(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	last := srv.Requests()[1]
	model, user := last.Contents[1], last.Contents[2]
	if model.Parts[0].Text != "Let me look." || model.Parts[1].FunctionCall.Name != "search" || model.Parts[2].FunctionCall.Name != "read" {
		t.Errorf("model turn parts = %+v, want text then the two calls", model.Parts)
	}
	if user.Parts[0].FunctionResponse == nil || user.Parts[1].FunctionResponse == nil || user.Parts[2].Text != "Budget: 3 steps left." {
		t.Errorf("user turn parts = %+v, want two function responses then text", user.Parts)
	}
}

func TestTextAnswerSkipsThoughts(t *testing.T) {
	m, srv, _ := newModel(t, geminitest.Script(
		geminitest.Text("Supported.").WithThought("**Weighing the evidence**").
			WithUsage(geminitest.Usage{Prompt: 100, Candidates: 20, Thoughts: 30, Cached: 60}),
	), gemini.Config{Model: "gemini-2.5-pro"})
	temp := float32(0.25)
	resp, err := m.Generate(t.Context(), &factcheck.ModelRequest{
		Messages: []factcheck.Message{userText("hi")}, Temperature: &temp, MaxOutput: 512,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := &factcheck.ModelResponse{
		Message:      factcheck.Message{Role: factcheck.RoleModel, Text: "Supported."},
		Usage:        factcheck.Usage{PromptTokens: 100, OutputTokens: 50, CachedTokens: 60},
		Model:        geminitest.ModelVersion("gemini-2.5-pro"),
		FinishReason: "STOP",
	}
	if diff := cmp.Diff(want, resp); diff != "" {
		t.Errorf("response (-want +got):\n%s", diff)
	}
	if m.Name() != "gemini-2.5-pro" {
		t.Errorf("Name() = %q", m.Name())
	}
	r := srv.Requests()[0]
	if r.Model != "gemini-2.5-pro" || r.Temperature == nil || *r.Temperature != 0.25 || r.MaxOutputTokens != 512 {
		t.Errorf("request model %q temperature %v max output %d", r.Model, r.Temperature, r.MaxOutputTokens)
	}
	if len(r.Tools) != 0 || r.Mode != "" || r.System != "" {
		t.Errorf("request without tools or system carried tools %v, mode %q, system %q", r.Tools, r.Mode, r.System)
	}
}

func TestToolModesOnTheWire(t *testing.T) {
	tests := []struct {
		name        string
		mode        factcheck.ToolMode
		allowed     []string
		wantMode    string
		wantAllowed []string
	}{
		{"auto", factcheck.ToolAuto, nil, "", nil},
		{"required any tool", factcheck.ToolRequired, nil, "ANY", nil},
		{"required allowed", factcheck.ToolRequired, []string{"read"}, "ANY", []string{"read"}},
		{"none", factcheck.ToolNone, nil, "NONE", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, srv, _ := newModel(t, geminitest.Script(geminitest.Text("ok")), gemini.Config{})
			_, err := m.Generate(t.Context(), &factcheck.ModelRequest{
				Messages: []factcheck.Message{userText("x")}, Tools: searchTools, ToolMode: tt.mode, Allowed: tt.allowed,
			})
			if err != nil {
				t.Fatal(err)
			}
			r := srv.Requests()[0]
			if r.Mode != tt.wantMode {
				t.Errorf("mode = %q, want %q", r.Mode, tt.wantMode)
			}
			if diff := cmp.Diff(tt.wantAllowed, r.Allowed); diff != "" {
				t.Errorf("allowedFunctionNames (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name      string
		replies   []geminitest.Reply
		cfg       gemini.Config
		wantWaits []time.Duration
	}{
		{
			name:      "429 with RetryInfo waits the server's delay",
			replies:   []geminitest.Reply{geminitest.RateLimited("3s"), geminitest.Text("ok")},
			wantWaits: []time.Duration{3 * time.Second},
		},
		{
			name:      "fractional RetryInfo delay",
			replies:   []geminitest.Reply{geminitest.RateLimited("0.5s"), geminitest.Text("ok")},
			wantWaits: []time.Duration{500 * time.Millisecond},
		},
		{
			name:      "RetryInfo delay is capped",
			replies:   []geminitest.Reply{geminitest.RateLimited("120s"), geminitest.Text("ok")},
			cfg:       gemini.Config{MaxRetryDelay: 10 * time.Second},
			wantWaits: []time.Duration{10 * time.Second},
		},
		{
			name:      "429 without RetryInfo backs off",
			replies:   []geminitest.Reply{geminitest.RateLimited(""), geminitest.Text("ok")},
			wantWaits: []time.Duration{time.Second},
		},
		{
			name: "503 twice backs off exponentially",
			replies: []geminitest.Reply{
				geminitest.Error(http.StatusServiceUnavailable, "The model is overloaded. Please try again later."),
				geminitest.Error(http.StatusServiceUnavailable, "The model is overloaded. Please try again later."),
				geminitest.Text("ok"),
			},
			wantWaits: []time.Duration{time.Second, 2 * time.Second},
		},
		{
			name: "500, 502, 504 are retried; backoff capped",
			replies: []geminitest.Reply{
				geminitest.Error(http.StatusInternalServerError, "An internal error has occurred."),
				geminitest.Error(http.StatusBadGateway, "bad gateway"),
				geminitest.Error(http.StatusGatewayTimeout, "deadline"),
				geminitest.Text("ok"),
			},
			cfg:       gemini.Config{MaxRetryDelay: 3 * time.Second},
			wantWaits: []time.Duration{time.Second, 2 * time.Second, 3 * time.Second},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, srv, sl := newModel(t, geminitest.Script(tt.replies...), tt.cfg)
			resp, err := m.Generate(t.Context(), &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if resp.Message.Text != "ok" {
				t.Errorf("text = %q, want ok", resp.Message.Text)
			}
			if diff := cmp.Diff(tt.wantWaits, sl.Waits()); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
			if got, want := srv.Calls(), len(tt.replies); got != want {
				t.Errorf("calls = %d, want %d", got, want)
			}
		})
	}
}

func TestRateLimitedForever(t *testing.T) {
	m, srv, sl := newModel(t, geminitest.Repeat(geminitest.RateLimited("2s")), gemini.Config{MaxAttempts: 3})
	_, err := m.Generate(t.Context(), &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}})
	if !errors.Is(err, factcheck.ErrRateLimited) {
		t.Fatalf("err = %v, want one wrapping ErrRateLimited", err)
	}
	var apiErr *gemini.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != http.StatusTooManyRequests || apiErr.Status != "RESOURCE_EXHAUSTED" {
		t.Errorf("err = %v, want it to carry the 429 APIError", err)
	}
	if srv.Calls() != 3 {
		t.Errorf("calls = %d, want MaxAttempts = 3", srv.Calls())
	}
	if diff := cmp.Diff([]time.Duration{2 * time.Second, 2 * time.Second}, sl.Waits()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

func TestDefaultMaxAttempts(t *testing.T) {
	m, srv, _ := newModel(t, geminitest.Repeat(geminitest.Error(http.StatusServiceUnavailable, "overloaded")), gemini.Config{})
	_, err := m.Generate(t.Context(), &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}})
	if err == nil || errors.Is(err, factcheck.ErrRateLimited) {
		t.Fatalf("err = %v, want a server error that is not ErrRateLimited", err)
	}
	if srv.Calls() != 4 {
		t.Errorf("calls = %d, want the default 4", srv.Calls())
	}
}

func TestNoRetryPastDeadline(t *testing.T) {
	m, srv, sl := newModel(t, geminitest.Repeat(geminitest.RateLimited("90s")), gemini.Config{MaxRetryDelay: time.Hour})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	_, err := m.Generate(ctx, &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}})
	if !errors.Is(err, factcheck.ErrRateLimited) {
		t.Fatalf("err = %v, want ErrRateLimited", err)
	}
	if srv.Calls() != 1 || len(sl.Waits()) != 0 {
		t.Errorf("calls = %d, waits = %v; want one call and no wait past the deadline", srv.Calls(), sl.Waits())
	}
}

// cancelAfterResponse is a transport that buffers each response and then
// cancels the caller's context: the caller gives up just as the answer
// arrives, before any retry wait starts.
type cancelAfterResponse struct {
	cancel context.CancelFunc
}

func (c cancelAfterResponse) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	c.cancel()
	return resp, nil
}

func TestCancelWhileWaiting(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	srv := geminitest.NewServer(t, geminitest.Repeat(geminitest.RateLimited("20s")))
	// The default Sleep: it must return as soon as ctx is done.
	m, err := gemini.New(t.Context(), gemini.Config{
		APIKey: testKey, BaseURL: srv.URL, HTTPClient: &http.Client{Transport: cancelAfterResponse{cancel}},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(ctx, &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	var apiErr *gemini.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != http.StatusTooManyRequests {
		t.Errorf("err = %v, want it to name the 429 it was waiting out", err)
	}
	if srv.Calls() != 1 {
		t.Errorf("calls = %d, want 1", srv.Calls())
	}
}

func TestConfigErrors(t *testing.T) {
	forbidden := geminitest.Error(http.StatusForbidden, "Your API key was reported as leaked. Please use another API key.")
	tests := []struct {
		name    string
		reply   geminitest.Reply
		wantVar string
		wantIs  error
	}{
		{"unknown model", geminitest.NotFound("gemini-9-ultra"), "FACTBOT_MODEL", factcheck.ErrUnknownModel},
		{"invalid key", geminitest.InvalidAPIKey(), "GEMINI_API_KEY", nil},
		{"forbidden", forbidden, "GEMINI_API_KEY", nil},
		{"unauthenticated", geminitest.Error(http.StatusUnauthorized, "Request had invalid authentication credentials."), "GEMINI_API_KEY", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, srv, _ := newModel(t, geminitest.Repeat(tt.reply), gemini.Config{Model: "gemini-9-ultra"})
			_, err := m.Generate(t.Context(), &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}})
			var ce *usererr.Config
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v (%T), want a *usererr.Config", err, err)
			}
			if ce.Var != tt.wantVar || ce.Hint == "" {
				t.Errorf("ConfigError = %+v, want Var %s and a hint", ce, tt.wantVar)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("err = %v, want errors.Is %v", err, tt.wantIs)
			}
			if msg, ok := usererr.Message(err); !ok || msg == "" {
				t.Errorf("IsUserError(%v) = %q, %v; want a message to show", err, msg, ok)
			}
			if srv.Calls() != 1 {
				t.Errorf("calls = %d, want 1 (configuration errors are not retried)", srv.Calls())
			}
		})
	}
}

func TestUnknownModelMessage(t *testing.T) {
	m, _, _ := newModel(t, geminitest.Repeat(geminitest.NotFound("gemini-9-ultra")), gemini.Config{Model: "gemini-9-ultra"})
	_, err := m.Generate(t.Context(), &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}})
	want := `FACTBOT_MODEL: the Gemini API does not know model "gemini-9-ultra" ` +
		`(see https://ai.google.dev/gemini-api/docs/models; the default is gemini-flash-latest)`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

func TestNewConfigErrors(t *testing.T) {
	tests := []struct {
		name    string
		cfg     gemini.Config
		wantVar string
	}{
		{"empty key", gemini.Config{}, "GEMINI_API_KEY"},
		{"bad model name", gemini.Config{APIKey: testKey, Model: "gemini?key=x"}, "FACTBOT_MODEL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GEMINI_API_KEY", "from-env") // New must not fall back to the SDK's env lookup
			_, err := gemini.New(t.Context(), tt.cfg)
			var ce *usererr.Config
			if !errors.As(err, &ce) || ce.Var != tt.wantVar {
				t.Fatalf("err = %v, want ConfigError naming %s", err, tt.wantVar)
			}
		})
	}
	_, err := gemini.New(t.Context(), gemini.Config{})
	want := "GEMINI_API_KEY: not set (get a key at https://aistudio.google.com/apikey; GOOGLE_API_KEY also works)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

func TestBaseURLFromEnvironment(t *testing.T) {
	srv := geminitest.NewServer(t, geminitest.Script(geminitest.Text("via env")))
	t.Setenv("GOOGLE_GEMINI_BASE_URL", srv.URL)
	t.Setenv("GOOGLE_GENAI_USE_VERTEXAI", "true") // must not switch the backend
	m, err := gemini.New(t.Context(), gemini.Config{APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Generate(t.Context(), &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text != "via env" || srv.Calls() != 1 {
		t.Errorf("text %q, calls %d; want the fake server to answer", resp.Message.Text, srv.Calls())
	}
}

func TestBlocked(t *testing.T) {
	tests := []struct {
		name  string
		reply geminitest.Reply
	}{
		{"prompt blocked", geminitest.Blocked("SAFETY")},
		{"answer withheld", geminitest.Text("").WithFinishReason("RECITATION")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _, _ := newModel(t, geminitest.Script(tt.reply), gemini.Config{})
			_, err := m.Generate(t.Context(), &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}})
			if !errors.Is(err, gemini.ErrBlocked) {
				t.Errorf("err = %v, want ErrBlocked", err)
			}
		})
	}
}

func TestMaxTokensWithoutTextIsNotAnError(t *testing.T) {
	m, _, _ := newModel(t, geminitest.Script(geminitest.Text("").WithThought("thinking").WithFinishReason("MAX_TOKENS")), gemini.Config{})
	resp, err := m.Generate(t.Context(), &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.FinishReason != "MAX_TOKENS" || resp.Message.Text != "" {
		t.Errorf("response = %+v, want empty text with MAX_TOKENS", resp)
	}
}

func TestBadRequests(t *testing.T) {
	tests := []struct {
		name string
		req  *factcheck.ModelRequest
	}{
		{"no messages", &factcheck.ModelRequest{}},
		{"only empty messages", &factcheck.ModelRequest{Messages: []factcheck.Message{{Role: factcheck.RoleUser}}}},
		{"unknown role", &factcheck.ModelRequest{Messages: []factcheck.Message{{Role: "system", Text: "x"}}}},
		{"args not an object", &factcheck.ModelRequest{Messages: []factcheck.Message{
			userText("x"),
			{Role: factcheck.RoleModel, ToolCalls: []factcheck.ToolCall{{Name: "search", Args: json.RawMessage(`[1]`)}}},
		}}},
		{"required without tools", &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}, ToolMode: factcheck.ToolRequired}},
		{"unknown tool mode", &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}, Tools: searchTools, ToolMode: "sometimes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, srv, _ := newModel(t, geminitest.Script(), gemini.Config{})
			if _, err := m.Generate(t.Context(), tt.req); err == nil {
				t.Error("Generate succeeded, want an error")
			}
			if srv.Calls() != 0 {
				t.Errorf("calls = %d, want 0", srv.Calls())
			}
		})
	}
}

func TestToolResultsThatAreNotObjects(t *testing.T) {
	tests := []struct {
		content string
		want    map[string]any
	}{
		{`{"error":"fetch failed"}`, map[string]any{"error": "fetch failed"}},
		{`["a","b"]`, map[string]any{"output": []any{"a", "b"}}},
		{`"plain"`, map[string]any{"output": "plain"}},
		{`not json`, map[string]any{"output": "not json"}},
		{``, map[string]any{}},
		{`{"n":12345678901234567890}`, map[string]any{"n": 12345678901234567890.0}},
	}
	for _, tt := range tests {
		t.Run(tt.content, func(t *testing.T) {
			m, srv, _ := newModel(t, geminitest.Script(geminitest.Text("ok")), gemini.Config{})
			_, err := m.Generate(t.Context(), &factcheck.ModelRequest{Messages: []factcheck.Message{
				userText("x"),
				{Role: factcheck.RoleModel, ToolCalls: []factcheck.ToolCall{{ID: "c1", Name: "read", Args: json.RawMessage(`{"url":"u"}`)}}},
				{Role: factcheck.RoleUser, ToolResults: []factcheck.ToolResult{{ID: "c1", Name: "read", Content: json.RawMessage(tt.content)}}},
			}})
			if err != nil {
				t.Fatal(err)
			}
			got := srv.Requests()[0].LastFunctionResponses()[0].Response
			if got == nil {
				got = map[string]any{}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("response (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMissingSignatureIsRejectedLikeTheRealAPI(t *testing.T) {
	m, _, _ := newModel(t, geminitest.Script(
		geminitest.Call("search", map[string]any{"query": "q"}),
		geminitest.Text("unreachable"),
	), gemini.Config{})
	req := &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}, Tools: searchTools}
	first, err := m.Generate(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	call := first.Message.ToolCalls[0]
	call.Signature = nil // an engine that drops the signature
	req.Messages = append(req.Messages,
		factcheck.Message{Role: factcheck.RoleModel, ToolCalls: []factcheck.ToolCall{call}},
		factcheck.Message{Role: factcheck.RoleUser, ToolResults: []factcheck.ToolResult{{ID: call.ID, Name: call.Name, Content: json.RawMessage(`{}`)}}},
	)
	_, err = m.Generate(t.Context(), req)
	var apiErr *gemini.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != http.StatusBadRequest {
		t.Errorf("err = %v, want a 400 APIError", err)
	}
}

func TestCallsWithoutIDs(t *testing.T) {
	m, srv, _ := newModel(t, geminitest.Script(
		geminitest.Call("search", map[string]any{"query": "a"}).Call("search", map[string]any{"query": "b"}).WithoutCallIDs(),
		geminitest.Text("ok"),
	), gemini.Config{})
	req := &factcheck.ModelRequest{Messages: []factcheck.Message{userText("x")}, Tools: searchTools}
	first, err := m.Generate(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	calls := first.Message.ToolCalls
	if len(calls) != 2 || calls[0].ID == "" || calls[0].ID == calls[1].ID {
		t.Fatalf("calls = %+v, want two distinct made-up ids", calls)
	}
	req.Messages = append(req.Messages, first.Message, factcheck.Message{Role: factcheck.RoleUser, ToolResults: []factcheck.ToolResult{
		{ID: calls[0].ID, Name: "search", Content: json.RawMessage(`{"n":1}`)},
		{ID: calls[1].ID, Name: "search", Content: json.RawMessage(`{"n":2}`)},
	}})
	if _, err := m.Generate(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[1]
	for _, p := range r.LastFunctionCalls() {
		if p.FunctionCall.ID != "" {
			t.Errorf("echoed call id %q, want none (the API sent none)", p.FunctionCall.ID)
		}
	}
	for _, fr := range r.LastFunctionResponses() {
		if fr.ID != "" {
			t.Errorf("function response id %q, want none", fr.ID)
		}
	}
	if sig := r.LastFunctionCalls()[0].ThoughtSignature; len(sig) == 0 {
		t.Error("thought signature not echoed")
	}
}

// A call the loop read from the model's text has neither id nor thought
// signature; it is sent with the sentinel Gemini accepts for calls it did
// not make, and no id.
func TestCallReadFromTextIsSentWithSentinelSignature(t *testing.T) {
	m, srv, _ := newModel(t, geminitest.Script(geminitest.Text("ok")), gemini.Config{})
	req := &factcheck.ModelRequest{Tools: searchTools, Messages: []factcheck.Message{
		userText("x"),
		{Role: factcheck.RoleModel, ToolCalls: []factcheck.ToolCall{{Name: "search", Args: json.RawMessage(`{"query":"q"}`)}}},
		{Role: factcheck.RoleUser, ToolResults: []factcheck.ToolResult{{Name: "search", Content: json.RawMessage(`{}`)}}},
	}}
	if _, err := m.Generate(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	calls := srv.Requests()[0].LastFunctionCalls()
	if len(calls) != 1 || string(calls[0].ThoughtSignature) != "skip_thought_signature_validator" || calls[0].FunctionCall.ID != "" {
		t.Errorf("function calls sent = %+v, want one without id, with the sentinel signature", calls)
	}
}
