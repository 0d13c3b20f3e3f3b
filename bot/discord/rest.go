package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// DefaultAPIURL is Discord's REST base URL as discordgo builds it.
var DefaultAPIURL = discordgo.EndpointAPI

// rebase is an http.RoundTripper that sends requests for discordgo's REST
// base (https://discord.com/api/v9/) to another base URL. discordgo keeps
// its endpoints in package variables; rewriting per session keeps them
// untouched, so sessions pointed at different servers can coexist.
type rebase struct {
	from, to string
	next     http.RoundTripper
}

func (rb rebase) RoundTrip(r *http.Request) (*http.Response, error) {
	u := r.URL.String()
	if !strings.HasPrefix(u, rb.from) {
		return rb.next.RoundTrip(r)
	}
	nr := r.Clone(r.Context())
	nu, err := r.URL.Parse(rb.to + strings.TrimPrefix(u, rb.from))
	if err != nil {
		return nil, fmt.Errorf("discord: rebase %s: %w", u, err)
	}
	nr.URL, nr.Host = nu, ""
	return rb.next.RoundTrip(nr)
}

// retrier calls the REST API with a bounded number of retries on 429:
// discordgo's own 429 handling (ShouldRetryOnRateLimit) retries without
// bound, so it is switched off and the wait is done here, honouring
// retry_after. discordgo's buckets still pace requests using the
// X-RateLimit-* headers, and it retries 502s up to MaxRestRetries.
type retrier struct {
	max     int
	maxWait time.Duration
	sleep   func(ctx context.Context, d time.Duration) error
	onRetry func(wait time.Duration) // optional, for tests and metrics
}

// ErrRateLimited is wrapped when Discord kept answering 429 after the
// allowed retries, or asked to wait longer than the configured bound.
var ErrRateLimited = errors.New("discord: rate limited")

func (rt *retrier) do(ctx context.Context, f func(opts ...discordgo.RequestOption) error) error {
	opts := []discordgo.RequestOption{discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false)}
	for attempt := 0; ; attempt++ {
		err := f(opts...)
		var rl *discordgo.RateLimitError
		if !errors.As(err, &rl) {
			return err
		}
		wait := rl.RetryAfter
		if attempt >= rt.max || wait > rt.maxWait {
			return fmt.Errorf("%w after %d attempts (retry after %v): %v", ErrRateLimited, attempt+1, wait, err)
		}
		if rt.onRetry != nil {
			rt.onRetry(wait)
		}
		if err := rt.sleep(ctx, wait); err != nil {
			return err
		}
	}
}
