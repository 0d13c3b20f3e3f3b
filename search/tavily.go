package search

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// DefaultTavilyURL is Tavily's API base URL.
const DefaultTavilyURL = "https://api.tavily.com"

// TavilyConfig configures the Tavily provider.
type TavilyConfig struct {
	// APIKey is TAVILY_API_KEY.
	APIKey string
	// BaseURL is FACTBOT_TAVILY_URL; empty means DefaultTavilyURL.
	BaseURL string
	// Depth is "basic" (default, 1 credit) or "advanced" (2 credits).
	Depth string
	// HTTPClient is used for API calls; nil means a client with a 30 s
	// timeout.
	HTTPClient *http.Client
}

// Tavily searches with the Tavily API (POST /search).
type Tavily struct {
	cfg TavilyConfig
}

// NewTavily returns a Tavily provider.
func NewTavily(cfg TavilyConfig) *Tavily {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultTavilyURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Depth == "" {
		cfg.Depth = "basic"
	}
	return &Tavily{cfg: cfg}
}

// Name returns "tavily".
func (t *Tavily) Name() string { return "tavily" }

type tavilyRequest struct {
	Query             string `json:"query"`
	SearchDepth       string `json:"search_depth"`
	Topic             string `json:"topic"`
	MaxResults        int    `json:"max_results"`
	IncludeAnswer     bool   `json:"include_answer"`
	IncludeRawContent bool   `json:"include_raw_content"`
	IncludeImages     bool   `json:"include_images"`
	// EndDate (YYYY-MM-DD) keeps results published on or before it;
	// ExcludeDomains keeps those sites out.
	EndDate        string   `json:"end_date,omitempty"`
	ExcludeDomains []string `json:"exclude_domains,omitempty"`
}

// tavilyMaxExclude is how many domains Tavily's exclude_domains takes.
const tavilyMaxExclude = 150

type tavilyResponse struct {
	Query   string `json:"query"`
	Results []struct {
		Title         string  `json:"title"`
		URL           string  `json:"url"`
		Content       string  `json:"content"`
		Score         float64 `json:"score"`
		PublishedDate string  `json:"published_date"`
	} `json:"results"`
	ResponseTime float64 `json:"response_time"`
	RequestID    string  `json:"request_id"`
}

// Search runs one query. Tavily returns at most 20 results. The
// query's Restriction is sent as end_date and exclude_domains.
func (t *Tavily) Search(ctx context.Context, sq Query) ([]Result, error) {
	query, max := sq.Text, sq.Max
	if t.cfg.APIKey == "" {
		return nil, &ProviderError{Provider: "tavily", Kind: ErrMisconfigured, Msg: "TAVILY_API_KEY is not set (get a key at https://app.tavily.com)"}
	}
	body := tavilyRequest{
		Query:       query,
		SearchDepth: t.cfg.Depth,
		Topic:       "general",
		MaxResults:  clampMax(max, 5, 20),
	}
	rs := sq.Restriction
	if !rs.Before.IsZero() {
		body.EndDate = rs.Before.UTC().Format(time.DateOnly)
	}
	if len(rs.ExcludeSites) > 0 {
		body.ExcludeDomains = rs.ExcludeSites[:min(len(rs.ExcludeSites), tavilyMaxExclude)]
	}
	req, err := jsonBody(ctx, http.MethodPost, t.cfg.BaseURL+"/search", body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+t.cfg.APIKey)
	var out tavilyResponse
	if err := doJSON(t.cfg.HTTPClient, "tavily", req, &out); err != nil {
		return nil, err
	}
	res := make([]Result, 0, len(out.Results))
	for _, r := range out.Results {
		if r.URL == "" {
			continue
		}
		res = append(res, Result{
			Title:       r.Title,
			URL:         r.URL,
			Snippet:     strings.TrimSpace(r.Content),
			Score:       r.Score,
			Published:   r.PublishedDate,
			PublishedAt: parsePublished(r.PublishedDate),
			Provider:    "tavily",
		})
	}
	return res, nil
}
