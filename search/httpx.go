package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/internal/retry"
)

// maxAPIBody bounds how much of a search API's answer is read.
const maxAPIBody = 4 << 20

// defaultAPIClient is used by providers given no client of their own.
var defaultAPIClient = &http.Client{Timeout: 30 * time.Second}

// doJSON sends req and decodes a 2xx JSON answer into out. Other answers
// become a *ProviderError naming the provider, with the API's own message.
func doJSON(client *http.Client, provider string, req *http.Request, out any) error {
	return doJSONWith(client, provider, req, out, nil)
}

// doJSONWith is doJSON with a hook that refines the error for a non-2xx
// answer from the provider's own error codes.
func doJSONWith(client *http.Client, provider string, req *http.Request, out any, refine func(pe *ProviderError, body []byte, h http.Header)) error {
	if client == nil {
		client = defaultAPIClient
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return fmt.Errorf("%s: %w", provider, ctxErr)
		}
		return &ProviderError{Provider: provider, Kind: ErrUnavailable, Msg: unwrapURLError(err).Error()}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAPIBody))
	if err != nil {
		return &ProviderError{Provider: provider, Status: resp.StatusCode, Kind: ErrUnavailable, Msg: "reading answer: " + err.Error()}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		pe := &ProviderError{
			Provider:   provider,
			Status:     resp.StatusCode,
			Kind:       kindForStatus(resp.StatusCode),
			Msg:        apiMessage(body),
			RetryAfter: retryAfter(resp.Header, time.Now()),
		}
		if refine != nil {
			refine(pe, body, resp.Header)
		}
		return pe
	}
	if err := json.Unmarshal(body, out); err != nil {
		return &ProviderError{Provider: provider, Status: resp.StatusCode, Msg: "answer is not the expected JSON: " + err.Error()}
	}
	return nil
}

func unwrapURLError(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}

// apiMessage pulls a human message out of an error body, whatever shape
// the API uses: {"detail":{"error":…}} (Tavily), {"error":{"detail":…}}
// (Brave), {"error":{"message":…}} (Google), {"error":"…"}, {"message":…},
// or plain text.
func apiMessage(body []byte) string {
	var v any
	if json.Unmarshal(body, &v) == nil {
		if s := findMessage(v, 0); s != "" {
			return clip(s, 300)
		}
	}
	s := strings.TrimSpace(string(body))
	if strings.HasPrefix(s, "<") { // an HTML error page says nothing useful
		return ""
	}
	return clip(strings.Join(strings.Fields(s), " "), 300)
}

func findMessage(v any, depth int) string {
	if depth > 3 {
		return ""
	}
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		for _, k := range []string{"detail", "error", "message", "msg", "description"} {
			if m, ok := x[k]; ok {
				if s := findMessage(m, depth+1); s != "" {
					return s
				}
			}
		}
	}
	return ""
}

// retryAfter is the delay a Retry-After header asks for (seconds or an
// HTTP date), 0 when it names none.
func retryAfter(h http.Header, now time.Time) time.Duration {
	d, _ := retry.AfterHeader(h, now)
	return d
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func jsonBody(ctx context.Context, method, url string, v any) (*http.Request, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// clampMax keeps a requested result count within what a provider allows.
func clampMax(max, def, limit int) int {
	if max <= 0 {
		max = def
	}
	if max > limit {
		max = limit
	}
	return max
}
