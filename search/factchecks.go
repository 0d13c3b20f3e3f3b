package search

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// DefaultFactChecksURL is the Google Fact Check Tools API's base URL.
const DefaultFactChecksURL = "https://factchecktools.googleapis.com/"

// FactChecksConfig configures the Google Fact Check Tools client.
type FactChecksConfig struct {
	// APIKey is FACTCHECK_API_KEY, or GOOGLE_API_KEY when that is unset.
	APIKey string
	// Endpoint overrides the API's base URL (tests); empty means
	// DefaultFactChecksURL.
	Endpoint string
	// LanguageCode restricts reviews to one language, such as "en";
	// empty means all.
	LanguageCode string
	// MaxAgeDays ignores reviews older than this; 0 means no limit.
	MaxAgeDays int64
	// HTTPClient is used for API calls; nil means a client with a 30 s
	// timeout.
	HTTPClient *http.Client
}

// FactChecks searches published fact-checks (ClaimReview) through the
// Google Fact Check Tools API's one REST call, GET
// v1alpha1/claims:search. It implements the engine's FactCheckSearcher.
type FactChecks struct {
	cfg      FactChecksConfig
	endpoint *url.URL // …/v1alpha1/claims:search
}

// NewFactChecks returns a Fact Check Tools client.
func NewFactChecks(ctx context.Context, cfg FactChecksConfig) (*FactChecks, error) {
	if cfg.APIKey == "" {
		return nil, &ProviderError{Provider: "factcheck", Kind: ErrMisconfigured,
			Msg: "FACTCHECK_API_KEY (or GOOGLE_API_KEY) is not set; create a key with the Fact Check Tools API enabled at https://console.cloud.google.com/apis/credentials"}
	}
	base := cfg.Endpoint
	if base == "" {
		base = DefaultFactChecksURL
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("fact check tools client: endpoint %q is not an absolute URL", base)
	}
	// Resolved as Google's generated clients resolve it: a base without
	// a trailing slash loses its last path segment.
	return &FactChecks{cfg: cfg, endpoint: u.ResolveReference(&url.URL{Path: "v1alpha1/claims:search"})}, nil
}

// The fields of a claims:search answer that are read
// (GoogleFactcheckingFactchecktoolsV1alpha1FactCheckedClaimSearchResponse).
type factCheckAnswer struct {
	Claims []*struct {
		Text        string `json:"text"`
		Claimant    string `json:"claimant"`
		ClaimDate   string `json:"claimDate"`
		ClaimReview []*struct {
			Publisher *struct {
				Name string `json:"name"`
				Site string `json:"site"`
			} `json:"publisher"`
			URL           string `json:"url"`
			Title         string `json:"title"`
			ReviewDate    string `json:"reviewDate"`
			TextualRating string `json:"textualRating"`
		} `json:"claimReview"`
	} `json:"claims"`
}

// Name returns "factcheck".
func (f *FactChecks) Name() string { return "factcheck" }

// SearchFactChecks finds published reviews of claims matching query. Each
// review is one result: its URL and title, the publisher and rating, and
// as snippet the claim reviewed and who made it. The API has no date
// bound but maxAgeDays, relative to today: reviews published after the
// date of the query's Restriction, and reviews on its excluded sites, are
// dropped from the answer.
func (f *FactChecks) SearchFactChecks(ctx context.Context, q Query) (*Response, error) {
	query := strings.TrimSpace(q.Text)
	if query == "" {
		return nil, fmt.Errorf("empty fact-check query")
	}
	max := clampMax(q.Max, DefaultMaxResults, 50)
	out, err := f.search(ctx, query, max)
	if err != nil {
		return nil, err
	}
	var res []Result
	for _, c := range out.Claims {
		if c == nil {
			continue
		}
		snippet := "Claim: " + strings.TrimSpace(c.Text)
		if c.Claimant != "" {
			snippet += " (claimed by " + c.Claimant
			if c.ClaimDate != "" {
				snippet += ", " + dateOnly(c.ClaimDate)
			}
			snippet += ")"
		}
		for _, r := range c.ClaimReview {
			if r == nil || r.URL == "" {
				continue
			}
			pub := ""
			if r.Publisher != nil {
				pub = r.Publisher.Name
				if pub == "" {
					pub = r.Publisher.Site
				}
			}
			title := r.Title
			if title == "" {
				title = c.Text
			}
			res = append(res, Result{
				Title:       title,
				URL:         r.URL,
				Snippet:     snippet,
				Published:   r.ReviewDate,
				PublishedAt: parsePublished(r.ReviewDate),
				Provider:    "factcheck",
				Publisher:   pub,
				Rating:      r.TextualRating,
			})
		}
	}
	res, late, excluded := q.Restriction.Filter(res)
	res = Dedupe(res)
	if len(res) > max {
		res = res[:max]
	}
	return &Response{Query: query, Results: res, Provider: "factcheck", Notes: restrictionNotes("factcheck", late, excluded)}, nil
}

func dateOnly(s string) string {
	if len(s) >= 10 && s[4] == '-' && s[7] == '-' {
		return s[:10]
	}
	return s
}

// search sends one claims:search request, the API key in the
// X-Goog-Api-Key header (not in the URL, where logs and error messages
// would show it).
func (f *FactChecks) search(ctx context.Context, query string, max int) (*factCheckAnswer, error) {
	q := url.Values{"query": {query}, "pageSize": {strconv.Itoa(max)}, "prettyPrint": {"false"}}
	if f.cfg.LanguageCode != "" {
		q.Set("languageCode", f.cfg.LanguageCode)
	}
	if f.cfg.MaxAgeDays > 0 {
		q.Set("maxAgeDays", strconv.FormatInt(f.cfg.MaxAgeDays, 10))
	}
	u := *f.endpoint
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Goog-Api-Key", f.cfg.APIKey)
	var out factCheckAnswer
	if err := doJSONWith(f.cfg.HTTPClient, "factcheck", req, &out, refineGoogleError); err != nil {
		return nil, err
	}
	return &out, nil
}

// refineGoogleError reads the kind of a Google API error from its body,
// {"error": {"code", "message", "status", "details": [ErrorInfo…]}}: a bad
// key, an API not enabled for the key's project, a rate limit.
func refineGoogleError(pe *ProviderError, body []byte, _ http.Header) {
	var e struct {
		Error struct {
			Message string `json:"message"`
			Details []struct {
				Type   string `json:"@type"`
				Reason string `json:"reason"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return
	}
	msg := e.Error.Message
	if pe.Status == http.StatusBadRequest && strings.Contains(msg, "API key not valid") {
		pe.Kind = ErrUnauthorized
	}
	if pe.Status == http.StatusForbidden && strings.Contains(msg, "has not been used") {
		pe.Kind = ErrMisconfigured // the API is not enabled for the key's project
	}
	for _, d := range e.Error.Details {
		if d.Type == "type.googleapis.com/google.rpc.ErrorInfo" && d.Reason == "RATE_LIMIT_EXCEEDED" {
			pe.Kind = ErrRateLimited
		}
	}
}
