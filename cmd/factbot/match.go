package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/openai"
	"github.com/factbot-dev/factbot/store"
)

// Claim matching's wiring (docs/matching.md): the embedder of the model
// provider, and the earlier checks a command's check may be answered from.

// matchOff is how to turn claim matching off, for the messages that say
// why it is off.
const matchOff = "FACTBOT_MATCH=0 turns claim matching off"

// useMatching gives the engine the configured embedder, its threshold and
// window; when the embedding model is unknown, matching stays off and the
// start-up says so on warn.
func useMatching(ctx context.Context, cfg *config.Config, c *factcheck.Checker, warn io.Writer) {
	if !cfg.Match.On {
		return
	}
	e, err := newEmbedder(ctx, cfg)
	if err != nil {
		fmt.Fprintf(warn, "factbot: claim matching is off: %v (%s)\n", err, matchOff)
		return
	}
	c.Embedder, c.MatchThreshold, c.MatchMaxAge = e, cfg.Match.Threshold, cfg.Match.MaxAge
}

// newEmbedder builds the embedder of the configured provider.
func newEmbedder(ctx context.Context, cfg *config.Config) (factcheck.Embedder, error) {
	m := cfg.Model
	if m.Provider == config.LLMOpenAI {
		return openai.NewEmbedder(openai.EmbedderConfig{Config: openai.Config{APIKey: m.OpenAIKey, BaseURL: m.OpenAIBaseURL, Model: cfg.Match.Model}, Dim: cfg.Match.Dim})
	}
	return gemini.NewEmbedder(ctx, gemini.EmbedderConfig{Config: gemini.Config{APIKey: m.GeminiKey, BaseURL: m.GeminiBaseURL, Model: cfg.Match.Model}, Dim: cfg.Match.Dim})
}

// probeEmbedder makes one embedding call at the start of a server: a model
// that embeds nothing (a chat model named as FACTBOT_EMBED_MODEL, a server
// without the endpoint) is named in the log, and matching is turned off.
func probeEmbedder(ctx context.Context, c *factcheck.Checker, log *slog.Logger) {
	if c.Embedder == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := c.Embedder.Embed(ctx, []string{"factbot"}); err != nil {
		log.Warn("claim matching is off: the embedding model answered no vector; set FACTBOT_EMBED_MODEL to a model the provider embeds with, or "+matchOff,
			"model", c.Embedder.EmbeddingModel(), "err", err)
		c.Embedder = nil
	}
}

// writeMatch says, under a claim's verdict, which earlier check answered
// it: what was checked then, and when (nothing when m is nil).
func writeMatch(w io.Writer, m *factcheck.Match) {
	if m == nil {
		return
	}
	fmt.Fprintf(w, "  Checked before, on %s, as “%s” (check %s; --fresh checks it again)\n",
		m.CheckedAt.Local().Format("2006-01-02 15:04"), termText(m.Claim), m.CheckID)
}

// earlierFinder is a database that finds earlier checks (the store).
type earlierFinder interface {
	Earlier(tenant string, a *store.Audience) factcheck.Earlier
}

// earlierIn returns the earlier checks of tenant for a command's check
// (the operator's: every check of the tenant), nil when db finds none. A
// command handed to the process holding the bbolt file runs on its store
// (heldDB), and matches there.
func earlierIn(db any, tenant string) factcheck.Earlier {
	if h, ok := db.(heldDB); ok {
		db = h.backend
	}
	if f, ok := db.(earlierFinder); ok {
		return f.Earlier(tenant, nil)
	}
	return nil
}
