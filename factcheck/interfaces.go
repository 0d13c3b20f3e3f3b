package factcheck

import (
	"context"
	"time"

	"github.com/factbot-dev/factbot/search"
)

// Searcher answers web searches. search.Failover and single providers
// wrapped by search.Single satisfy it.
type Searcher interface {
	Search(ctx context.Context, query string, max int) (*search.Response, error)
}

// Reader fetches a page and extracts its main text. It must refuse
// addresses it may not reach and say why in the error.
type Reader interface {
	Read(ctx context.Context, url string) (*search.Page, error)
}

// FactCheckSearcher finds published fact-checks (ClaimReview). Optional.
type FactCheckSearcher interface {
	SearchFactChecks(ctx context.Context, query string, max int) (*search.Response, error)
}

// Cache keeps verdicts and claim extractions per tenant. Optional; the store
// package implements it on bbolt.
type Cache interface {
	// Verdict returns a cached verdict for the claim if one younger than
	// maxAge exists.
	Verdict(ctx context.Context, tenant, claim string, maxAge time.Duration) (*Verdict, bool, error)
	PutVerdict(ctx context.Context, tenant string, v *Verdict) error
	// Extraction returns a cached extraction of the input text.
	Extraction(ctx context.Context, tenant, text string, maxAge time.Duration) (*Extraction, bool, error)
	PutExtraction(ctx context.Context, tenant, text string, x *Extraction) error
}
