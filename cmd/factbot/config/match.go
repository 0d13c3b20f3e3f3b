package config

import (
	"fmt"
	"strconv"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/openai"
	"github.com/factbot-dev/factbot/internal/usererr"
)

// Match is claim matching's configuration (docs/matching.md).
type Match struct {
	// On is FACTBOT_MATCH (default on).
	On bool
	// Model is FACTBOT_EMBED_MODEL: the embedding model; empty means the
	// provider's default (EmbedModelName).
	Model string
	// Dim is FACTBOT_EMBED_DIM, the vectors' dimension.
	Dim int
	// Threshold is FACTBOT_MATCH_THRESHOLD, the cosine similarity needed.
	Threshold float64
	// MaxAge is FACTBOT_MATCH_MAX_AGE: how old an earlier check may be.
	MaxAge time.Duration
}

// DefaultEmbedDim is the vectors' dimension: 128 components of 4 bits,
// 65 bytes a claim in the store.
const DefaultEmbedDim = 128

// EmbedModelName is the embedding model that will be asked: FACTBOT_EMBED_MODEL
// or the provider's default ("" for an OpenAI-compatible server other
// than the hosted API, which has none).
func (c *Config) EmbedModelName() string {
	switch {
	case c.Match.Model != "":
		return c.Match.Model
	case c.Model.Provider == LLMGemini:
		return gemini.DefaultEmbeddingModel
	case hostedOpenAI(c.Model.OpenAIBaseURL):
		return openai.DefaultEmbeddingModel
	}
	return ""
}

func matchVars() []Var {
	return []Var{
		{Name: "FACTBOT_MATCH", Default: "1",
			Doc: "`0` turns claim matching off: a claim checked before in the workspace, server or CLI, in other words or another language, is then researched again instead of answered at once from the earlier check the asker may see (see [Claim matching](matching.md))",
			parse: func(c *Config, s string) error {
				switch s {
				case "", "1":
					c.Match.On = true
				case "0":
					c.Match.On = false
				default:
					return &usererr.Config{Var: "FACTBOT_MATCH", Msg: fmt.Sprintf("%q is neither 1 nor 0", s), Hint: "0 turns claim matching off; leave it unset otherwise"}
				}
				return nil
			}},
		{Name: "FACTBOT_EMBED_MODEL", Default: gemini.DefaultEmbeddingModel + " (Gemini), " + openai.DefaultEmbeddingModel + " (the hosted OpenAI API)",
			Doc:       "the embedding model of claim matching, through the model provider; another OpenAI-compatible server has no default (e.g. `nomic-embed-text` on Ollama), and matching is off until it is set",
			parse:     func(c *Config, s string) error { c.Match.Model = s; return nil },
			effective: func(c *Config) string { return or(c.EmbedModelName(), "none: matching is off") }},
		{Name: "FACTBOT_EMBED_DIM", Default: strconv.Itoa(DefaultEmbedDim),
			Doc:   "the dimension of the claims' vectors (kept at 4 bits a component: half this many bytes a claim in the database, and one more)",
			parse: positive("FACTBOT_EMBED_DIM", DefaultEmbedDim, "e.g. 128; Gemini's embedding models take 128 to 3072", func(c *Config) *int { return &c.Match.Dim })},
		{Name: "FACTBOT_MATCH_THRESHOLD", Default: strconv.FormatFloat(factcheck.DefaultMatchThreshold, 'g', -1, 64),
			Doc:   "the cosine similarity an earlier claim needs to answer a new one (it must also agree in numbers, dates, negation and names); see [how the default was chosen](matching.md#the-threshold)",
			parse: parseThreshold},
		{Name: "FACTBOT_MATCH_MAX_AGE", Default: FormatDuration(factcheck.DefaultMatchMaxAge),
			Doc:   "how old an earlier check may be to answer a new claim (`30d` works too)",
			parse: age("FACTBOT_MATCH_MAX_AGE", factcheck.DefaultMatchMaxAge, 1, "is not a positive duration", "e.g. 168h or 30d", func(c *Config) *time.Duration { return &c.Match.MaxAge })},
	}
}

func parseThreshold(c *Config, s string) error {
	c.Match.Threshold = factcheck.DefaultMatchThreshold
	if s == "" {
		return nil
	}
	t, err := strconv.ParseFloat(s, 64)
	if err != nil || t <= 0 || t > 1 {
		return &usererr.Config{Var: "FACTBOT_MATCH_THRESHOLD", Msg: fmt.Sprintf("%q is not a number above 0 and at most 1", s), Hint: "a cosine similarity, e.g. 0.85"}
	}
	c.Match.Threshold = t
	return nil
}
