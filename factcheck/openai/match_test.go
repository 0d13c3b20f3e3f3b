package openai

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
)

// oneEarlier is an earlier check of one claim with its vector, visible to
// the asker: Nearest returns it when its cosine to the query is at least
// the minimum.
type oneEarlier struct {
	vec     []float32
	verdict *factcheck.Verdict
}

func (e *oneEarlier) Nearest(_ context.Context, q factcheck.EarlierQuery) ([]factcheck.EarlierClaim, error) {
	var dot, nq, ne float64
	for i := range e.vec {
		dot += float64(e.vec[i]) * float64(q.Vector[i])
		nq += float64(q.Vector[i]) * float64(q.Vector[i])
		ne += float64(e.vec[i]) * float64(e.vec[i])
	}
	sim := dot / math.Sqrt(nq*ne)
	if sim < q.Min {
		return nil, nil
	}
	return []factcheck.EarlierClaim{{CheckID: "c1", CheckedAt: e.verdict.CheckedAt, Similarity: sim, Verdict: e.verdict}}, nil
}

// TestEngineMatchesThroughEmbeddings: the engine, embedding through the
// OpenAI /embeddings wire format, answers a paraphrase and a translation
// of an earlier claim from it without a model call, and researches a twin
// whose number differs though its vector is as close.
func TestEngineMatchesThroughEmbeddings(t *testing.T) {
	const (
		earlier     = "The Eiffel Tower is 330 metres tall"
		paraphrase  = "The Eiffel Tower measures 330 metres in height"
		translation = "La tour Eiffel mesure 330 mètres"
		twin        = "The Eiffel Tower is 300 metres tall"
	)
	srv, _ := embeddingsServer(t, map[string][]float32{
		earlier: {1, 0, 0, 0}, paraphrase: {0.97, 0.2, 0, 0}, translation: {0.96, 0, 0.25, 0}, twin: {0.98, 0, 0, 0.15},
	}, 0)
	e, err := NewEmbedder(EmbedderConfig{Config: Config{BaseURL: srv.URL + "/v1", Model: "nomic-embed-text"}})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	earlierVerdict := &factcheck.Verdict{Claim: earlier, Verdict: factcheck.Supported, Confidence: factcheck.High, Reasoning: "The operator's page gives 330 m.",
		Evidence: []factcheck.Evidence{{SourceURL: "https://example.org/eiffel", QuoteOrSummary: "The tower is 330 metres tall.", QuoteFound: true}}, CheckedAt: at}
	model := &fct.Model{Handle: func(*factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		return nil, errors.New("no research in this test")
	}}
	c := &factcheck.Checker{Model: model, Search: &fct.Searcher{}, Embedder: e, Now: func() time.Time { return at.Add(time.Hour) }}
	for _, claim := range []string{paraphrase, translation} {
		before := model.Calls()
		rep, err := c.Check(context.Background(), factcheck.Input{Tenant: "T1", Text: claim, AsClaim: true, Earlier: &oneEarlier{vec: []float32{1, 0, 0, 0}, verdict: earlierVerdict}})
		if err != nil {
			t.Fatal(err)
		}
		v := rep.Claims[0]
		if model.Calls() != before || v.Match == nil || v.Match.CheckID != "c1" || v.Match.Claim != earlier || !v.Match.CheckedAt.Equal(at) ||
			v.Verdict != factcheck.Supported || len(v.Evidence) != 1 || v.Claim != claim || v.Embedding == nil {
			t.Errorf("%q: %d model calls, verdict %+v; want the earlier verdict, its evidence and the match, with the claim's vector", claim, model.Calls()-before, v)
		}
	}
	before := model.Calls()
	rep, err := c.Check(context.Background(), factcheck.Input{Tenant: "T1", Text: twin, AsClaim: true, Earlier: &oneEarlier{vec: []float32{1, 0, 0, 0}, verdict: earlierVerdict}})
	if err == nil && rep.Claims[0].Match != nil || model.Calls() == before {
		t.Errorf("the twin: %d model calls, match %+v; want it researched", model.Calls()-before, rep.Claims[0].Match)
	}
}
