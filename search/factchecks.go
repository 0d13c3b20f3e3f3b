package search

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/api/factchecktools/v1alpha1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
)

// FactChecksConfig configures the Google Fact Check Tools client.
type FactChecksConfig struct {
	// APIKey is FACTCHECK_API_KEY, or GOOGLE_API_KEY when that is unset.
	APIKey string
	// Endpoint overrides the API's base URL (tests); empty means Google's.
	Endpoint string
	// LanguageCode restricts reviews to one language, such as "en";
	// empty means all.
	LanguageCode string
	// MaxAgeDays ignores reviews older than this; 0 means no limit.
	MaxAgeDays int64
}

// FactChecks searches published fact-checks (ClaimReview) through the
// Google Fact Check Tools API. It implements the engine's
// FactCheckSearcher.
type FactChecks struct {
	cfg FactChecksConfig
	svc *factchecktools.Service
}

// NewFactChecks returns a Fact Check Tools client.
func NewFactChecks(ctx context.Context, cfg FactChecksConfig) (*FactChecks, error) {
	if cfg.APIKey == "" {
		return nil, &ProviderError{Provider: "factcheck", Kind: ErrMisconfigured,
			Msg: "FACTCHECK_API_KEY (or GOOGLE_API_KEY) is not set; create a key with the Fact Check Tools API enabled at https://console.cloud.google.com/apis/credentials"}
	}
	opts := []option.ClientOption{option.WithAPIKey(cfg.APIKey)}
	if cfg.Endpoint != "" {
		opts = append(opts, option.WithEndpoint(cfg.Endpoint))
	}
	svc, err := factchecktools.NewService(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("fact check tools client: %w", err)
	}
	return &FactChecks{cfg: cfg, svc: svc}, nil
}

// Name returns "factcheck".
func (f *FactChecks) Name() string { return "factcheck" }

// SearchFactChecks finds published reviews of claims matching query. Each
// review is one result: its URL and title, the publisher and rating, and
// as snippet the claim reviewed and who made it. The API has no date
// bound but maxAgeDays, relative to today: reviews published after the
// date of a Restriction on ctx, and reviews on its excluded sites, are
// dropped from the answer.
func (f *FactChecks) SearchFactChecks(ctx context.Context, query string, max int) (*Response, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return nil, fmt.Errorf("empty fact-check query")
	}
	max = clampMax(max, DefaultMaxResults, 50)
	call := f.svc.Claims.Search().Query(query).PageSize(int64(max)).Context(ctx)
	if f.cfg.LanguageCode != "" {
		call = call.LanguageCode(f.cfg.LanguageCode)
	}
	if f.cfg.MaxAgeDays > 0 {
		call = call.MaxAgeDays(f.cfg.MaxAgeDays)
	}
	out, err := call.Do()
	if err != nil {
		return nil, factCheckError(err)
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
			if r == nil || r.Url == "" {
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
				URL:         r.Url,
				Snippet:     snippet,
				Published:   r.ReviewDate,
				PublishedAt: parsePublished(r.ReviewDate),
				Provider:    "factcheck",
				Publisher:   pub,
				Rating:      r.TextualRating,
			})
		}
	}
	res, late, excluded := RestrictionFrom(ctx).Filter(res)
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

func factCheckError(err error) error {
	var ge *googleapi.Error
	if !errors.As(err, &ge) {
		return &ProviderError{Provider: "factcheck", Kind: ErrUnavailable, Msg: unwrapURLError(err).Error()}
	}
	pe := &ProviderError{Provider: "factcheck", Status: ge.Code, Kind: kindForStatus(ge.Code), Msg: clip(ge.Message, 300)}
	if ge.Code == http.StatusBadRequest && strings.Contains(ge.Message, "API key not valid") {
		pe.Kind = ErrUnauthorized
	}
	if ge.Code == http.StatusForbidden && strings.Contains(ge.Message, "has not been used") {
		pe.Kind = ErrMisconfigured // the API is not enabled for the key's project
	}
	for _, d := range ge.Details {
		if m, ok := d.(map[string]any); ok && m["@type"] == "type.googleapis.com/google.rpc.ErrorInfo" && m["reason"] == "RATE_LIMIT_EXCEEDED" {
			pe.Kind = ErrRateLimited
		}
	}
	return pe
}
