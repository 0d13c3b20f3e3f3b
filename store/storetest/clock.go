package storetest

import (
	"context"
	"sync"
	"time"
)

// Clock is a settable fake clock, safe for concurrent use: pass its Now as
// a store's (or any component's) clock and move it with Add.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock that reads t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Sleep is a sleep in the clock's time, for a component's Sleep: it moves
// the clock on by d (when positive) at once and returns ctx's error. Time
// then passes only as fast as the component waits (sleepers side by side
// each move it on).
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if d > 0 {
		c.Add(d)
	}
	return ctx.Err()
}
