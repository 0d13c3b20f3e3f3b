package search

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// braveOK is a real-shaped Brave web search answer (trimmed).
const braveOK = `{
  "query": {"original": "eiffel tower height", "show_strict_warning": false, "is_navigational": false, "country": "us", "more_results_available": true},
  "mixed": {"type": "mixed", "main": [{"type": "web", "index": 0, "all": false}], "top": [], "side": []},
  "type": "search",
  "web": {
    "type": "search",
    "results": [
      {"title": "Eiffel Tower - <strong>Height</strong> &amp; facts", "url": "https://en.example.org/wiki/Eiffel_Tower", "is_source_local": false, "is_source_both": false,
       "description": "The tower is <strong>330 metres</strong> (1,083 ft) tall.", "page_age": "2024-02-12T10:00:00", "profile": {"name": "Example", "url": "https://en.example.org", "long_name": "en.example.org", "img": "https://imgs.search.brave.com/x"},
       "language": "en", "family_friendly": true, "type": "search_result", "subtype": "generic", "is_live": false,
       "meta_url": {"scheme": "https", "netloc": "en.example.org", "hostname": "en.example.org", "favicon": "https://imgs.search.brave.com/y", "path": "› wiki › Eiffel_Tower"},
       "extra_snippets": ["It was the tallest structure until 1930."]},
      {"title": "Tower facts", "url": "https://facts.example.com/tower", "description": "Built for the 1889 fair.", "age": "March 3, 2023", "type": "search_result"}
    ],
    "family_friendly": true
  }
}`

func TestBraveSearch(t *testing.T) {
	var gotQuery url.Values
	var token string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/res/v1/web/search" {
			http.NotFound(w, r)
			return
		}
		gotQuery = r.URL.Query()
		token = r.Header.Get("X-Subscription-Token")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, braveOK)
	}))
	defer srv.Close()
	resp, err := one(NewBrave(BraveConfig{APIKey: "BSA-test", BaseURL: srv.URL})).Search(context.Background(), Query{Text: "eiffel tower height", Max: 30})
	if err != nil {
		t.Fatal(err)
	}
	if token != "BSA-test" || gotQuery.Get("q") != "eiffel tower height" || gotQuery.Get("count") != "20" {
		t.Errorf("request: token %q query %v", token, gotQuery)
	}
	want := &Response{Query: "eiffel tower height", Provider: "brave", Results: []Result{
		{Title: "Eiffel Tower - Height & facts", URL: "https://en.example.org/wiki/Eiffel_Tower",
			Snippet: "The tower is 330 metres (1,083 ft) tall. … It was the tallest structure until 1930.", Published: "2024-02-12T10:00:00", PublishedAt: time.Date(2024, 2, 12, 10, 0, 0, 0, time.UTC), Provider: "brave"},
		{Title: "Tower facts", URL: "https://facts.example.com/tower", Snippet: "Built for the 1889 fair.", Published: "March 3, 2023", PublishedAt: time.Date(2023, 3, 3, 0, 0, 0, 0, time.UTC), Provider: "brave"},
	}}
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
}

func TestBraveErrors(t *testing.T) {
	brave := func(url string) Provider { return NewBrave(BraveConfig{APIKey: "k", BaseURL: url}) }
	testProviderErrors(t, brave, []providerErrorCase{
		{"bad token", 422, nil,
			`{"error": {"id": "c1f2", "status": 422, "code": "SUBSCRIPTION_TOKEN_INVALID", "detail": "The provided subscription token is invalid.", "meta": {"component": "authentication"}}, "type": "ErrorResponse", "time": 1710000000}`,
			ErrUnauthorized, 0, "brave: API key rejected (HTTP 422: The provided subscription token is invalid.)"},
		{"rate limited", 429, map[string]string{"X-RateLimit-Reset": "1, 1419704"},
			`{"error": {"id": "a9", "status": 429, "code": "RATE_LIMITED", "detail": "Request rate limit exceeded for plan.", "meta": {"plan": "Free", "rate_limit": 1, "rate_current": 2, "quota_limit": 2000, "quota_current": 40, "component": "rate_limiter"}}, "type": "ErrorResponse", "time": 1710000000}`,
			ErrRateLimited, time.Second, "brave: rate limited (HTTP 429: Request rate limit exceeded for plan.), retry after 1s"},
		{"quota", 429, map[string]string{"X-RateLimit-Reset": "1, 86400"},
			`{"error": {"id": "b7", "status": 429, "code": "QUOTA_LIMITED", "detail": "Request quota exceeded for plan.", "meta": {"plan": "Free", "quota_limit": 2000, "quota_current": 2000, "component": "rate_limiter"}}, "type": "ErrorResponse", "time": 1710000000}`,
			ErrQuota, 24 * time.Hour, "brave: quota exhausted (HTTP 429: Request quota exceeded for plan.), retry after 24h0m0s"},
		{"server error", 503, nil, `upstream connect error`, ErrUnavailable, 0, "brave: service unavailable (HTTP 503: upstream connect error)"},
	})
}
