package search

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func resultURLs(rs []Result) []string {
	var urls []string
	for _, r := range rs {
		urls = append(urls, r.URL)
	}
	return urls
}

func TestTavilyRestricted(t *testing.T) {
	var got tavilyRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &got); err != nil {
			t.Errorf("request body: %v", err)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, tavilyOK)
	}))
	defer srv.Close()
	ctx, rs := context.Background(), Restriction{Before: day(2024, 2, 11), ExcludeSites: []string{"example.org"}}
	resp, err := one(NewTavily(TavilyConfig{APIKey: "k", BaseURL: srv.URL})).Search(ctx, Query{Text: "eiffel tower height", Max: 5, Restriction: rs})
	if err != nil {
		t.Fatal(err)
	}
	if got.EndDate != "2024-02-11" || !cmp.Equal(got.ExcludeDomains, []string{"example.org"}) {
		t.Errorf("request end_date %q exclude_domains %q; want 2024-02-11 [example.org]", got.EndDate, got.ExcludeDomains)
	}
	if len(resp.Results) != 0 {
		t.Errorf("results %v; want none (two excluded, one published after the date)", resultURLs(resp.Results))
	}
	want := []string{"tavily: dropped 1 result(s) published after the as-of date", "tavily: dropped 2 result(s) from excluded sites"}
	if d := cmp.Diff(want, resp.Notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
}

func TestBraveRestricted(t *testing.T) {
	var got url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Query()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, braveOK)
	}))
	defer srv.Close()
	ctx, rs := context.Background(), Restriction{Before: day(2024, 1, 31), ExcludeSites: []string{"example.org"}}
	resp, err := one(NewBrave(BraveConfig{APIKey: "k", BaseURL: srv.URL})).Search(ctx, Query{Text: "eiffel tower height", Max: 5, Restriction: rs})
	if err != nil {
		t.Fatal(err)
	}
	if got.Get("freshness") != "1990-01-01to2024-01-31" || got.Get("q") != "eiffel tower height -site:example.org" {
		t.Errorf("request freshness %q q %q", got.Get("freshness"), got.Get("q"))
	}
	// en.example.org is a subdomain of an excluded site.
	if d := cmp.Diff([]string{"https://facts.example.com/tower"}, resultURLs(resp.Results)); d != "" {
		t.Errorf("results (-want +got):\n%s", d)
	}
}

func TestBraveUnrestrictedSendsNoFreshness(t *testing.T) {
	var got url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Query()
		io.WriteString(w, braveOK)
	}))
	defer srv.Close()
	if _, err := NewBrave(BraveConfig{APIKey: "k", BaseURL: srv.URL}).Search(context.Background(), Query{Text: "q", Max: 5}); err != nil {
		t.Fatal(err)
	}
	if got.Has("freshness") || got.Get("q") != "q" {
		t.Errorf("request %v; want no freshness and the query unchanged", got)
	}
}

func TestSearXNGRestricted(t *testing.T) {
	var got url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Query()
		io.WriteString(w, searxngOK)
	}))
	defer srv.Close()
	ctx, rs := context.Background(), Restriction{Before: day(2024, 2, 11), ExcludeSites: []string{"other.example"}}
	resp, err := one(NewSearXNG(SearXNGConfig{BaseURL: srv.URL})).Search(ctx, Query{Text: "eiffel tower height", Max: 5, Restriction: rs})
	if err != nil {
		t.Fatal(err)
	}
	if got.Get("q") != "eiffel tower height -site:other.example" || got.Has("time_range") {
		t.Errorf("request %v", got)
	}
	// The undated result is kept; the one dated after the day is dropped.
	if d := cmp.Diff([]string{"https://en.example.org/wiki/Eiffel_Tower"}, resultURLs(resp.Results)); d != "" {
		t.Errorf("results (-want +got):\n%s", d)
	}
}

func TestFailoverRestricted(t *testing.T) {
	srv := cannedServer(t, nil, http.StatusOK, jsonType, tavilyOK)
	f := NewFailover([]Provider{NewTavily(TavilyConfig{APIKey: "k", BaseURL: srv.URL})}, FailoverOptions{})
	ctx, rs := context.Background(), Restriction{Before: day(2024, 2, 11)}
	resp, err := f.Search(ctx, Query{Text: "eiffel", Max: 5, Restriction: rs})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"https://www.example.org/eiffel?utm_source=x"}, resultURLs(resp.Results)); d != "" {
		t.Errorf("results (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"tavily: dropped 1 result(s) published after the as-of date"}, resp.Notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
}

func TestRestrictionFilter(t *testing.T) {
	r := Restriction{Before: day(2024, 3, 1), ExcludeSites: []string{"politifact.com", "snopes.com"}}
	in := []Result{
		{URL: "https://example.com/same-day", PublishedAt: time.Date(2024, 3, 1, 23, 59, 0, 0, time.UTC)},
		{URL: "https://example.com/next-day", PublishedAt: day(2024, 3, 2)},
		{URL: "https://example.com/raw-date-only", Published: "March 5, 2024"},
		{URL: "https://example.com/relative", Published: "2 days ago"},
		{URL: "https://example.com/undated"},
		{URL: "https://www.politifact.com/factchecks/x", PublishedAt: day(2020, 1, 1)},
		{URL: "https://archive.snopes.com/y"},
		{URL: "https://notsnopes.com/z"},
		{URL: "https://web.archive.org/web/20200101000000/https://www.snopes.com/fact-check/x/"},
		{URL: "https://web.archive.org/web/2020/example.com/ok"},
	}
	kept, late, excluded := r.Filter(in)
	want := []string{"https://example.com/same-day", "https://example.com/relative", "https://example.com/undated", "https://notsnopes.com/z", "https://web.archive.org/web/2020/example.com/ok"}
	if d := cmp.Diff(want, resultURLs(kept)); d != "" {
		t.Errorf("kept (-want +got):\n%s", d)
	}
	if late != 2 || excluded != 3 {
		t.Errorf("late, excluded = %d, %d; want 2, 3", late, excluded)
	}
}

func TestReadSites(t *testing.T) {
	in := `# fact-checkers
politifact.com
https://www.Snopes.com/fact-check/   # with a scheme and path

*.factcheck.org
snopes.com
`
	got, err := ReadSites(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"politifact.com", "snopes.com", "factcheck.org"}, got); d != "" {
		t.Errorf("sites (-want +got):\n%s", d)
	}
	if _, err := ReadSites(strings.NewReader("ok.com\nnot a domain\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("err = %v; want one naming line 2", err)
	}
}

func TestCachedSearcherKeepsRestrictedAnswersApart(t *testing.T) {
	calls := 0
	s := searcherFunc(func(ctx context.Context, q Query) (*Response, error) {
		calls++
		return &Response{Query: q.Text, Provider: "fake"}, nil
	})
	cs := NewCachedSearcher(s, NewMemoryCache(nil), CacheOptions{})
	ctx := context.Background()
	restricted := Restriction{Before: day(2024, 3, 1)}
	for _, r := range []Restriction{{}, restricted, {}, restricted} {
		if _, err := cs.Search(ctx, Query{Text: "q", Max: 5, Restriction: r}); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 2 {
		t.Errorf("searches made = %d; want 2 (one unrestricted, one restricted)", calls)
	}
}

type searcherFunc func(ctx context.Context, q Query) (*Response, error)

func (f searcherFunc) Search(ctx context.Context, q Query) (*Response, error) {
	return f(ctx, q)
}
