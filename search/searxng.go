package search

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// SearXNGConfig configures a self-hosted SearXNG instance.
type SearXNGConfig struct {
	// BaseURL is SEARXNG_URL, such as "http://searx.internal:8080".
	BaseURL string
	// HTTPClient is used for API calls; nil means a client with a 30 s
	// timeout.
	HTTPClient *http.Client
}

// SearXNG searches through a SearXNG instance's JSON API
// (GET /search?format=json). The instance must list "json" in
// search.formats of its settings.yml.
type SearXNG struct {
	cfg SearXNGConfig
}

// NewSearXNG returns a SearXNG provider.
func NewSearXNG(cfg SearXNGConfig) *SearXNG {
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &SearXNG{cfg: cfg}
}

// Name returns "searxng".
func (s *SearXNG) Name() string { return "searxng" }

type searxngResponse struct {
	Query           string `json:"query"`
	NumberOfResults int    `json:"number_of_results"`
	Results         []struct {
		URL           string   `json:"url"`
		Title         string   `json:"title"`
		Content       string   `json:"content"`
		Engine        string   `json:"engine"`
		Engines       []string `json:"engines"`
		Score         float64  `json:"score"`
		Category      string   `json:"category"`
		PublishedDate *string  `json:"publishedDate"`
	} `json:"results"`
	UnresponsiveEngines [][]string `json:"unresponsive_engines"`
}

// searxngMaxQuery bounds a query with -site: terms added.
const searxngMaxQuery = 1000

// Search runs one query. SearXNG has no result count parameter; the
// first page is cut to max. Excluded sites of the query's Restriction become
// -site: terms in the query (engines that do not understand them ignore
// them). Its date cannot be sent: SearXNG's time_range is relative to
// today (day, month, year), so a restricted search relies on the filter
// of Failover and the engine, which drop results dated
// later; results without a date pass.
func (s *SearXNG) Search(ctx context.Context, sq Query) ([]Result, error) {
	query, max := sq.Text, sq.Max
	if s.cfg.BaseURL == "" {
		return nil, &ProviderError{Provider: "searxng", Kind: ErrMisconfigured, Msg: "SEARXNG_URL is not set"}
	}
	q := url.Values{"q": {sq.Restriction.siteTerms(query, searxngMaxQuery, 0)}, "format": {"json"}, "pageno": {"1"}, "categories": {"general"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.cfg.BaseURL+"/search?"+q.Encode(), nil)
	if err != nil {
		return nil, &ProviderError{Provider: "searxng", Msg: fmt.Sprintf("SEARXNG_URL %q is not a valid URL", s.cfg.BaseURL)}
	}
	var out searxngResponse
	err = doJSONWith(s.cfg.HTTPClient, "searxng", req, &out, func(pe *ProviderError, _ []byte, _ http.Header) {
		if pe.Status == http.StatusForbidden {
			pe.Kind = ErrMisconfigured
			pe.Msg = `the instance does not serve JSON; add "json" to search.formats in its settings.yml`
		}
	})
	if err != nil {
		return nil, err
	}
	max = clampMax(max, 5, 50)
	var res []Result
	for _, r := range out.Results {
		if r.URL == "" {
			continue
		}
		pub := ""
		if r.PublishedDate != nil {
			pub = *r.PublishedDate
		}
		res = append(res, Result{Title: plain(r.Title), URL: r.URL, Snippet: plain(r.Content), Score: r.Score, Published: pub, PublishedAt: parsePublished(pub), Provider: "searxng"})
		if len(res) == max {
			break
		}
	}
	if len(res) == 0 && len(out.UnresponsiveEngines) > 0 {
		var why []string
		for _, e := range out.UnresponsiveEngines {
			why = append(why, strings.Join(e, ": "))
		}
		return nil, &ProviderError{Provider: "searxng", Kind: ErrUnavailable, Msg: "no engine answered (" + strings.Join(why, ", ") + ")"}
	}
	return res, nil
}
