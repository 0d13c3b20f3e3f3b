package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/internal/retry"
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
// bound, so it is switched off and the wait is done here with retry.Do,
// honouring retry_after up to maxWait. discordgo's buckets still pace
// requests using the X-RateLimit-* headers, and it retries 502s up to
// MaxRestRetries.
type retrier struct {
	max     int
	maxWait time.Duration
	sleep   func(ctx context.Context, d time.Duration) error
	timeout time.Duration // of one attempt
}

// ErrRateLimited is wrapped when Discord kept answering 429 after the
// allowed retries, or asked to wait longer than the configured bound.
var ErrRateLimited = errors.New("discord: rate limited")

func (rt *retrier) do(ctx context.Context, f func(opts ...discordgo.RequestOption) error) error {
	p := retry.Policy{Attempts: rt.max + 1, MaxWait: rt.maxWait, Sleep: rt.sleep}
	err := retry.Do(ctx, p, rateLimited, func(ctx context.Context) error {
		if rt.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, rt.timeout)
			defer cancel()
		}
		return f(discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false))
	})
	if retry.Exhausted(err) {
		return fmt.Errorf("%w: %w", ErrRateLimited, err)
	}
	return err
}

// rateLimited retries Discord's 429s, after the retry_after they carry.
func rateLimited(err error) retry.Decision {
	var rl *discordgo.RateLimitError
	if !errors.As(err, &rl) {
		return retry.Decision{}
	}
	return retry.Decision{Retry: true, After: rl.RetryAfter}
}
