package search

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// searxngOK is a real-shaped SearXNG format=json answer (trimmed).
const searxngOK = `{
  "query": "eiffel tower height",
  "number_of_results": 0,
  "results": [
    {"url": "https://en.example.org/wiki/Eiffel_Tower", "title": "Eiffel Tower", "content": "The tower is 330 metres tall.", "publishedDate": null,
     "thumbnail": "", "engine": "duckduckgo", "template": "default.html", "parsed_url": ["https", "en.example.org", "/wiki/Eiffel_Tower", "", "", ""],
     "img_src": "", "priority": "", "engines": ["duckduckgo", "brave"], "positions": [1, 2], "score": 3.5, "category": "general"},
    {"url": "https://news.example.com/tower", "title": "Tower grows", "content": "A new antenna added six metres.", "publishedDate": "2024-02-12T00:00:00",
     "engine": "brave", "engines": ["brave"], "positions": [3], "score": 0.33, "category": "general"}
  ],
  "answers": [], "corrections": [], "infoboxes": [], "suggestions": ["eiffel tower height in feet"],
  "unresponsive_engines": [["google", "timeout"]]
}`

func TestSearXNGSearch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/searx/search" || r.URL.Query().Get("format") != "json" || r.URL.Query().Get("q") != "eiffel tower height" {
			http.Error(w, "bad request "+r.URL.String(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, searxngOK)
	}))
	defer srv.Close()
	resp, err := one(NewSearXNG(SearXNGConfig{BaseURL: srv.URL + "/searx/"})).Search(context.Background(), Query{Text: "eiffel tower height", Max: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := &Response{Query: "eiffel tower height", Provider: "searxng", Results: []Result{
		{Title: "Eiffel Tower", URL: "https://en.example.org/wiki/Eiffel_Tower", Snippet: "The tower is 330 metres tall.", Score: 3.5, Provider: "searxng"},
		{Title: "Tower grows", URL: "https://news.example.com/tower", Snippet: "A new antenna added six metres.", Score: 0.33, Published: "2024-02-12T00:00:00", PublishedAt: time.Date(2024, 2, 12, 0, 0, 0, 0, time.UTC), Provider: "searxng"},
	}}
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
}

func TestSearXNGErrors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		wantKind error
		wantMsg  string
	}{
		{"json disabled", 403, "<!DOCTYPE html><html><body><h1>Forbidden</h1></body></html>", ErrMisconfigured,
			`searxng: not usable as configured (HTTP 403: the instance does not serve JSON; add "json" to search.formats in its settings.yml)`},
		{"limiter", 429, "Too Many Requests", ErrRateLimited, "searxng: rate limited (HTTP 429: Too Many Requests)"},
		{"all engines down", 200, `{"query": "q", "number_of_results": 0, "results": [], "answers": [], "unresponsive_engines": [["google", "timeout"], ["brave", "too many requests"]]}`,
			ErrUnavailable, "searxng: service unavailable: no engine answered (google: timeout, brave: too many requests)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := cannedServer(t, nil, tc.status, nil, tc.body)
			_, err := NewSearXNG(SearXNGConfig{BaseURL: srv.URL}).Search(context.Background(), Query{Text: "q", Max: 5})
			if !errors.Is(err, tc.wantKind) || err.Error() != tc.wantMsg {
				t.Errorf("err = %q, want %q wrapping %v", err, tc.wantMsg, tc.wantKind)
			}
		})
	}
}
