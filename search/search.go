// Package search finds and reads web pages for the fact-checking engine:
// search providers behind one interface, and a page reader that extracts the
// main text of a page and refuses to reach addresses it must not.
//
// The package knows nothing of verdicts or chat platforms; the engine in
// package factcheck declares the interfaces it needs and these types satisfy
// them.
package search

import (
	"context"
	"time"
)

// Result is one hit returned by a search provider.
type Result struct {
	Title   string  `json:"title"`
	URL     string  `json:"url"`
	Snippet string  `json:"snippet"`
	Score   float64 `json:"score,omitempty"`
	// Published is the publication date as the provider gave it, and
	// PublishedAt the same date read, zero when absent, relative ("2 days
	// ago") or unreadable.
	Published   string    `json:"published,omitempty"`
	PublishedAt time.Time `json:"published_at,omitzero"`
	// Provider names the provider that returned the result.
	Provider string `json:"provider,omitempty"`
	// Publisher and Rating are set for published fact-checks (ClaimReview).
	Publisher string `json:"publisher,omitempty"`
	Rating    string `json:"rating,omitempty"`
	// ModelWritten says Snippet is text a model wrote about the result
	// (Gemini's grounding), not the source's own words.
	ModelWritten bool `json:"model_written,omitempty"`
}

// Response is the answer to one query.
type Response struct {
	Query   string   `json:"query"`
	Results []Result `json:"results"`
	// Provider names the provider that answered.
	Provider string `json:"provider"`
	// Notes says what happened on the way, such as a provider skipped
	// during its cool-down; it goes into the run's trace.
	Notes []string `json:"notes,omitempty"`
}

// Page is what the reader extracted from one URL.
type Page struct {
	// URL is the address asked for; FinalURL the one after redirects.
	URL      string `json:"url"`
	FinalURL string `json:"final_url"`
	Title    string `json:"title"`
	Site     string `json:"site,omitempty"`
	Byline   string `json:"byline,omitempty"`
	// Published is when the page says it was published, as RFC 3339, or
	// a plain date (2006-01-02) when the page gives no time; empty when
	// unknown. PublishedAt is the same instant, zero when unknown.
	Published   string    `json:"published,omitempty"`
	PublishedAt time.Time `json:"published_at,omitzero"`
	Text        string    `json:"text"`
	// PageCount is how many pages a document with pages (a PDF) has, and
	// Pages the text of each; Text is then the pages' text in order,
	// separated by blank lines. Both are empty for web pages.
	PageCount int        `json:"page_count,omitempty"`
	Pages     []PageText `json:"pages,omitempty"`
	FetchedAt time.Time  `json:"fetched_at"`
	// SHA256 is the hex digest of the body as fetched.
	SHA256 string `json:"sha256"`
	// Bytes is how many bytes of body were read.
	Bytes int `json:"bytes"`
	// Truncated is set when the body was longer than the reader's size
	// cap and only its start was read.
	Truncated bool `json:"truncated,omitempty"`
	// ClaimReview is set when an HTML page declares itself a published
	// fact-check (schema.org ClaimReview, in JSON-LD or microdata): a
	// leak-free check refuses it, whatever its address.
	ClaimReview bool `json:"claim_review,omitempty"`
	// Cached is set when the page came from the page cache, not the site;
	// FetchedAt then says when it was fetched.
	Cached bool `json:"cached,omitempty"`
}

// Query is one search request, the same for every provider and searcher:
// its words, how many results are wanted and the parameters of the check
// it serves. Everything a search depends on is in it; nothing is read
// from the context but cancellation and deadlines.
type Query struct {
	// Text is the query's words.
	Text string
	// Max is how many results are wanted; <= 0 means DefaultMaxResults.
	Max int
	// Restriction narrows the search: nothing published after its date,
	// nothing from its excluded sites. The zero value restricts nothing.
	Restriction Restriction
	// Claim names the claim a claim-keyed source serves (the knowledge
	// store: its index in the dataset); "" for the web.
	Claim string
	// Recorder is told of the cache records the search reads or writes
	// (see Cache); nil records nothing.
	Recorder Recorder
}

// PageRequest is one page read with the parameters of the check it
// serves, as Query is for a search. The web reader needs only the URL;
// the knowledge store reads the claim's own copy, dated by the
// restriction.
type PageRequest struct {
	URL         string
	Restriction Restriction
	Claim       string
	// Recorder is told of the cache records the read reads or writes.
	Recorder Recorder
}

// Provider is one web search backend.
type Provider interface {
	// Name is a short lowercase name such as "tavily".
	Name() string
	Search(ctx context.Context, q Query) ([]Result, error)
}
