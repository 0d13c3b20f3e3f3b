// Package memo remembers the result of a lookup per key for a while, so that
// a burst of requests about one key costs one lookup: callers that come while
// it is in flight wait for it. The chat adapters use it for what a channel is
// (public, private, a DM), asked of the platform's API.
package memo

import (
	"context"
	"sync"
	"time"
)

// Cache remembers one value per key. Set TTL, ErrTTL and Max before first
// use; the zero value remembers nothing for long (both TTLs zero). It is safe
// for concurrent use.
type Cache[V any] struct {
	// TTL is how long a value looked up is trusted.
	TTL time.Duration
	// ErrTTL is how long a failed lookup stands before the next caller
	// tries again (its value is V's zero value).
	ErrTTL time.Duration
	// Max bounds the keys kept: over it, expired entries are dropped, then
	// every finished one.
	Max int
	// Now returns the time; nil means time.Now.
	Now func() time.Time

	mu sync.Mutex
	m  map[string]*entry[V]
}

type entry[V any] struct {
	done  chan struct{} // closed once v, ok and until are set
	v     V
	ok    bool // the lookup succeeded
	until time.Time
}

// Get returns key's value: remembered, or looked up by fetch once for every
// caller that asks meanwhile. fetch runs with ctx's values but not its
// cancellation (the lookup is shared: one caller giving up must not fail
// the others), so it must bound itself. ok is false when the lookup failed
// (now or within ErrTTL) or ctx ended while waiting for it.
func (c *Cache[V]) Get(ctx context.Context, key string, fetch func(ctx context.Context) (V, error)) (v V, ok bool) {
	now := c.now()
	c.mu.Lock()
	if e, found := c.m[key]; found && (!isClosed(e.done) || now.Before(e.until)) {
		c.mu.Unlock()
		select {
		case <-e.done: // set before done was closed
			return e.v, e.ok
		case <-ctx.Done():
			var zero V
			return zero, false
		}
	}
	if c.m == nil {
		c.m = map[string]*entry[V]{}
	}
	if c.Max > 0 && len(c.m) >= c.Max {
		c.prune(now)
	}
	e := &entry[V]{done: make(chan struct{})}
	c.m[key] = e
	c.mu.Unlock()

	v, err := fetch(context.WithoutCancel(ctx))
	ttl := c.TTL
	if err != nil {
		var zero V
		v, ttl = zero, c.ErrTTL
	}
	c.mu.Lock()
	e.v, e.ok, e.until = v, err == nil, c.now().Add(ttl)
	c.mu.Unlock()
	close(e.done)
	return v, err == nil
}

func (c *Cache[V]) now() time.Time {
	if c.Now == nil {
		return time.Now()
	}
	return c.Now()
}

// prune drops expired entries, and every finished one if that is not
// enough. c.mu is held.
func (c *Cache[V]) prune(now time.Time) {
	for k, e := range c.m {
		if isClosed(e.done) && !now.Before(e.until) {
			delete(c.m, k)
		}
	}
	if len(c.m) < c.Max {
		return
	}
	for k, e := range c.m {
		if isClosed(e.done) {
			delete(c.m, k)
		}
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
