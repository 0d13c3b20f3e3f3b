package search

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// RefusedError reports a URL the reader would not fetch. Reason says why in
// plain words, so the message can go back to the model as an observation.
type RefusedError struct {
	// URL is the address asked for (or the redirect target refused).
	URL string
	// Reason is a plain sentence such as "10.0.0.1 is a private address".
	Reason string
}

func (e *RefusedError) Error() string { return "refused: " + e.Reason }

// Errors wrapped by *ProviderError, so callers can tell what kind of failure
// a search backend reported with errors.Is.
var (
	// ErrQuota means the provider's plan or credit is spent; retrying soon
	// will not help.
	ErrQuota = errors.New("quota exhausted")
	// ErrRateLimited means the provider asked us to slow down.
	ErrRateLimited = errors.New("rate limited")
	// ErrUnauthorized means the API key is missing, wrong or revoked.
	ErrUnauthorized = errors.New("API key rejected")
	// ErrUnavailable means the provider failed on its side (5xx).
	ErrUnavailable = errors.New("service unavailable")
	// ErrMisconfigured means the provider cannot work as configured: a
	// key or URL is missing, or the service refuses our kind of request.
	ErrMisconfigured = errors.New("not usable as configured")
)

// ProviderError is a failure reported by a search backend.
type ProviderError struct {
	Provider string
	// Status is the HTTP status, 0 if none.
	Status int
	// Kind is one of ErrQuota, ErrRateLimited, ErrUnauthorized,
	// ErrUnavailable, ErrMisconfigured, or nil for other failures.
	Kind error
	// Msg is the provider's own message, if it gave one.
	Msg string
	// RetryAfter is the wait the provider asked for, 0 if none.
	RetryAfter time.Duration
}

func (e *ProviderError) Error() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	b.WriteString(": ")
	if e.Kind != nil {
		b.WriteString(e.Kind.Error())
	} else {
		b.WriteString("request failed")
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d", e.Status)
		if e.Msg != "" {
			b.WriteString(": ")
			b.WriteString(e.Msg)
		}
		b.WriteString(")")
	} else if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, ", retry after %s", e.RetryAfter)
	}
	return b.String()
}

func (e *ProviderError) Unwrap() error { return e.Kind }

// kindForStatus maps an HTTP status to the error kind most providers mean
// by it. Providers with their own conventions adjust the result.
func kindForStatus(status int) error {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ErrUnauthorized
	case status == http.StatusPaymentRequired || status == 432 || status == 433:
		// Tavily: 432 plan limit, 433 pay-as-you-go limit.
		return ErrQuota
	case status == http.StatusTooManyRequests:
		return ErrRateLimited
	case status >= 500:
		return ErrUnavailable
	}
	return nil
}
