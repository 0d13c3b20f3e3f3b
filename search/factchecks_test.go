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

// factCheckOK is a real-shaped claims:search answer.
const factCheckOK = `{
  "claims": [
    {
      "text": "The Eiffel Tower is being dismantled in 2025.",
      "claimant": "Viral Facebook post",
      "claimDate": "2024-12-30T00:00:00Z",
      "claimReview": [
        {"publisher": {"name": "AFP Fact Check", "site": "factcheck.afp.com"}, "url": "https://factcheck.afp.com/doc.afp.com.36QZ8L2",
         "title": "No, the Eiffel Tower is not being dismantled", "reviewDate": "2025-01-03T10:21:00Z", "textualRating": "False", "languageCode": "en"},
        {"publisher": {"site": "snopes.com"}, "url": "https://www.snopes.com/fact-check/eiffel-tower-dismantled/",
         "reviewDate": "2025-01-04T00:00:00Z", "textualRating": "Fake", "languageCode": "en"}
      ]
    },
    {
      "text": "The Eiffel Tower grows in summer",
      "claimReview": [
        {"publisher": {"name": "Full Fact", "site": "fullfact.org"}, "url": "https://fullfact.org/online/eiffel-summer/",
         "title": "The Eiffel Tower does grow in summer", "reviewDate": "2023-07-01T00:00:00Z", "textualRating": "Correct", "languageCode": "en"}
      ]
    }
  ],
  "nextPageToken": "CAM"
}`

func TestFactChecksSearch(t *testing.T) {
	var got http.Header
	var gotQuery map[string][]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1alpha1/claims:search" {
			http.NotFound(w, r)
			return
		}
		got, gotQuery = r.Header, r.URL.Query()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, factCheckOK)
	}))
	defer srv.Close()
	f, err := NewFactChecks(context.Background(), FactChecksConfig{APIKey: "fc-key", Endpoint: srv.URL + "/", LanguageCode: "en"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.SearchFactChecks(context.Background(), Query{Text: "eiffel tower dismantled", Max: 10})
	if err != nil {
		t.Fatal(err)
	}
	// The key goes in the header, never in the URL (which logs and error
	// messages may show).
	key := got.Get("X-Goog-Api-Key")
	if key != "fc-key" || gotQuery["key"] != nil || gotQuery["query"][0] != "eiffel tower dismantled" || gotQuery["pageSize"][0] != "10" || gotQuery["languageCode"][0] != "en" {
		t.Errorf("request: key %q, query %v", key, gotQuery)
	}
	claim := "Claim: The Eiffel Tower is being dismantled in 2025. (claimed by Viral Facebook post, 2024-12-30)"
	want := &Response{Query: "eiffel tower dismantled", Provider: "factcheck", Results: []Result{
		{Title: "No, the Eiffel Tower is not being dismantled", URL: "https://factcheck.afp.com/doc.afp.com.36QZ8L2", Snippet: claim,
			Published: "2025-01-03T10:21:00Z", PublishedAt: time.Date(2025, 1, 3, 10, 21, 0, 0, time.UTC), Provider: "factcheck", Publisher: "AFP Fact Check", Rating: "False"},
		{Title: "The Eiffel Tower is being dismantled in 2025.", URL: "https://www.snopes.com/fact-check/eiffel-tower-dismantled/", Snippet: claim,
			Published: "2025-01-04T00:00:00Z", PublishedAt: time.Date(2025, 1, 4, 0, 0, 0, 0, time.UTC), Provider: "factcheck", Publisher: "snopes.com", Rating: "Fake"},
		{Title: "The Eiffel Tower does grow in summer", URL: "https://fullfact.org/online/eiffel-summer/", Snippet: "Claim: The Eiffel Tower grows in summer",
			Published: "2023-07-01T00:00:00Z", PublishedAt: time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC), Provider: "factcheck", Publisher: "Full Fact", Rating: "Correct"},
	}}
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
}

func TestFactChecksRestricted(t *testing.T) {
	srv := cannedServer(t, nil, http.StatusOK, jsonType, factCheckOK)
	f, err := NewFactChecks(context.Background(), FactChecksConfig{APIKey: "fc-key", Endpoint: srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		r         Restriction
		wantURLs  []string
		wantNotes []string
	}{
		{"reviewed by the date", Restriction{Before: time.Date(2025, 1, 3, 0, 0, 0, 0, time.UTC)},
			[]string{"https://factcheck.afp.com/doc.afp.com.36QZ8L2", "https://fullfact.org/online/eiffel-summer/"},
			[]string{"factcheck: dropped 1 result(s) published after the as-of date"}},
		{"before every review", Restriction{Before: time.Date(2023, 6, 30, 0, 0, 0, 0, time.UTC)},
			nil, []string{"factcheck: dropped 3 result(s) published after the as-of date"}},
		{"excluded sites", Restriction{ExcludeSites: []string{"fullfact.org", "snopes.com"}},
			[]string{"https://factcheck.afp.com/doc.afp.com.36QZ8L2"}, []string{"factcheck: dropped 2 result(s) from excluded sites"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := f.SearchFactChecks(context.Background(), Query{Text: "eiffel", Max: 10, Restriction: tc.r})
			if err != nil {
				t.Fatal(err)
			}
			var urls []string
			for _, r := range resp.Results {
				urls = append(urls, r.URL)
			}
			if d := cmp.Diff(tc.wantURLs, urls); d != "" {
				t.Errorf("results (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantNotes, resp.Notes); d != "" {
				t.Errorf("notes (-want +got):\n%s", d)
			}
		})
	}
}

func TestFactChecksErrors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		wantKind error
	}{
		{"bad key", 400, `{"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.", "status": "INVALID_ARGUMENT",
			"details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com", "metadata": {"service": "factchecktools.googleapis.com"}}]}}`, ErrUnauthorized},
		{"api not enabled", 403, `{"error": {"code": 403, "message": "Fact Check Tools API has not been used in project 123 before or it is disabled.", "status": "PERMISSION_DENIED",
			"details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "SERVICE_DISABLED", "domain": "googleapis.com"}]}}`, ErrMisconfigured},
		{"quota", 429, `{"error": {"code": 429, "message": "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'factchecktools.googleapis.com'.", "status": "RESOURCE_EXHAUSTED",
			"details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "RATE_LIMIT_EXCEEDED", "domain": "googleapis.com"}]}}`, ErrRateLimited},
		{"server", 500, `{"error": {"code": 500, "message": "Internal error encountered.", "status": "INTERNAL"}}`, ErrUnavailable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := cannedServer(t, nil, tc.status, jsonType, tc.body)
			f, err := NewFactChecks(context.Background(), FactChecksConfig{APIKey: "k", Endpoint: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.SearchFactChecks(context.Background(), Query{Text: "q", Max: 5})
			var pe *ProviderError
			if !errors.As(err, &pe) || !errors.Is(err, tc.wantKind) || pe.Status != tc.status {
				t.Errorf("err = %v, want status %d kind %v", err, tc.status, tc.wantKind)
			}
		})
	}
}

func TestFactChecksNoKey(t *testing.T) {
	_, err := NewFactChecks(context.Background(), FactChecksConfig{})
	if !errors.Is(err, ErrMisconfigured) {
		t.Errorf("err = %v, want ErrMisconfigured", err)
	}
}
