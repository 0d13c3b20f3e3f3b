package search

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Cache keeps search answers and pages between runs; the store package
// implements it. Freshness is decided here, in package search, from the
// time Get reports.
type Cache interface {
	// Get returns the value stored under bucket/key and when it was
	// stored; ok is false if there is none. A cache that names its
	// records tells rec of the one it read (rec may be nil).
	Get(ctx context.Context, bucket, key string, rec Recorder) (val []byte, stored time.Time, ok bool, err error)
	// Put stores val under bucket/key, stamped with the current time, and
	// tells rec of the records it wrote (rec may be nil).
	Put(ctx context.Context, bucket, key string, val []byte, rec Recorder) error
}

// A Recorder is told of each cache record one request reads or writes,
// by the record's kind and key in the cache's own terms, so that the
// cache's keeper can later name what the request caused (the store's
// CacheRecorder is one, kept with the check it served). A request carries
// its recorder (Query.Recorder, PageRequest.Recorder) down to the cache
// calls it makes; nil is told nothing.
type Recorder interface {
	Record(kind, key string)
}

// Cache buckets and default lifetimes.
const (
	SearchBucket     = "search"
	FactCheckBucket  = "factchecks"
	PageBucket       = "pages"
	DefaultSearchTTL = 24 * time.Hour
	DefaultPageTTL   = 7 * 24 * time.Hour
)

// Searcher answers web searches. It is the shape the engine calls;
// *Failover and *CachedSearcher satisfy it.
type Searcher interface {
	Search(ctx context.Context, q Query) (*Response, error)
}

// FactCheckSearcher finds published fact-checks. *FactChecks and
// *CachedFactChecks satisfy it.
type FactCheckSearcher interface {
	SearchFactChecks(ctx context.Context, q Query) (*Response, error)
}

// CacheOptions configures a cached searcher.
type CacheOptions struct {
	// TTL is how long an answer stays fresh; 0 means DefaultSearchTTL.
	TTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

func (o CacheOptions) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// CachedSearcher answers repeated queries from a Cache. Errors are not
// cached, and a failing cache never fails a search.
type CachedSearcher struct{ cached }

// NewCachedSearcher wraps s with the cache c (bucket SearchBucket).
func NewCachedSearcher(s Searcher, c Cache, opts CacheOptions) *CachedSearcher {
	return &CachedSearcher{newCached(c, SearchBucket, opts, s.Search)}
}

// Search answers from the cache when an answer to the same query and max
// is fresh, and otherwise asks the wrapped searcher and keeps its answer.
func (cs *CachedSearcher) Search(ctx context.Context, q Query) (*Response, error) {
	return cs.answer(ctx, q)
}

// CachedFactChecks answers repeated fact-check queries from a Cache.
type CachedFactChecks struct{ cached }

// NewCachedFactChecks wraps f with the cache c (bucket FactCheckBucket).
func NewCachedFactChecks(f FactCheckSearcher, c Cache, opts CacheOptions) *CachedFactChecks {
	return &CachedFactChecks{newCached(c, FactCheckBucket, opts, f.SearchFactChecks)}
}

// SearchFactChecks is like CachedSearcher.Search for fact-checks.
func (cf *CachedFactChecks) SearchFactChecks(ctx context.Context, q Query) (*Response, error) {
	return cf.answer(ctx, q)
}

// queryKey is a query's key in the cache, normalised (NormQuery).
func queryKey(query string, max int) string { return strconv.Itoa(max) + "\x00" + NormQuery(query) }

// NormQuery normalises a query as the cache keys it: case and spacing do
// not make a different search.
func NormQuery(q string) string { return strings.Join(strings.Fields(strings.ToLower(q)), " ") }

// cached keeps the answers of fetch in one bucket of a Cache; both cached
// searchers are one.
type cached struct {
	c      Cache
	bucket string
	opts   CacheOptions
	fetch  func(context.Context, Query) (*Response, error)
}

func newCached(c Cache, bucket string, opts CacheOptions, fetch func(context.Context, Query) (*Response, error)) cached {
	if opts.TTL <= 0 {
		opts.TTL = DefaultSearchTTL
	}
	return cached{c: c, bucket: bucket, opts: opts, fetch: fetch}
}

func (cd cached) answer(ctx context.Context, q Query) (*Response, error) {
	// A claim-keyed source answers each claim apart.
	key := queryKey(q.Text, q.Max) + q.Restriction.key()
	if q.Claim != "" {
		key += "\x00claim " + q.Claim
	}
	if val, stored, ok, err := cd.c.Get(ctx, cd.bucket, key, q.Recorder); err == nil && ok && cd.opts.now().Sub(stored) < cd.opts.TTL {
		var r Response
		if json.Unmarshal(val, &r) == nil {
			r.Notes = append(r.Notes, "answered from the search cache (stored "+stored.UTC().Format(time.RFC3339)+" by "+r.Provider+")")
			return &r, nil
		}
	}
	r, err := cd.fetch(ctx, q)
	if err != nil {
		return nil, err
	}
	keep := *r
	keep.Notes = nil // notes describe this run, not the answer
	if val, err := json.Marshal(&keep); err == nil {
		_ = cd.c.Put(ctx, cd.bucket, key, val, q.Recorder) // a cache that fails only costs a repeat request
	}
	return r, nil
}
