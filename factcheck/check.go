package factcheck

import (
	"context"
	"time"
)

// EventKind names a progress event.
type EventKind string

const (
	EventClaims  EventKind = "claims"  // claims found in the input
	EventSearch  EventKind = "search"  // a search query sent
	EventRead    EventKind = "read"    // a page read
	EventVerdict EventKind = "verdict" // a claim's verdict (also for cached ones)
	EventNote    EventKind = "note"    // anything else worth showing, e.g. a budget reached
)

// Event reports progress while a check runs.
type Event struct {
	Kind EventKind
	// Claim is the index of the claim the event is about, -1 for the input.
	Claim int
	// Text is the query, the URL or the note.
	Text    string
	Claims  []ExtractedClaim // EventClaims
	Verdict *Verdict         // EventVerdict
}

// Input is one request to check text.
type Input struct {
	// Tenant scopes the cache: the Slack team, Discord guild, or "cli".
	Tenant string
	Text   string
	// Fresh ignores cached verdicts and extractions (they are still updated).
	Fresh bool
	// Progress, if set, is called as the check advances. Calls are
	// serialised: it is never called from two goroutines at once.
	Progress func(Event)
}

// Checker verifies claims: extraction, then one verification loop per
// claim, concurrently, under budgets.
type Checker struct {
	Model  Model
	Search Searcher
	Reader Reader
	// FactChecks, if set, adds the search_fact_checks tool.
	FactChecks FactCheckSearcher
	// Cache, if set, answers known claims and extractions.
	Cache    Cache
	CacheTTL time.Duration // default 168h

	Budget Budget
	// Concurrency bounds how many claims are verified at once (default 4).
	Concurrency int
	// MaxClaims bounds how many claims of one input are verified (default 8).
	MaxClaims int
	// MaxInput bounds the input's length in bytes (default 8000).
	MaxInput int

	// Now returns the time; tests set it. Default time.Now.
	Now func() time.Time
}

var _ = context.Background
