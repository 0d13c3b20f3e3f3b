package search

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultBraveURL is Brave Search's API base URL.
const DefaultBraveURL = "https://api.search.brave.com"

// BraveConfig configures the Brave Search provider.
type BraveConfig struct {
	// APIKey is BRAVE_API_KEY, sent as X-Subscription-Token.
	APIKey string
	// BaseURL is FACTBOT_BRAVE_URL; empty means DefaultBraveURL.
	BaseURL string
	// HTTPClient is used for API calls; nil means a client with a 30 s
	// timeout.
	HTTPClient *http.Client
}

// Brave searches with the Brave Search API (GET /res/v1/web/search).
type Brave struct {
	cfg BraveConfig
}

// NewBrave returns a Brave provider.
func NewBrave(cfg BraveConfig) *Brave {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBraveURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &Brave{cfg: cfg}
}

// Name returns "brave".
func (b *Brave) Name() string { return "brave" }

type braveResponse struct {
	Type  string `json:"type"`
	Query struct {
		Original string `json:"original"`
	} `json:"query"`
	Web struct {
		Results []struct {
			Title         string   `json:"title"`
			URL           string   `json:"url"`
			Description   string   `json:"description"`
			Age           string   `json:"age"`
			PageAge       string   `json:"page_age"`
			ExtraSnippets []string `json:"extra_snippets"`
		} `json:"results"`
	} `json:"web"`
}

type braveError struct {
	Error struct {
		Code   string `json:"code"`
		Detail string `json:"detail"`
	} `json:"error"`
}

var tags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<[^>]*>`) })

// plain removes the markup search APIs put in snippets.
func plain(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(tags().ReplaceAllString(s, ""))), " ")
}

// Brave's query limits: 400 characters and 50 words.
const (
	braveMaxQuery = 400
	braveMaxWords = 50
)

// braveEpoch starts the custom freshness range of a restricted search.
const braveEpoch = "1990-01-01"

// Search runs one query. Brave returns at most 20 results. The query's
// Restriction is sent as a custom freshness range ending on its date and as
// -site: terms in the query, as many as Brave's query limits allow.
func (b *Brave) Search(ctx context.Context, sq Query) ([]Result, error) {
	query, max := sq.Text, sq.Max
	if b.cfg.APIKey == "" {
		return nil, &ProviderError{Provider: "brave", Kind: ErrMisconfigured, Msg: "BRAVE_API_KEY is not set (get a key at https://api-dashboard.search.brave.com)"}
	}
	rs := sq.Restriction
	q := url.Values{
		"q":                {rs.siteTerms(query, braveMaxQuery, braveMaxWords)},
		"count":            {strconv.Itoa(clampMax(max, 5, 20))},
		"text_decorations": {"false"},
		"result_filter":    {"web"},
	}
	if !rs.Before.IsZero() {
		q.Set("freshness", braveEpoch+"to"+rs.Before.UTC().Format(time.DateOnly))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.cfg.BaseURL+"/res/v1/web/search?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Subscription-Token", b.cfg.APIKey)
	var out braveResponse
	if err := doJSONWith(b.cfg.HTTPClient, "brave", req, &out, refineBrave); err != nil {
		return nil, err
	}
	res := make([]Result, 0, len(out.Web.Results))
	for _, r := range out.Web.Results {
		if r.URL == "" {
			continue
		}
		snippet := plain(r.Description)
		for _, x := range r.ExtraSnippets {
			if len(snippet) > 600 {
				break
			}
			snippet += " … " + plain(x)
		}
		pub := r.PageAge
		if pub == "" {
			pub = r.Age
		}
		res = append(res, Result{Title: plain(r.Title), URL: r.URL, Snippet: snippet, Published: pub, PublishedAt: parsePublished(pub), Provider: "brave"})
	}
	return res, nil
}

// refineBrave reads Brave's error codes: SUBSCRIPTION_TOKEN_INVALID,
// RATE_LIMITED (per-second), QUOTA_LIMITED (monthly), and the
// X-RateLimit-Reset header ("seconds to per-second reset, seconds to
// monthly reset").
func refineBrave(pe *ProviderError, body []byte, h http.Header) {
	var e braveError
	if json.Unmarshal(body, &e) != nil {
		return
	}
	switch e.Error.Code {
	case "SUBSCRIPTION_TOKEN_INVALID", "SUBSCRIPTION_NOT_FOUND":
		pe.Kind = ErrUnauthorized
	case "RATE_LIMITED":
		pe.Kind = ErrRateLimited
	case "QUOTA_LIMITED":
		pe.Kind = ErrQuota
	}
	if pe.RetryAfter == 0 && pe.Kind != nil {
		resets := strings.Split(h.Get("X-RateLimit-Reset"), ",")
		i := 0
		if pe.Kind == ErrQuota && len(resets) > 1 {
			i = 1
		}
		if n, err := strconv.Atoi(strings.TrimSpace(resets[i])); err == nil && n > 0 {
			pe.RetryAfter = time.Duration(n) * time.Second
		}
	}
}
