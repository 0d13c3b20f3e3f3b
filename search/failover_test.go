package search

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeClock is an injectable clock.
type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time          { return c.t }
func (c *fakeClock) Advance(d time.Duration) { c.t = c.t.Add(d) }

// one is the searcher factbot runs over a single provider: a Failover of
// one.
func one(p Provider) *Failover { return NewFailover([]Provider{p}, FailoverOptions{}) }

func newClock() *fakeClock { return &fakeClock{t: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)} }

// fakeProvider is a Provider whose answer a test scripts.
type fakeProvider struct {
	name  string
	calls atomic.Int32
	fn    func(ctx context.Context) ([]Result, error)
}

func (p *fakeProvider) Name() string { return p.name }
func (p *fakeProvider) Search(ctx context.Context, _ Query) ([]Result, error) {
	p.calls.Add(1)
	return p.fn(ctx)
}

func answers(urls ...string) func(context.Context) ([]Result, error) {
	return func(context.Context) ([]Result, error) {
		var res []Result
		for _, u := range urls {
			res = append(res, Result{URL: u, Title: u})
		}
		return res, nil
	}
}

func failsWith(err error) func(context.Context) ([]Result, error) {
	return func(context.Context) ([]Result, error) { return nil, err }
}

// TestFailoverHTTP runs the real Tavily and Brave clients against fakes:
// Tavily answers 429, Brave answers; Tavily is skipped during its
// cool-down and asked again after it.
func TestFailoverHTTP(t *testing.T) {
	var tavilyHits, braveHits atomic.Int32
	var tavilyDown atomic.Bool
	tavilyDown.Store(true)
	tavily := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tavilyHits.Add(1)
		if tavilyDown.Load() {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"detail":{"error":"Too many requests"}}`)
			return
		}
		io.WriteString(w, tavilyOK)
	}))
	defer tavily.Close()
	brave := cannedServer(t, &braveHits, http.StatusOK, nil, braveOK)

	clock := newClock()
	f := NewFailover([]Provider{
		NewTavily(TavilyConfig{APIKey: "k", BaseURL: tavily.URL}),
		NewBrave(BraveConfig{APIKey: "k", BaseURL: brave.URL}),
	}, FailoverOptions{Now: clock.Now})
	ctx := context.Background()

	resp, err := f.Search(ctx, Query{Text: "eiffel tower height", Max: 5})
	if err != nil {
		t.Fatal(err)
	}
	wantNotes := []string{"tavily failed (tavily: rate limited (HTTP 429: Too many requests), retry after 30s); not asked again until 12:02:00"}
	if resp.Provider != "brave" || len(resp.Results) != 2 {
		t.Errorf("first query: provider %q, %d results; want brave, 2", resp.Provider, len(resp.Results))
	}
	if d := cmp.Diff(wantNotes, resp.Notes); d != "" {
		t.Errorf("first query notes (-want +got):\n%s", d)
	}

	clock.Advance(time.Minute)
	resp, err = f.Search(ctx, Query{Text: "second query", Max: 5})
	if err != nil {
		t.Fatal(err)
	}
	wantNotes = []string{"skipped tavily: cooling down until 12:02:00 after: tavily: rate limited (HTTP 429: Too many requests), retry after 30s"}
	if d := cmp.Diff(wantNotes, resp.Notes); d != "" {
		t.Errorf("during cool-down, notes (-want +got):\n%s", d)
	}
	if n := tavilyHits.Load(); n != 1 {
		t.Errorf("tavily asked %d times during its cool-down, want 1", n)
	}

	clock.Advance(2 * time.Minute)
	tavilyDown.Store(false)
	resp, err = f.Search(ctx, Query{Text: "third query", Max: 5})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Provider != "tavily" || len(resp.Notes) != 0 || tavilyHits.Load() != 2 || braveHits.Load() != 2 {
		t.Errorf("after cool-down: provider %q notes %q, tavily hits %d, brave hits %d; want tavily, none, 2, 2",
			resp.Provider, resp.Notes, tavilyHits.Load(), braveHits.Load())
	}
}

func TestFailoverSkipsAndCoolsDown(t *testing.T) {
	tests := []struct {
		name         string
		first        func(context.Context) ([]Result, error)
		wantCooldown time.Duration
		wantNote     string
	}{
		{"server error", failsWith(&ProviderError{Provider: "one", Status: 502, Kind: ErrUnavailable}), DefaultCooldown,
			"one failed (one: service unavailable (HTTP 502)); not asked again until 12:02:00"},
		{"timeout", func(ctx context.Context) ([]Result, error) { <-ctx.Done(); return nil, ctx.Err() }, DefaultCooldown,
			"one failed (one: service unavailable: no answer within 50ms); not asked again until 12:02:00"},
		{"quota", failsWith(&ProviderError{Provider: "one", Status: 432, Kind: ErrQuota}), DefaultQuotaCooldown,
			"one failed (one: quota exhausted (HTTP 432)); not asked again until 13:00:00"},
		{"rate limit with long retry", failsWith(&ProviderError{Provider: "one", Status: 429, Kind: ErrRateLimited, RetryAfter: 10 * time.Minute}), 10 * time.Minute,
			"one failed (one: rate limited (HTTP 429), retry after 10m0s); not asked again until 12:10:00"},
		{"bad key", failsWith(&ProviderError{Provider: "one", Status: 401, Kind: ErrUnauthorized}), DefaultQuotaCooldown,
			"one failed (one: API key rejected (HTTP 401)); not asked again until 13:00:00"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := newClock()
			one := &fakeProvider{name: "one", fn: tc.first}
			two := &fakeProvider{name: "two", fn: answers("https://two.example/a")}
			f := NewFailover([]Provider{one, two}, FailoverOptions{Now: clock.Now, Timeout: 50 * time.Millisecond})
			resp, err := f.Search(context.Background(), Query{Text: "q", Max: 5})
			if err != nil {
				t.Fatal(err)
			}
			want := &Response{Query: "q", Provider: "two", Notes: []string{tc.wantNote},
				Results: []Result{{URL: "https://two.example/a", Title: "https://two.example/a", Provider: "two"}}}
			if d := cmp.Diff(want, resp); d != "" {
				t.Errorf("response (-want +got):\n%s", d)
			}
			clock.Advance(tc.wantCooldown - time.Second)
			f.Search(context.Background(), Query{Text: "q", Max: 5})
			if n := one.calls.Load(); n != 1 {
				t.Errorf("one asked %d times within its cool-down, want 1", n)
			}
			clock.Advance(time.Second)
			f.Search(context.Background(), Query{Text: "q", Max: 5})
			if n := one.calls.Load(); n != 2 {
				t.Errorf("one asked %d times after its cool-down, want 2", n)
			}
		})
	}
}

func TestFailoverAllFail(t *testing.T) {
	clock := newClock()
	one := &fakeProvider{name: "one", fn: failsWith(&ProviderError{Provider: "one", Status: 432, Kind: ErrQuota})}
	two := &fakeProvider{name: "two", fn: failsWith(&ProviderError{Provider: "two", Status: 500, Kind: ErrUnavailable})}
	f := NewFailover([]Provider{one, two}, FailoverOptions{Now: clock.Now})
	_, err := f.Search(context.Background(), Query{Text: "q", Max: 5})
	if !errors.Is(err, ErrQuota) || !errors.Is(err, ErrUnavailable) {
		t.Errorf("err = %v, want it to wrap ErrQuota and ErrUnavailable", err)
	}
	if want := "no search provider answered: one: quota exhausted (HTTP 432); two: service unavailable (HTTP 500)"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	// Both cooling down: the one back soonest (two) is tried anyway.
	two.fn = answers("https://two.example/a")
	resp, err := f.Search(context.Background(), Query{Text: "q", Max: 5})
	if err != nil || resp.Provider != "two" {
		t.Fatalf("all cooling down: resp %+v err %v", resp, err)
	}
	if one.calls.Load() != 1 {
		t.Errorf("one asked %d times, want 1", one.calls.Load())
	}
}

func TestFailoverMergesAndDedupes(t *testing.T) {
	one := &fakeProvider{name: "one", fn: answers("https://a.example/x?utm_source=1")}
	two := &fakeProvider{name: "two", fn: answers("https://www.a.example/x/", "https://b.example/y")}
	three := &fakeProvider{name: "three", fn: answers("https://c.example/z")}
	f := NewFailover([]Provider{one, two, three}, FailoverOptions{MinResults: 2})
	resp, err := f.Search(context.Background(), Query{Text: "q", Max: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := &Response{Query: "q", Provider: "one+two",
		Notes: []string{"one found 1 distinct results; asking the next provider too"},
		Results: []Result{
			{URL: "https://a.example/x?utm_source=1", Title: "https://a.example/x?utm_source=1", Provider: "one"},
			{URL: "https://b.example/y", Title: "https://b.example/y", Provider: "two"},
		}}
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
	if three.calls.Load() != 0 {
		t.Errorf("three asked although two results were found")
	}
}

func TestFailoverCallerCancels(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	one := &fakeProvider{name: "one", fn: func(ctx context.Context) ([]Result, error) { cancel(); return nil, ctx.Err() }}
	two := &fakeProvider{name: "two", fn: answers("https://two.example/")}
	f := NewFailover([]Provider{one, two}, FailoverOptions{})
	if _, err := f.Search(ctx, Query{Text: "q", Max: 5}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if two.calls.Load() != 0 {
		t.Errorf("two asked after the caller gave up")
	}
	if _, down := f.isDown("one"); down {
		t.Errorf("one put in cool-down for the caller's cancellation")
	}
}
