package factcheck

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/factcheck/guard"
)

// Claim matching: a claim asked again, in other words or another language,
// is answered at once from the earlier check of it. Each new claim is
// embedded (one call for the claims of a check, each text once); the
// nearest earlier claims the asker may see (Input.Earlier, which applies
// the store's visibility rule), within MatchMaxAge and above
// MatchThreshold, are read, and the first whose words agree with the new
// claim's in numbers, dates, negation and names (factcheck/guard) answers.
// A failed or slow embedding costs the match, never the check.

// Embedder turns texts into vectors of one model: gemini.Embedder and
// openai.Embedder.
type Embedder interface {
	// Embed returns one vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// EmbeddingModel names the model and the dimension, e.g.
	// "gemini-embedding-001/256": vectors of different names are never
	// compared.
	EmbeddingModel() string
}

// Earlier finds earlier checks' claims near a vector among those the asker
// may see. The store implements it per request (store.DB.Earlier).
type Earlier interface {
	Nearest(ctx context.Context, q EarlierQuery) ([]EarlierClaim, error)
}

// EarlierQuery asks for the claims nearest Vector of model Model, checked
// at or after Since, with a cosine similarity of at least Min, at most
// Limit, nearest first.
type EarlierQuery struct {
	Model  string
	Vector []float32
	Since  time.Time
	Min    float64
	Limit  int
}

// EarlierClaim is one claim of an earlier check.
type EarlierClaim struct {
	CheckID    string
	CheckedAt  time.Time // when the earlier check was made
	Similarity float64
	Verdict    *Verdict // the earlier verdict, with its evidence
}

// Embedding is a claim's vector and the model that made it.
type Embedding struct {
	Model  string
	Vector []float32 // unit length
}

// Match says which earlier check answered a claim.
type Match struct {
	CheckID    string    `json:"check_id"`
	Claim      string    `json:"claim"`      // the earlier claim's words
	CheckedAt  time.Time `json:"checked_at"` // when it was checked
	Similarity float64   `json:"similarity"`
}

// Matching defaults.
const (
	// DefaultMatchThreshold is the cosine similarity an earlier claim
	// needs (docs/matching.md says how it was chosen).
	DefaultMatchThreshold = 0.85
	DefaultMatchMaxAge    = 168 * time.Hour
	// embedTimeout bounds the embedding call: past it the check goes on
	// without matching.
	embedTimeout = 5 * time.Second
	// matchCandidates bounds the earlier claims read per new claim.
	matchCandidates = 5
)

func (c *Checker) matchThreshold() float64 {
	if c.MatchThreshold > 0 {
		return c.MatchThreshold
	}
	return DefaultMatchThreshold
}

func (c *Checker) matchMaxAge() time.Duration {
	if c.MatchMaxAge > 0 {
		return c.MatchMaxAge
	}
	return DefaultMatchMaxAge
}

// matches reports whether the check embeds its claims: a check whose
// caller keeps them (Input.Earlier), of the claims as given (no as-of
// date, speaker or source, as for the cache).
func (c *Checker) matches(in Input) bool {
	return c.Embedder != nil && in.Earlier != nil && in.AsOf.IsZero() && in.Speaker == "" && in.Source == ""
}

// embedClaims returns each claim's embedding (nil when there is none), in
// one call for the texts not embedded before. A claim the verdict cache
// answers is not embedded (it is answered so, and the check that cached
// it keeps its vector). A failure is logged and leaves them all nil: the
// claims are then checked in full.
func (c *Checker) embedClaims(ctx context.Context, in Input, claims []ExtractedClaim) []*Embedding {
	out := make([]*Embedding, len(claims))
	var texts []string
	var at []int
	for i, cl := range claims {
		if c.Cache != nil && !in.Fresh {
			if _, ok, err := c.Cache.Verdict(ctx, in.Tenant, cl.Claim, c.cacheTTL(), nil); err == nil && ok {
				continue
			}
		}
		texts, at = append(texts, cl.Claim), append(at, i)
	}
	if len(texts) == 0 {
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, embedTimeout)
	defer cancel()
	vecs, err := c.embeddings.embed(ctx, c.Embedder, texts)
	if err != nil {
		slog.WarnContext(ctx, "claim matching: the embedding call failed; the claims are checked in full", "model", c.Embedder.EmbeddingModel(), "err", err)
		return out
	}
	for j, v := range vecs {
		out[at[j]] = &Embedding{Model: c.Embedder.EmbeddingModel(), Vector: v}
	}
	return out
}

// matchEarlier returns the verdict of the earlier check that answers cl,
// or nil.
func (c *Checker) matchEarlier(ctx context.Context, in Input, cl ExtractedClaim, e *Embedding) *Verdict {
	if e == nil || in.Fresh {
		return nil
	}
	found, err := in.Earlier.Nearest(ctx, EarlierQuery{Model: e.Model, Vector: e.Vector, Since: c.now().Add(-c.matchMaxAge()),
		Min: c.matchThreshold(), Limit: matchCandidates})
	if err != nil {
		slog.WarnContext(ctx, "claim matching: the lookup failed; the claim is checked in full", "err", err)
		return nil
	}
	for _, f := range found {
		if f.Verdict == nil || f.Verdict.Error != "" {
			continue
		}
		if ok, _ := guard.Agree(cl.Claim, f.Verdict.Claim); !ok {
			continue
		}
		return answered(cl, f)
	}
	return nil
}

// answered is the earlier verdict f answering the claim cl: the earlier
// verdict, reasoning and evidence, the match naming what was checked and
// when (the first check, when f was itself answered by a match).
func answered(cl ExtractedClaim, f EarlierClaim) *Verdict {
	v := *f.Verdict
	m := &Match{CheckID: f.CheckID, Claim: f.Verdict.Claim, CheckedAt: f.CheckedAt, Similarity: math.Round(f.Similarity*1000) / 1000}
	if f.Verdict.Match != nil {
		first := *f.Verdict.Match
		first.Similarity = m.Similarity
		m = &first
	}
	v.Claim, v.Match, v.Cached = cl.Claim, m, false
	v.Usage, v.Trace, v.Embedding = Usage{}, nil, nil
	return &v
}

// embedCache remembers the vectors of texts embedded before, by model and
// normalised text, so that each text is embedded once (up to its bound).
type embedCache struct {
	mu   sync.Mutex
	vecs map[string][]float32
}

// maxEmbedCache bounds the texts remembered; past it the cache starts over.
const maxEmbedCache = 4096

// embed returns the unit vectors of texts, asking e only for those not
// remembered.
func (ec *embedCache) embed(ctx context.Context, e Embedder, texts []string) ([][]float32, error) {
	model := e.EmbeddingModel()
	key := func(t string) string { return model + "\x00" + strings.Join(strings.Fields(strings.ToLower(t)), " ") }
	out := make([][]float32, len(texts))
	var ask []string
	var at []int
	ec.mu.Lock()
	for i, t := range texts {
		if v, ok := ec.vecs[key(t)]; ok {
			out[i] = v
			continue
		}
		ask, at = append(ask, t), append(at, i)
	}
	ec.mu.Unlock()
	if len(ask) == 0 {
		return out, nil
	}
	vecs, err := e.Embed(ctx, ask)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(ask) {
		return nil, fmt.Errorf("embedding: %d vectors for %d texts", len(vecs), len(ask))
	}
	ec.mu.Lock()
	defer ec.mu.Unlock()
	if ec.vecs == nil || len(ec.vecs)+len(ask) > maxEmbedCache {
		ec.vecs = map[string][]float32{}
	}
	for j, v := range vecs {
		u := unit(v)
		if u == nil {
			return nil, fmt.Errorf("embedding: an empty vector for %q", ask[j])
		}
		out[at[j]] = u
		ec.vecs[key(ask[j])] = u
	}
	return out, nil
}

// unit returns v scaled to length 1, nil for a zero or empty vector.
func unit(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return nil
	}
	n := float32(1 / math.Sqrt(sum))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * n
	}
	return out
}
