package search

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// tavilyOK is a real-shaped Tavily /search answer.
const tavilyOK = `{
  "query": "eiffel tower height",
  "follow_up_questions": null,
  "answer": null,
  "images": [],
  "results": [
    {"url": "https://www.example.org/eiffel?utm_source=x", "title": "Eiffel Tower facts and figures - Example", "content": "The tower is 330 metres tall.", "score": 0.91, "raw_content": null},
    {"url": "https://example.org/eiffel/", "title": "Duplicate by canonical URL", "content": "dup", "score": 0.5, "raw_content": null},
    {"url": "https://news.example.com/a", "title": "Tower grows", "content": "  It grew 6 m with a new antenna.  ", "score": 0.77, "raw_content": null, "published_date": "Mon, 12 Feb 2024 10:00:00 GMT"}
  ],
  "response_time": 1.07,
  "request_id": "123e4567-e89b-12d3-a456-426614174111"
}`

func TestTavilySearch(t *testing.T) {
	var got tavilyRequest
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/search" {
			http.Error(w, "wrong endpoint", http.StatusNotFound)
			return
		}
		auth = r.Header.Get("Authorization")
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &got); err != nil {
			t.Errorf("request body: %v", err)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, tavilyOK)
	}))
	defer srv.Close()

	s := one(NewTavily(TavilyConfig{APIKey: "tvly-test", BaseURL: srv.URL + "/"}))
	resp, err := s.Search(context.Background(), Query{Text: " eiffel tower height ", Max: 3})
	if err != nil {
		t.Fatal(err)
	}
	if auth != "Bearer tvly-test" {
		t.Errorf("Authorization = %q", auth)
	}
	wantReq := tavilyRequest{Query: "eiffel tower height", SearchDepth: "basic", Topic: "general", MaxResults: 3}
	if d := cmp.Diff(wantReq, got); d != "" {
		t.Errorf("request (-want +got):\n%s", d)
	}
	want := &Response{
		Query:    "eiffel tower height",
		Provider: "tavily",
		Results: []Result{
			{Title: "Eiffel Tower facts and figures - Example", URL: "https://www.example.org/eiffel?utm_source=x", Snippet: "The tower is 330 metres tall.", Score: 0.91, Provider: "tavily"},
			{Title: "Tower grows", URL: "https://news.example.com/a", Snippet: "It grew 6 m with a new antenna.", Score: 0.77, Published: "Mon, 12 Feb 2024 10:00:00 GMT", PublishedAt: time.Date(2024, 2, 12, 10, 0, 0, 0, time.UTC), Provider: "tavily"},
		},
	}
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
}

func TestTavilyErrors(t *testing.T) {
	tavily := func(url string) Provider { return NewTavily(TavilyConfig{APIKey: "k", BaseURL: url}) }
	testProviderErrors(t, tavily, []providerErrorCase{
		{"bad key", 401, nil, `{"detail":{"error":"Unauthorized: missing or invalid API key."}}`, ErrUnauthorized, 0,
			"tavily: API key rejected (HTTP 401: Unauthorized: missing or invalid API key.)"},
		{"rate limit", 429, map[string]string{"Retry-After": "30"}, `{"detail":{"error":"Too many requests"}}`, ErrRateLimited, 30 * time.Second,
			"tavily: rate limited (HTTP 429: Too many requests), retry after 30s"},
		{"plan limit", 432, nil, `{"detail":{"error":"This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com"}}`, ErrQuota, 0,
			"tavily: quota exhausted (HTTP 432: This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com)"},
		{"pay-as-you-go limit", 433, nil, `{"detail":{"error":"This request exceeds the pay-as-you-go limit. You can increase your limit on the Tavily dashboard."}}`, ErrQuota, 0,
			"tavily: quota exhausted (HTTP 433: This request exceeds the pay-as-you-go limit. You can increase your limit on the Tavily dashboard.)"},
		{"server error", 500, nil, `<html><body>Internal Server Error</body></html>`, ErrUnavailable, 0,
			"tavily: service unavailable (HTTP 500)"},
		{"bad request", 400, nil, `{"detail":{"error":"Query is missing."}}`, nil, 0,
			"tavily: request failed (HTTP 400: Query is missing.)"},
	})
}

func TestTavilyNoKey(t *testing.T) {
	_, err := NewTavily(TavilyConfig{}).Search(context.Background(), Query{Text: "q", Max: 5})
	if !errors.Is(err, ErrMisconfigured) {
		t.Errorf("err = %v, want ErrMisconfigured", err)
	}
}
