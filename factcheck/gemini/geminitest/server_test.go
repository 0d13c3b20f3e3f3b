package geminitest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genai"

	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
)

// recordingTB collects the failures the server reports instead of failing.
type recordingTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Logf(string, ...any) {}

func (r *recordingTB) Errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errors...)
}

// client returns a real genai client on srv, without retries.
func client(t *testing.T, srv *geminitest.Server) *genai.Client {
	t.Helper()
	c, err := genai.NewClient(t.Context(), &genai.ClientConfig{
		APIKey: "k", Backend: genai.BackendGeminiAPI, HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestScriptExhaustedFailsTheTest(t *testing.T) {
	rec := &recordingTB{TB: t}
	srv := geminitest.NewServer(rec, geminitest.Script(geminitest.Text("only one")))
	c := client(t, srv)
	if _, err := c.Models.GenerateContent(t.Context(), "m", genai.Text("a"), nil); err != nil {
		t.Fatal(err)
	}
	_, err := c.Models.GenerateContent(t.Context(), "m", genai.Text("b"), nil)
	var apiErr genai.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != http.StatusBadRequest {
		t.Errorf("err = %v, want a 400 (not retried)", err)
	}
	if errs := rec.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "script has 1 replies, got request 2") {
		t.Errorf("reported %q, want one script error", errs)
	}
	if srv.Calls() != 2 {
		t.Errorf("Calls() = %d, want 2", srv.Calls())
	}
}

func TestErrorRepliesParseAsAPIErrors(t *testing.T) {
	tests := []struct {
		reply      geminitest.Reply
		wantCode   int
		wantStatus string
		wantDetail string
	}{
		{geminitest.RateLimited("7s"), 429, "RESOURCE_EXHAUSTED", "type.googleapis.com/google.rpc.RetryInfo"},
		{geminitest.NotFound("gemini-x"), 404, "NOT_FOUND", ""},
		{geminitest.InvalidAPIKey(), 400, "INVALID_ARGUMENT", "type.googleapis.com/google.rpc.ErrorInfo"},
		{geminitest.Error(503, "overloaded"), 503, "UNAVAILABLE", ""},
	}
	for _, tt := range tests {
		t.Run(tt.wantStatus, func(t *testing.T) {
			srv := geminitest.NewServer(t, geminitest.Repeat(tt.reply))
			_, err := client(t, srv).Models.GenerateContent(t.Context(), "m", genai.Text("a"), nil)
			var apiErr genai.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want genai.APIError", err)
			}
			if apiErr.Code != tt.wantCode || apiErr.Status != tt.wantStatus || apiErr.Message == "" {
				t.Errorf("APIError = %+v, want %d %s", apiErr, tt.wantCode, tt.wantStatus)
			}
			if tt.wantDetail != "" {
				found := false
				for _, d := range apiErr.Details {
					found = found || d["@type"] == tt.wantDetail
				}
				if !found {
					t.Errorf("details %v lack %s", apiErr.Details, tt.wantDetail)
				}
			}
		})
	}
}

func TestRequestParsing(t *testing.T) {
	srv := geminitest.NewServer(t, geminitest.Script(geminitest.Text("ok")))
	temp := float32(0.5)
	_, err := client(t, srv).Models.GenerateContent(t.Context(), "gemini-test", []*genai.Content{
		genai.NewContentFromText("first question", genai.RoleUser),
		{Role: genai.RoleModel, Parts: []*genai.Part{
			{FunctionCall: &genai.FunctionCall{ID: "x1", Name: "search", Args: map[string]any{"query": "q"}}},
		}},
		{Role: genai.RoleUser, Parts: []*genai.Part{
			{FunctionResponse: &genai.FunctionResponse{ID: "x1", Name: "search", Response: map[string]any{"hits": "page text"}}},
			{Text: "now answer"},
		}},
	}, &genai.GenerateContentConfig{
		SystemInstruction: genai.NewContentFromText("be careful", genai.RoleUser),
		Temperature:       &temp,
		MaxOutputTokens:   100,
		Tools: []*genai.Tool{{FunctionDeclarations: []*genai.FunctionDeclaration{
			{Name: "search", ParametersJsonSchema: map[string]any{"type": "object"}},
		}}},
		ToolConfig: &genai.ToolConfig{FunctionCallingConfig: &genai.FunctionCallingConfig{
			Mode: genai.FunctionCallingConfigModeAny, AllowedFunctionNames: []string{"search"},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	got := map[string]any{
		"model": r.Model, "key": r.APIKey, "system": r.System, "tools": r.ToolNames(), "mode": r.Mode,
		"allowed": r.Allowed, "temperature": *r.Temperature, "max": r.MaxOutputTokens,
		"first": r.FirstUserText(), "last": r.LastText(), "turns": r.Turns(),
		"responses": r.LastFunctionResponses(), "calls": len(r.LastFunctionCalls()),
	}
	want := map[string]any{
		"model": "gemini-test", "key": "k", "system": "be careful", "tools": []string{"search"}, "mode": "ANY",
		"allowed": []string{"search"}, "temperature": 0.5, "max": 100,
		"first": "first question", "last": "now answer", "turns": 1,
		"responses": []geminitest.FunctionResponse{{ID: "x1", Name: "search", Response: map[string]any{"hits": "page text"}}},
		"calls":     1,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parsed request (-want +got):\n%s", diff)
	}
	for _, s := range []string{"be careful", "first question", "page text", "now answer"} {
		if !strings.Contains(r.AllText(), s) {
			t.Errorf("AllText() lacks %q:\n%s", s, r.AllText())
		}
	}
	if len(r.Body) == 0 {
		t.Error("Body is empty")
	}
}

func TestConversationChecks(t *testing.T) {
	call := &genai.Content{Role: genai.RoleModel, Parts: []*genai.Part{
		{FunctionCall: &genai.FunctionCall{ID: "a", Name: "f"}},
		{FunctionCall: &genai.FunctionCall{ID: "b", Name: "f"}},
	}}
	oneResponse := &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{
		{FunctionResponse: &genai.FunctionResponse{ID: "a", Name: "f", Response: map[string]any{}}},
	}}
	contents := []*genai.Content{genai.NewContentFromText("q", genai.RoleUser), call, oneResponse}

	strict := geminitest.NewServer(t, geminitest.Repeat(geminitest.Text("ok")))
	_, err := client(t, strict).Models.GenerateContent(t.Context(), "m", contents, nil)
	var apiErr genai.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != 400 || !strings.Contains(apiErr.Message, "number of function response parts") {
		t.Errorf("err = %v, want the API's 400 about response count", err)
	}

	lenient := geminitest.NewServer(t, geminitest.Repeat(geminitest.Text("ok")), geminitest.Lenient())
	if _, err := client(t, lenient).Models.GenerateContent(t.Context(), "m", contents, nil); err != nil {
		t.Errorf("lenient server: %v", err)
	}
}

func TestDelayHonoursClientCancellation(t *testing.T) {
	srv := geminitest.NewServer(t, geminitest.Repeat(geminitest.Text("late")), geminitest.WithDelay(time.Hour))
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		for srv.Calls() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := client(t, srv).Models.GenerateContent(ctx, "m", genai.Text("q"), nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	// Cleanup closes the server; it must not wait out the hour.
}

func TestUnexpectedPathFails(t *testing.T) {
	rec := &recordingTB{TB: t}
	srv := geminitest.NewServer(rec, geminitest.Script())
	resp, err := http.Get(srv.URL + "/v1beta/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || len(rec.Errors()) != 1 {
		t.Errorf("status %d, reported %q; want 404 and one failure", resp.StatusCode, rec.Errors())
	}
}
