package main

import (
	"context"
	"fmt"

	"google.golang.org/genai"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/openai"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/search"
)

// This file turns the configuration (cmd/factbot/config, read once by
// app.config) into the engine's parts.

// newModel builds the configured model provider.
func newModel(ctx context.Context, m config.Model) (factcheck.Model, error) {
	if err := m.Err(); err != nil {
		return nil, err
	}
	if m.Provider == config.LLMOpenAI {
		return openai.New(openai.Config{APIKey: m.OpenAIKey, BaseURL: m.OpenAIBaseURL, Model: m.Name, Images: m.OpenAIImages})
	}
	return gemini.New(ctx, gemini.Config{APIKey: m.GeminiKey, Model: m.Name, BaseURL: m.GeminiBaseURL})
}

// newProviders builds the search providers in failover order. The corpus
// keeps its index in corpusIndex ("" for memory only).
func newProviders(ctx context.Context, cfg *config.Config, corpusIndex string) ([]search.Provider, error) {
	if err := cfg.SearchErr(); err != nil {
		return nil, err
	}
	s := cfg.Search
	var ps []search.Provider
	for _, n := range s.Order {
		switch n {
		case config.SearchTavily:
			ps = append(ps, search.NewTavily(search.TavilyConfig{APIKey: s.TavilyKey, BaseURL: s.TavilyURL}))
		case config.SearchBrave:
			ps = append(ps, search.NewBrave(search.BraveConfig{APIKey: s.BraveKey, BaseURL: s.BraveURL}))
		case config.SearchSearXNG:
			ps = append(ps, search.NewSearXNG(search.SearXNGConfig{BaseURL: s.SearXNGURL}))
		case config.SearchCorpus:
			c, err := search.OpenCorpus(s.CorpusDir, search.CorpusOptions{Index: corpusIndex})
			if err != nil {
				return nil, &usererr.Config{Var: "FACTBOT_CORPUS", Msg: err.Error(), Hint: "a folder of HTML, PDF, Markdown and text files", Err: err}
			}
			ps = append(ps, c)
		case config.SearchGemini:
			c, err := genai.NewClient(ctx, &genai.ClientConfig{APIKey: cfg.Model.GeminiKey, Backend: genai.BackendGeminiAPI,
				HTTPOptions: genai.HTTPOptions{BaseURL: cfg.Model.GeminiBaseURL}})
			if err != nil {
				return nil, fmt.Errorf("gemini search: %w", err)
			}
			ps = append(ps, search.NewGemini(search.GeminiConfig{Client: c}))
		}
	}
	return ps, nil
}

// newChecker builds the engine. db may be nil (no verdict cache, no search
// or page cache).
func newChecker(ctx context.Context, cfg *config.Config, db backend) (*factcheck.Checker, error) {
	model, err := newModel(ctx, cfg.Model)
	if err != nil {
		return nil, err
	}
	providers, err := newProviders(ctx, cfg, corpusIndexFile(cfg, db))
	if err != nil {
		return nil, err
	}
	var fo search.FailoverOptions
	corpus := corpusOf(providers)
	if corpus != nil && len(providers) > 1 {
		fo.MinResults = 1 // the corpus first; the web when it finds nothing
	}
	c := &factcheck.Checker{Model: model, Search: search.NewFailover(providers, fo), CacheTTL: cfg.CacheTTL,
		ExcludeSites: cfg.Search.ExcludeSites, Options: cfg.Engine}
	c.Options.Calibration = cfg.Calibration // loaded and checked with the configuration
	if k := cfg.Search.FactCheckKey; k != "" {
		fc, err := search.NewFactChecks(ctx, search.FactChecksConfig{APIKey: k})
		if err != nil {
			return nil, fmt.Errorf("fact-check search: %w", err)
		}
		c.FactChecks = fc
	}
	useStore(cfg, c, db)
	if corpus != nil {
		c.Reader = &search.CorpusReader{Corpus: corpus, Next: c.Reader}
	}
	return c, nil
}

// corpusIndexFile is where the team corpus keeps its index, never in the
// corpus folder: beside the bbolt database serve holds (kept with it
// across restarts), else in the user's cache folder, else nowhere (in
// memory).
func corpusIndexFile(cfg *config.Config, db backend) string {
	if _, ok := db.(*boltFile); ok {
		return cfg.DB + ".corpus-index.json"
	}
	return search.DefaultCorpusIndex(cfg.Search.CorpusDir)
}

// corpusOf returns the corpus among the providers, nil when there is none.
func corpusOf(ps []search.Provider) *search.Corpus {
	for _, p := range ps {
		if c, ok := p.(*search.Corpus); ok {
			return c
		}
	}
	return nil
}

// caches is what the engine caches in the database.
type caches interface {
	factcheck.Cache
	search.Cache
}

// useStore gives the engine the database as its verdict, search and page
// cache (db may be nil: no caches).
func useStore(cfg *config.Config, c *factcheck.Checker, db caches) {
	ropts := search.ReaderOptions{AllowPrivate: cfg.AllowPrivateFetch}
	if db != nil {
		ropts.Cache = db
		c.Cache = db
		c.Search = search.NewCachedSearcher(c.Search, db, search.CacheOptions{})
		if c.FactChecks != nil {
			c.FactChecks = search.NewCachedFactChecks(c.FactChecks, db, search.CacheOptions{})
		}
	}
	c.Reader = search.NewReader(ropts)
}
