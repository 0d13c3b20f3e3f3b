package search

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCachedSearcher(t *testing.T) {
	var hits atomic.Int32
	srv := cannedServer(t, &hits, http.StatusOK, nil, tavilyOK)
	clock := newClock()
	cache := NewMemoryCache(clock.Now)
	s := NewCachedSearcher(NewFailover([]Provider{NewTavily(TavilyConfig{APIKey: "k", BaseURL: srv.URL})}, FailoverOptions{}), cache, CacheOptions{Now: clock.Now})
	ctx := context.Background()

	first, err := s.Search(ctx, Query{Text: "Eiffel tower height", Max: 5})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	second, err := s.Search(ctx, Query{Text: "  eiffel   TOWER height ", Max: 5})
	if err != nil {
		t.Fatal(err)
	}
	if n := hits.Load(); n != 1 {
		t.Fatalf("search API asked %d times for the same query, want 1", n)
	}
	if d := cmp.Diff(first.Results, second.Results); d != "" {
		t.Errorf("cached results differ (-first +second):\n%s", d)
	}
	if want := []string{"answered from the search cache (stored 2026-11-29T12:00:00Z by tavily)"}; !cmp.Equal(want, second.Notes) {
		t.Errorf("notes = %q, want %q", second.Notes, want)
	}
	if _, err := s.Search(ctx, Query{Text: "eiffel tower height", Max: 10}); err != nil || hits.Load() != 2 {
		t.Errorf("another max must not reuse the answer: hits %d, err %v", hits.Load(), err)
	}
	clock.Advance(DefaultSearchTTL)
	if _, err := s.Search(ctx, Query{Text: "eiffel tower height", Max: 5}); err != nil || hits.Load() != 3 {
		t.Errorf("stale entry must be refreshed: hits %d, err %v", hits.Load(), err)
	}
}

func TestCachedFactChecks(t *testing.T) {
	var hits atomic.Int32
	srv := cannedServer(t, &hits, http.StatusOK, jsonType, factCheckOK)
	fc, err := NewFactChecks(context.Background(), FactChecksConfig{APIKey: "k", Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	c := NewCachedFactChecks(fc, NewMemoryCache(nil), CacheOptions{})
	for range 2 {
		if _, err := c.SearchFactChecks(context.Background(), Query{Text: "eiffel tower dismantled", Max: 5}); err != nil {
			t.Fatal(err)
		}
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("fact check API asked %d times, want 1", n)
	}
}

func TestReaderCache(t *testing.T) {
	var hits atomic.Int32
	srv := cannedServer(t, &hits, http.StatusOK, htmlType, articleHTML)
	clock := newClock()
	cache := NewMemoryCache(clock.Now)
	r := NewReader(ReaderOptions{Resolver: testResolver, Dial: dialTo(srv), Cache: cache, Now: clock.Now})
	ctx := context.Background()

	first, err := r.Read(ctx, "http://news.example/story")
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(24 * time.Hour)
	second, err := r.Read(ctx, "http://news.example/story")
	if err != nil {
		t.Fatal(err)
	}
	if n := hits.Load(); n != 1 {
		t.Fatalf("page fetched %d times, want 1", n)
	}
	if !second.Cached || first.Cached {
		t.Errorf("Cached = %v then %v, want false then true", first.Cached, second.Cached)
	}
	second.Cached = false
	if d := cmp.Diff(first, second); d != "" {
		t.Errorf("cached page differs (-first +second):\n%s", d)
	}
	// Refusals never reach or fill the cache.
	if _, err := r.Read(ctx, "http://internal.example/"); err == nil || !strings.HasPrefix(err.Error(), "refused:") {
		t.Errorf("internal: err = %v", err)
	}
	clock.Advance(DefaultPageTTL)
	if _, err := r.Read(ctx, "http://news.example/story"); err != nil || hits.Load() != 2 {
		t.Errorf("stale page must be fetched again: hits %d, err %v", hits.Load(), err)
	}
}

// BenchmarkWarmCaches repeats a run's searches and reads against warm
// caches and fails if any of them reaches a server.
func BenchmarkWarmCaches(b *testing.B) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/search" {
			io.WriteString(w, tavilyOK)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, articleHTML)
	}))
	defer srv.Close()
	cache := NewMemoryCache(nil)
	s := NewCachedSearcher(one(NewTavily(TavilyConfig{APIKey: "k", BaseURL: srv.URL})), cache, CacheOptions{})
	r := NewReader(ReaderOptions{Resolver: testResolver, Dial: dialTo(srv), Cache: cache})
	ctx := context.Background()
	queries := []string{"eiffel tower height", "eiffel tower antenna 2024", "eiffel tower 330 metres"}
	pages := []string{"http://news.example/a", "http://news.example/b"}
	run := func() {
		for _, q := range queries {
			if _, err := s.Search(ctx, Query{Text: q, Max: 5}); err != nil {
				b.Fatal(err)
			}
		}
		for _, u := range pages {
			if _, err := r.Read(ctx, u); err != nil {
				b.Fatal(err)
			}
		}
	}
	run() // warm up
	cold := hits.Load()
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
	if n := hits.Load() - cold; n != 0 {
		b.Fatalf("warm run made %d requests, want 0", n)
	}
	b.ReportMetric(0, "requests/run")
}

// A page read with the address check lifted must not be served from the
// cache to a reader that checks addresses.
func TestReaderCacheKeepsPrivateReadsApart(t *testing.T) {
	srv := cannedServer(t, nil, http.StatusOK, htmlType, articleHTML)
	cache := NewMemoryCache(time.Now)
	ctx := context.Background()
	open := NewReader(ReaderOptions{AllowPrivate: true, Cache: cache})
	if _, err := open.Read(ctx, srv.URL+"/story"); err != nil {
		t.Fatal(err)
	}
	guarded := NewReader(ReaderOptions{Cache: cache})
	p, err := guarded.Read(ctx, srv.URL+"/story")
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("guarded reader: page %v, err %v; want a refusal, not the cached page", p, err)
	}
	if again, err := open.Read(ctx, srv.URL+"/story"); err != nil || !again.Cached {
		t.Errorf("open reader: cached=%v err=%v; want its own cached page", again != nil && again.Cached, err)
	}
}

// MemoryCache is a Cache in process memory, for tests. It is safe for
// concurrent use.
type MemoryCache struct {
	mu  sync.Mutex
	m   map[string]memEntry
	now func() time.Time
}

type memEntry struct {
	val    []byte
	stored time.Time
}

// NewMemoryCache returns an empty MemoryCache. now stamps entries; nil
// means time.Now.
func NewMemoryCache(now func() time.Time) *MemoryCache {
	if now == nil {
		now = time.Now
	}
	return &MemoryCache{m: map[string]memEntry{}, now: now}
}

// Get implements Cache. It names no records: rec is told nothing.
func (m *MemoryCache) Get(_ context.Context, bucket, key string, _ Recorder) ([]byte, time.Time, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[bucket+"\x00"+key]
	if !ok {
		return nil, time.Time{}, false, nil
	}
	return append([]byte(nil), e.val...), e.stored, true, nil
}

// Put implements Cache.
func (m *MemoryCache) Put(_ context.Context, bucket, key string, val []byte, _ Recorder) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[bucket+"\x00"+key] = memEntry{val: append([]byte(nil), val...), stored: m.now()}
	return nil
}
