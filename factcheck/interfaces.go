package factcheck

import (
	"context"
	"time"

	"github.com/factbot-dev/factbot/search"
)

// Searcher answers web searches. search.Failover (over one provider or
// several) satisfies it. The query carries the check's parameters (its
// restriction, the knowledge store's claim).
type Searcher interface {
	Search(ctx context.Context, q search.Query) (*search.Response, error)
}

// Reader fetches a page and extracts its main text. It must refuse
// addresses it may not reach and say why in the error. The request
// carries the check's parameters, as a search's query does.
type Reader interface {
	ReadPage(ctx context.Context, req search.PageRequest) (*search.Page, error)
}

// FactCheckSearcher finds published fact-checks (ClaimReview). Optional.
type FactCheckSearcher interface {
	SearchFactChecks(ctx context.Context, q search.Query) (*search.Response, error)
}

// Cache keeps verdicts and claim extractions per tenant. Optional; the store
// package implements it on bbolt.
type Cache interface {
	// Verdict returns a cached verdict for the claim if one younger than
	// maxAge exists. Each method tells rec (the check's Input.Recorder,
	// may be nil) of the record it read or wrote.
	Verdict(ctx context.Context, tenant, claim string, maxAge time.Duration, rec search.Recorder) (*Verdict, bool, error)
	PutVerdict(ctx context.Context, tenant string, v *Verdict, rec search.Recorder) error
	// Extraction returns a cached extraction of the input text.
	Extraction(ctx context.Context, tenant, text string, maxAge time.Duration, rec search.Recorder) (*Extraction, bool, error)
	PutExtraction(ctx context.Context, tenant, text string, x *Extraction, rec search.Recorder) error
}
