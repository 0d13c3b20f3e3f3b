// Package retry runs a call again a bounded number of times, waiting what the
// server asked for (HTTP Retry-After, Google's RetryInfo) or an exponential
// backoff. It is the one retry loop of the model providers, the chat adapters
// and the PostgreSQL driver's conflicting transactions.
package retry

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/factbot-dev/factbot/internal/wait"
)

// Defaults of a zero Policy.
const (
	DefaultAttempts = 3
	DefaultBase     = time.Second
	DefaultMaxWait  = time.Minute
)

// Policy bounds a retry loop. The zero value makes DefaultAttempts calls,
// waits 1s, 2s, 4s … when the server names no delay, and gives up rather
// than wait longer than DefaultMaxWait.
type Policy struct {
	// Attempts is the most calls made, the first included.
	Attempts int
	// Base is the first backoff when the server names no delay; it doubles
	// after each attempt, up to MaxWait.
	Base time.Duration
	// MaxWait caps one wait. A server asking for longer ends the retries
	// (the error says so) instead of holding the caller.
	MaxWait time.Duration
	// Sleep waits between attempts; nil means wait.Sleep. Tests record it.
	Sleep func(ctx context.Context, d time.Duration) error
	// OnRetry, if set, is told about every wait before it starts.
	OnRetry func(attempt int, d time.Duration, err error)
}

// Decision is what a failed call says about trying again.
type Decision struct {
	// Retry is true when the failure is passing: a rate limit or a server
	// error.
	Retry bool
	// After is the delay the server asked for; 0 means none was given.
	After time.Duration
}

// Classify reads a failed call's error. Errors it does not retry are
// returned by Do as they are.
type Classify func(err error) Decision

// Error is returned when a retryable failure outlasted the policy. It wraps
// the last failure.
type Error struct {
	Attempts int           // calls made
	Wait     time.Duration // the wait refused (too long, or past the deadline); 0 when attempts ran out
	Reason   string        // "after 3 attempts", "…: waiting 2m0s is over the 1m0s bound"
	Err      error         // the last failure
}

func (e *Error) Error() string { return e.Reason + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Do calls fn until it succeeds, fails in a way classify does not retry, the
// attempts run out, the server asks for a wait over MaxWait or past ctx's
// deadline, or ctx is done while waiting.
func Do(ctx context.Context, p Policy, classify Classify, fn func(ctx context.Context) error) error {
	attempts, base, maxWait, sleep := p.Attempts, p.Base, p.MaxWait, p.Sleep
	if attempts <= 0 {
		attempts = DefaultAttempts
	}
	if base <= 0 {
		base = DefaultBase
	}
	if maxWait <= 0 {
		maxWait = DefaultMaxWait
	}
	if sleep == nil {
		sleep = wait.Sleep
	}
	for attempt := 1; ; attempt++ {
		err := fn(ctx)
		if err == nil {
			return nil
		}
		d := classify(err)
		if !d.Retry || ctx.Err() != nil {
			return err
		}
		if attempt >= attempts {
			return &Error{Attempts: attempt, Reason: fmt.Sprintf("after %d attempts", attempt), Err: err}
		}
		w := d.After
		if w <= 0 {
			w = min(base<<min(attempt-1, 20), maxWait)
		}
		if w > maxWait {
			return &Error{Attempts: attempt, Wait: w, Err: err,
				Reason: fmt.Sprintf("after %d attempts (the server asked to wait %v, over the %v bound)", attempt, w, maxWait)}
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < w {
			return &Error{Attempts: attempt, Wait: w, Err: err,
				Reason: fmt.Sprintf("after %d attempts (waiting %v more would pass the deadline)", attempt, w)}
		}
		if p.OnRetry != nil {
			p.OnRetry(attempt, w, err)
		}
		if serr := sleep(ctx, w); serr != nil {
			return fmt.Errorf("stopped waiting %v to retry: %w (after %w)", w, serr, err)
		}
	}
}

// Exhausted reports whether err is a retryable failure that outlasted the
// policy.
func Exhausted(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
