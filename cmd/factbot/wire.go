package main

import (
	"context"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/openai"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

// This file turns the configuration table (README, "Configuration") into
// the engine's parts. It is the only place that reads those variables.

// geminiKey returns the Gemini key from GEMINI_API_KEY or GOOGLE_API_KEY.
func geminiKey(a *app) string {
	if k := a.getenv("GEMINI_API_KEY"); k != "" {
		return k
	}
	return a.getenv("GOOGLE_API_KEY")
}

// newModel builds the model provider named by FACTBOT_LLM.
func newModel(ctx context.Context, a *app) (factcheck.Model, error) {
	name := a.getenv("FACTBOT_MODEL")
	switch llm := strings.ToLower(strings.TrimSpace(a.getenv("FACTBOT_LLM"))); llm {
	case "", "gemini":
		return gemini.New(ctx, gemini.Config{APIKey: geminiKey(a), Model: name})
	case "openai":
		if name == "" {
			return nil, &usererr.Config{Var: "FACTBOT_MODEL", Msg: "not set", Hint: "with FACTBOT_LLM=openai, name the model, e.g. gpt-4.1-mini or qwen3:8b for Ollama"}
		}
		return openai.New(openai.Config{APIKey: a.getenv("OPENAI_API_KEY"), BaseURL: a.getenv("OPENAI_BASE_URL"), Model: name})
	default:
		return nil, &usererr.Config{Var: "FACTBOT_LLM", Msg: fmt.Sprintf("unknown provider %q", llm), Hint: "use gemini (the default) or openai"}
	}
}

// newProviders builds the search providers in FACTBOT_SEARCH order; by
// default every configured one, and Google Search through Gemini when
// none is configured.
func newProviders(a *app) ([]search.Provider, error) {
	avail := map[string]func() (search.Provider, error){
		"tavily": func() (search.Provider, error) {
			k := a.getenv("TAVILY_API_KEY")
			if k == "" {
				return nil, &usererr.Config{Var: "TAVILY_API_KEY", Msg: "not set", Hint: "get a key at https://app.tavily.com"}
			}
			return search.NewTavily(search.TavilyConfig{APIKey: k, BaseURL: a.getenv("FACTBOT_TAVILY_URL")}), nil
		},
		"brave": func() (search.Provider, error) {
			k := a.getenv("BRAVE_API_KEY")
			if k == "" {
				return nil, &usererr.Config{Var: "BRAVE_API_KEY", Msg: "not set", Hint: "get a key at https://brave.com/search/api/"}
			}
			return search.NewBrave(search.BraveConfig{APIKey: k, BaseURL: a.getenv("FACTBOT_BRAVE_URL")}), nil
		},
		"searxng": func() (search.Provider, error) {
			u := a.getenv("SEARXNG_URL")
			if u == "" {
				return nil, &usererr.Config{Var: "SEARXNG_URL", Msg: "not set", Hint: "the base URL of your SearXNG instance, with the json format enabled"}
			}
			return search.NewSearXNG(search.SearXNGConfig{BaseURL: u}), nil
		},
		"gemini": func() (search.Provider, error) {
			k := geminiKey(a)
			if k == "" {
				return nil, &usererr.Config{Var: "GEMINI_API_KEY", Msg: "not set", Hint: "Google Search through Gemini needs a Gemini key: https://aistudio.google.com/apikey"}
			}
			c, err := genai.NewClient(context.Background(), &genai.ClientConfig{APIKey: k, Backend: genai.BackendGeminiAPI})
			if err != nil {
				return nil, fmt.Errorf("gemini search: %w", err)
			}
			return search.NewGemini(search.GeminiConfig{Client: c}), nil
		},
	}
	var names []string
	if order := strings.TrimSpace(a.getenv("FACTBOT_SEARCH")); order != "" {
		for _, n := range strings.Split(order, ",") {
			if n = strings.ToLower(strings.TrimSpace(n)); n != "" {
				names = append(names, n)
			}
		}
	} else {
		for _, n := range []string{"tavily", "brave", "searxng"} {
			if p, err := avail[n](); err == nil && p != nil {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			names = []string{"gemini"}
		}
	}
	var ps []search.Provider
	for _, n := range names {
		mk, ok := avail[n]
		if !ok {
			return nil, &usererr.Config{Var: "FACTBOT_SEARCH", Msg: fmt.Sprintf("unknown provider %q", n), Hint: "use a comma-separated list of tavily, brave, searxng, gemini"}
		}
		p, err := mk()
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// newChecker builds the engine from the environment. db may be nil (no
// verdict cache, no search or page cache).
func newChecker(ctx context.Context, a *app, db *store.DB) (*factcheck.Checker, error) {
	model, err := newModel(ctx, a)
	if err != nil {
		return nil, err
	}
	providers, err := newProviders(a)
	if err != nil {
		return nil, err
	}
	c := &factcheck.Checker{Model: model, Search: search.NewFailover(providers, search.FailoverOptions{})}
	if ttl := a.getenv("FACTBOT_CACHE_TTL"); ttl != "" {
		d, err := parseAge(ttl)
		if err != nil || d <= 0 {
			return nil, &usererr.Config{Var: "FACTBOT_CACHE_TTL", Msg: fmt.Sprintf("%q is not a duration", ttl), Hint: "e.g. 168h or 7d"}
		}
		c.CacheTTL = d
	}
	if k := a.getenv("FACTCHECK_API_KEY"); k != "" || a.getenv("GOOGLE_API_KEY") != "" {
		if k == "" {
			k = a.getenv("GOOGLE_API_KEY")
		}
		fc, err := search.NewFactChecks(ctx, search.FactChecksConfig{APIKey: k})
		if err != nil {
			return nil, fmt.Errorf("fact-check search: %w", err)
		}
		c.FactChecks = fc
	}
	useStore(a, c, db)
	return c, nil
}

// useStore gives the engine the database as its verdict, search and page
// cache (db may be nil: no caches).
func useStore(a *app, c *factcheck.Checker, db *store.DB) {
	ropts := search.ReaderOptions{AllowPrivate: a.getenv("FACTBOT_ALLOW_PRIVATE_FETCH") == "1"}
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
