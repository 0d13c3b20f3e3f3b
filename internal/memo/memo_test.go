package memo

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func TestGetRemembersForTTL(t *testing.T) {
	clk := &clock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	c := &Cache[string]{TTL: time.Minute, ErrTTL: 10 * time.Second, Now: clk.Now}
	calls := 0
	fetch := func(context.Context) (string, error) { calls++; return "public", nil }
	for range 3 {
		if v, ok := c.Get(context.Background(), "C1", fetch); v != "public" || !ok {
			t.Fatalf("Get = %q, %v", v, ok)
		}
	}
	if calls != 1 {
		t.Errorf("%d lookups within the TTL, want 1", calls)
	}
	clk.Add(2 * time.Minute)
	c.Get(context.Background(), "C1", fetch)
	if calls != 2 {
		t.Errorf("%d lookups after the TTL, want 2", calls)
	}
}

func TestGetRemembersFailureForErrTTL(t *testing.T) {
	clk := &clock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	c := &Cache[string]{TTL: time.Minute, ErrTTL: 10 * time.Second, Now: clk.Now}
	calls := 0
	fail := func(context.Context) (string, error) { calls++; return "ignored", errors.New("missing_scope") }
	for range 2 {
		if v, ok := c.Get(context.Background(), "C1", fail); v != "" || ok {
			t.Fatalf("Get after a failure = %q, %v; want the zero value, false", v, ok)
		}
	}
	clk.Add(11 * time.Second)
	c.Get(context.Background(), "C1", fail)
	if calls != 2 {
		t.Errorf("%d lookups, want one per ErrTTL (2)", calls)
	}
}

// A burst of callers shares the one lookup in flight; one of them giving
// up does not cancel it for the others.
func TestGetSharesTheLookupInFlight(t *testing.T) {
	c := &Cache[int]{TTL: time.Minute}
	release := make(chan struct{})
	var calls atomic.Int32
	fetch := func(ctx context.Context) (int, error) {
		calls.Add(1)
		<-release
		return 42, ctx.Err()
	}
	first := make(chan struct{})
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(context.Background())
	wg.Add(1)
	go func() { // the caller that looks up, then gives up waiting
		defer wg.Done()
		close(first)
		c.Get(ctx, "k", fetch)
	}()
	<-first
	for calls.Load() == 0 {
		time.Sleep(time.Millisecond) // wait for the lookup to start, not a timed assertion
	}
	results := make(chan int, 5)
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, _ := c.Get(context.Background(), "k", fetch)
			results <- v
		}()
	}
	cancel()
	close(release)
	wg.Wait()
	close(results)
	for v := range results {
		if v != 42 {
			t.Errorf("a waiting caller got %d, want the shared 42", v)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d lookups, want 1", n)
	}
}

func TestGetBoundsTheKeys(t *testing.T) {
	c := &Cache[int]{TTL: time.Hour, Max: 3}
	for i, k := range []string{"a", "b", "c", "d", "e"} {
		c.Get(context.Background(), k, func(context.Context) (int, error) { return i, nil })
	}
	if n := len(c.m); n > 3 {
		t.Errorf("%d keys kept, want at most 3", n)
	}
}
