package search

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"google.golang.org/genai"

	"github.com/factbot-dev/factbot/internal/retry"
)

// DefaultGeminiSearchModel is the model asked to search when none is set.
const DefaultGeminiSearchModel = "gemini-flash-latest"

// GroundingRedirectHost serves the redirect links Gemini grounding returns.
const GroundingRedirectHost = "vertexaisearch.cloud.google.com"

// GeminiConfig configures Google Search through Gemini grounding.
type GeminiConfig struct {
	// Client is the genai client (GEMINI_API_KEY / GOOGLE_API_KEY,
	// GOOGLE_GEMINI_BASE_URL are the SDK's own settings).
	Client *genai.Client
	// Model is the model that runs the search; empty means
	// DefaultGeminiSearchModel.
	Model string
	// HTTPClient resolves grounding redirect links; nil means a client
	// with a 10 s timeout. Its CheckRedirect is not used: only the first
	// Location of each link is read, never the target page.
	HTTPClient *http.Client
	// RedirectHosts are the hosts whose links are resolved; nil means
	// GroundingRedirectHost only. Links to other hosts are kept as given.
	RedirectHosts []string
}

// Gemini searches Google through Gemini's built-in google_search tool and
// returns the grounding sources as results, with their redirect links
// resolved to the real page URLs.
type Gemini struct {
	cfg    GeminiConfig
	client *http.Client
}

// NewGemini returns a Gemini grounding provider.
func NewGemini(cfg GeminiConfig) *Gemini {
	if cfg.Model == "" {
		cfg.Model = DefaultGeminiSearchModel
	}
	if cfg.RedirectHosts == nil {
		cfg.RedirectHosts = []string{GroundingRedirectHost}
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	c := *hc
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Gemini{cfg: cfg, client: &c}
}

// Name returns "gemini", the name FACTBOT_SEARCH uses for Google Search
// through Gemini.
func (g *Gemini) Name() string { return "gemini" }

// Search asks the model to search for query and returns the sources it
// grounded its answer on; the snippets are the parts of the answer each
// source supports.
func (g *Gemini) Search(ctx context.Context, sq Query) ([]Result, error) {
	query, max := sq.Text, sq.Max
	if g.cfg.Client == nil {
		return nil, &ProviderError{Provider: "gemini", Kind: ErrMisconfigured, Msg: "no Gemini client (set GEMINI_API_KEY)"}
	}
	max = clampMax(max, 5, 20)
	temp := float32(0)
	prompt := "Search the web for: " + query + "\n\nReport briefly, source by source, what the sources you find say about it. Do not give your own opinion."
	resp, err := g.cfg.Client.Models.GenerateContent(ctx, g.cfg.Model, genai.Text(prompt), &genai.GenerateContentConfig{
		Temperature: &temp,
		Tools:       []*genai.Tool{{GoogleSearch: &genai.GoogleSearch{}}},
	})
	if err != nil {
		return nil, geminiError(err)
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0].GroundingMetadata == nil {
		return nil, nil // the model answered without searching: no sources
	}
	gm := resp.Candidates[0].GroundingMetadata
	snippets := make([][]string, len(gm.GroundingChunks))
	for _, s := range gm.GroundingSupports {
		if s == nil || s.Segment == nil || strings.TrimSpace(s.Segment.Text) == "" {
			continue
		}
		for _, i := range s.GroundingChunkIndices {
			if int(i) >= 0 && int(i) < len(snippets) {
				snippets[i] = append(snippets[i], strings.TrimSpace(s.Segment.Text))
			}
		}
	}
	var res []Result
	for i, c := range gm.GroundingChunks {
		if c == nil || c.Web == nil || c.Web.URI == "" {
			continue
		}
		res = append(res, Result{
			Title:    c.Web.Title,
			URL:      c.Web.URI,
			Snippet:  clip(strings.Join(snippets[i], " … "), 600),
			Provider: "gemini",
			// The segments are the model's answer, not the page's words.
			ModelWritten: true,
		})
	}
	res = g.resolveAll(ctx, res)
	if len(res) == 0 && len(gm.GroundingChunks) > 0 {
		return nil, &ProviderError{Provider: "gemini", Kind: ErrUnavailable, Msg: "none of the grounding links could be resolved to a page address"}
	}
	if len(res) > max {
		res = res[:max]
	}
	return res, nil
}

// resolveAll replaces redirect links by their targets, concurrently;
// results whose link cannot be resolved are dropped, since a redirect link
// is no evidence a reader can check.
func (g *Gemini) resolveAll(ctx context.Context, res []Result) []Result {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	ok := make([]bool, len(res))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			u, err := g.resolve(ctx, res[i].URL)
			if err == nil {
				res[i].URL = u
				ok[i] = true
			}
		}()
	}
	wg.Wait()
	out := res[:0]
	for i, r := range res {
		if ok[i] {
			out = append(out, r)
		}
	}
	return out
}

func (g *Gemini) isRedirectHost(u *url.URL) bool {
	for _, h := range g.cfg.RedirectHosts {
		if strings.EqualFold(u.Host, h) || strings.EqualFold(u.Hostname(), h) {
			return true
		}
	}
	return false
}

// resolve follows a grounding redirect link (up to three hops on redirect
// hosts) without reading any body, and returns the target address.
func (g *Gemini) resolve(ctx context.Context, link string) (string, error) {
	u, err := url.Parse(link)
	if err != nil {
		return "", err
	}
	for hop := 0; hop < 3 && g.isRedirectHost(u); hop++ {
		loc, err := g.location(ctx, http.MethodHead, u)
		if errors.Is(err, errNoRedirect) {
			loc, err = g.location(ctx, http.MethodGet, u) // some servers refuse HEAD
		}
		if err != nil {
			return "", err
		}
		u = loc
	}
	if g.isRedirectHost(u) {
		return "", fmt.Errorf("%s: still a redirect link after three hops", link)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("%s: redirects to a non-web address", link)
	}
	return u.String(), nil
}

var errNoRedirect = errors.New("not a redirect")

func (g *Gemini) location(ctx context.Context, method string, u *url.URL) (*url.URL, error) {
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", UserAgent)
	resp, err := g.client.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close() // the body is never read
	loc := resp.Header.Get("Location")
	if resp.StatusCode < 300 || resp.StatusCode > 399 || loc == "" {
		return nil, fmt.Errorf("%s: HTTP %d: %w", u, resp.StatusCode, errNoRedirect)
	}
	return u.Parse(loc)
}

// geminiError maps a genai API error to a ProviderError.
func geminiError(err error) error {
	var ae genai.APIError
	if !errors.As(err, &ae) {
		var pae *genai.APIError
		if !errors.As(err, &pae) {
			return &ProviderError{Provider: "gemini", Kind: ErrUnavailable, Msg: err.Error()}
		}
		ae = *pae
	}
	pe := &ProviderError{Provider: "gemini", Status: ae.Code, Kind: kindForStatus(ae.Code), Msg: clip(ae.Message, 300)}
	if ae.Code == http.StatusBadRequest && strings.Contains(ae.Message, "API key not valid") {
		pe.Kind = ErrUnauthorized
	}
	if ae.Code == http.StatusNotFound {
		pe.Kind = ErrMisconfigured
	}
	if d, ok := retry.AfterRetryInfo(ae.Details); ok {
		pe.RetryAfter = d
	}
	for _, d := range ae.Details {
		switch d["@type"] {
		case "type.googleapis.com/google.rpc.QuotaFailure":
			if vs, ok := d["violations"].([]any); ok {
				for _, v := range vs {
					if m, ok := v.(map[string]any); ok {
						if id, _ := m["quotaId"].(string); strings.Contains(id, "PerDay") {
							pe.Kind = ErrQuota
						}
					}
				}
			}
		}
	}
	return pe
}
