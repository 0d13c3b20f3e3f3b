package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genai"
)

// fakeGemini serves generateContent with the given answer and the
// grounding redirect links on the same server.
func fakeGemini(t *testing.T, status int, answer func(base string) string) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/models/gemini-flash-latest:generateContent"):
			var req map[string]any
			b, _ := io.ReadAll(r.Body)
			if err := json.Unmarshal(b, &req); err != nil {
				t.Errorf("request body: %v", err)
			}
			if !strings.Contains(string(b), `"googleSearch":{}`) {
				t.Errorf("request lacks the googleSearch tool: %s", b)
			}
			if r.Header.Get("x-goog-api-key") != "test-key" {
				t.Errorf("api key header = %q", r.Header.Get("x-goog-api-key"))
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, answer(srv.URL))
		case strings.HasPrefix(r.URL.Path, "/grounding-api-redirect/"):
			target := map[string]string{
				"AUZIYQa": "https://www.reuters.com/world/europe/eiffel-tower-grows-2024-02-12/",
				"AUZIYQb": "https://apnews.com/article/eiffel-tower-antenna",
				"AUZIYQc": "", // gone
				"AUZIYQd": "/grounding-api-redirect/AUZIYQe",
				"AUZIYQe": "https://www.toureiffel.paris/en/the-monument/key-figures",
			}[strings.TrimPrefix(r.URL.Path, "/grounding-api-redirect/")]
			if strings.HasSuffix(r.URL.Path, "b") && r.Method == http.MethodHead {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			if target == "" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Location", target)
			w.WriteHeader(http.StatusFound)
		default:
			t.Errorf("unexpected request %s %s", r.Method, r.URL)
			http.NotFound(w, r)
		}
	}))
	return srv
}

func geminiClient(t *testing.T, base string) *genai.Client {
	t.Helper()
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:      "test-key",
		Backend:     genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: base},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const groundedAnswer = `{
  "candidates": [{
    "content": {"parts": [{"text": "The Eiffel Tower grew six metres in 2024 after a new antenna was fitted. It is now 330 metres tall."}], "role": "model"},
    "finishReason": "STOP",
    "index": 0,
    "groundingMetadata": {
      "searchEntryPoint": {"renderedContent": "<style>.container{}</style><div class=\"container\">…</div>"},
      "groundingChunks": [
        {"web": {"uri": "%[1]s/grounding-api-redirect/AUZIYQa", "title": "reuters.com"}},
        {"web": {"uri": "%[1]s/grounding-api-redirect/AUZIYQb", "title": "apnews.com"}},
        {"web": {"uri": "%[1]s/grounding-api-redirect/AUZIYQc", "title": "gone.example"}},
        {"web": {"uri": "%[1]s/grounding-api-redirect/AUZIYQd", "title": "toureiffel.paris"}}
      ],
      "groundingSupports": [
        {"segment": {"startIndex": 0, "endIndex": 69, "text": "The Eiffel Tower grew six metres in 2024 after a new antenna was fitted."}, "groundingChunkIndices": [0, 1], "confidenceScores": [0.95, 0.8]},
        {"segment": {"startIndex": 70, "endIndex": 99, "text": "It is now 330 metres tall."}, "groundingChunkIndices": [0, 3], "confidenceScores": [0.9, 0.7]}
      ],
      "webSearchQueries": ["eiffel tower height 2024"]
    }
  }],
  "usageMetadata": {"promptTokenCount": 30, "candidatesTokenCount": 25, "totalTokenCount": 55},
  "modelVersion": "gemini-2.5-flash"
}`

func TestGeminiSearch(t *testing.T) {
	srv := fakeGemini(t, 200, func(base string) string { return fmt.Sprintf(groundedAnswer, base) })
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	g := NewGemini(GeminiConfig{Client: geminiClient(t, srv.URL), RedirectHosts: []string{host}})
	resp, err := one(g).Search(context.Background(), Query{Text: "eiffel tower height", Max: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := &Response{Query: "eiffel tower height", Provider: "gemini", Results: []Result{
		{Title: "reuters.com", URL: "https://www.reuters.com/world/europe/eiffel-tower-grows-2024-02-12/",
			Snippet: "The Eiffel Tower grew six metres in 2024 after a new antenna was fitted. … It is now 330 metres tall.", Provider: "gemini", ModelWritten: true},
		{Title: "apnews.com", URL: "https://apnews.com/article/eiffel-tower-antenna",
			Snippet: "The Eiffel Tower grew six metres in 2024 after a new antenna was fitted.", Provider: "gemini", ModelWritten: true},
		{Title: "toureiffel.paris", URL: "https://www.toureiffel.paris/en/the-monument/key-figures",
			Snippet: "It is now 330 metres tall.", Provider: "gemini", ModelWritten: true},
	}}
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
	for _, r := range resp.Results {
		if u, _ := url.Parse(r.URL); u.Host == host {
			t.Errorf("redirect link reached the results: %s", r.URL)
		}
	}
}

func TestGeminiErrors(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		body      string
		wantKind  error
		wantRetry time.Duration
	}{
		{"rate limited", 429, `{"error": {"code": 429, "message": "Resource has been exhausted (e.g. check quota).", "status": "RESOURCE_EXHAUSTED",
			"details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}]}}`, ErrRateLimited, 37 * time.Second},
		{"daily quota", 429, `{"error": {"code": 429, "message": "You exceeded your current quota, please check your plan and billing details.", "status": "RESOURCE_EXHAUSTED",
			"details": [{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests", "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]},
			{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "3600s"}]}}`, ErrQuota, time.Hour},
		{"bad key", 400, `{"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.", "status": "INVALID_ARGUMENT",
			"details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com"}]}}`, ErrUnauthorized, 0},
		{"overloaded", 503, `{"error": {"code": 503, "message": "The model is overloaded. Please try again later.", "status": "UNAVAILABLE"}}`, ErrUnavailable, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeGemini(t, tc.status, func(string) string { return tc.body })
			defer srv.Close()
			_, err := NewGemini(GeminiConfig{Client: geminiClient(t, srv.URL)}).Search(context.Background(), Query{Text: "q", Max: 5})
			var pe *ProviderError
			if !errors.As(err, &pe) || !errors.Is(err, tc.wantKind) || pe.RetryAfter != tc.wantRetry {
				t.Errorf("err = %v, want kind %v retry %v", err, tc.wantKind, tc.wantRetry)
			}
		})
	}
}
