// Package download fetches a chat attachment over HTTP: from the hosts
// allowed only (redirects included, so that a credential sent with the
// request never reaches another host), and at most a bounded number of
// bytes.
package download

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// ErrTooLarge is returned for a body over the bound.
var ErrTooLarge = errors.New("download: file too large")

// Request is one download.
type Request struct {
	URL string
	// Origins are the scheme and host (with its port, if any) the URL and
	// every redirect may name, e.g. "https://files.slack.com"; any other
	// is refused before it is contacted.
	Origins []string
	// Header is sent with the request (e.g. a bot token), and so only to
	// Origins.
	Header http.Header
	// Max bounds the body in bytes.
	Max int64
}

// Get downloads r.URL with hc (its Transport and Timeout; redirects are
// checked here).
func Get(ctx context.Context, hc *http.Client, r Request) ([]byte, error) {
	if err := allowed(r.URL, r.Origins); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		return nil, fmt.Errorf("download: %w", err)
	}
	for k, v := range r.Header {
		req.Header[k] = v
	}
	c := *hc
	c.CheckRedirect = func(next *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("download: too many redirects")
		}
		return allowed(next.URL.String(), r.Origins)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("download: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download: %s answered %s", req.URL.Host, resp.Status)
	}
	if resp.ContentLength > r.Max {
		return nil, ErrTooLarge
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, r.Max+1))
	if err != nil {
		return nil, fmt.Errorf("download: %w", err)
	}
	if int64(len(b)) > r.Max {
		return nil, ErrTooLarge
	}
	return b, nil
}

// allowed checks that u is on one of origins.
func allowed(u string, origins []string) error {
	p, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("download: %w", err)
	}
	if p.User != nil || !slices.Contains(origins, Origin(p)) {
		return fmt.Errorf("download: %s://%s is not allowed (only %s)", p.Scheme, p.Host, strings.Join(origins, ", "))
	}
	return nil
}

// Origin is u's scheme and host, in lower case.
func Origin(u *url.URL) string {
	return strings.ToLower(u.Scheme + "://" + u.Host)
}
