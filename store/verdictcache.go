package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
)

var _ factcheck.Cache = (*DB)(nil)

// CachedVerdict is the verdict cache's record.
type CachedVerdict struct {
	At      time.Time          `json:"at"`
	Verdict *factcheck.Verdict `json:"verdict"`
}

// CachedExtraction is the extraction cache's record.
type CachedExtraction struct {
	At         time.Time             `json:"at"`
	Extraction *factcheck.Extraction `json:"extraction"`
}

// verdictRecord is what the store caches for v, or nil when v is not
// cached: a verdict that could not be made (Error set) or of an empty
// claim. The trace stays with the check that made the verdict. The cache
// time is v.CheckedAt (now if zero), so re-putting a cached verdict does
// not make it fresher.
func verdictRecord(v *factcheck.Verdict, now time.Time) *CachedVerdict {
	if v == nil || v.Error != "" || strings.TrimSpace(v.Claim) == "" {
		return nil
	}
	at := v.CheckedAt
	if at.IsZero() {
		at = now
	}
	c := *v
	c.Cached = false
	c.Trace = nil
	return &CachedVerdict{At: at.UTC(), Verdict: &c}
}

// extractionRecord is what the store caches for the extraction x of text,
// or nil when nothing is cached (no extraction, or an empty text).
func extractionRecord(text string, x *factcheck.Extraction, now time.Time) *CachedExtraction {
	if x == nil || strings.TrimSpace(text) == "" {
		return nil
	}
	return &CachedExtraction{At: now.UTC(), Extraction: x}
}

// Verdict returns the tenant's cached verdict for the claim (matched after
// Normalize) if it was made less than maxAge ago (maxAge <= 0: the
// Options.CacheTTL). The verdict has Cached set and keeps its original
// CheckedAt.
func (db *DB) Verdict(ctx context.Context, tenant, claim string, maxAge time.Duration) (*factcheck.Verdict, bool, error) {
	var e CachedVerdict
	ok, err := db.getCached(ctx, tenant, RefVerdict, claim, maxAge, &e, func() time.Time { return e.At })
	if err != nil || !ok || e.Verdict == nil {
		return nil, false, err
	}
	e.Verdict.Cached = true
	return e.Verdict, true, nil
}

// PutVerdict caches v under its normalised claim, as verdictRecord says.
func (db *DB) PutVerdict(ctx context.Context, tenant string, v *factcheck.Verdict) error {
	rec := verdictRecord(v, db.now())
	if rec == nil {
		return nil
	}
	return db.putCached(ctx, tenant, RefVerdict, v.Claim, rec)
}

// Extraction returns the tenant's cached extraction of text (matched after
// Normalize) if it was made less than maxAge ago (maxAge <= 0: the
// Options.CacheTTL).
func (db *DB) Extraction(ctx context.Context, tenant, text string, maxAge time.Duration) (*factcheck.Extraction, bool, error) {
	var e CachedExtraction
	ok, err := db.getCached(ctx, tenant, RefExtraction, text, maxAge, &e, func() time.Time { return e.At })
	if err != nil || !ok || e.Extraction == nil {
		return nil, false, err
	}
	return e.Extraction, true, nil
}

// PutExtraction caches the extraction of text.
func (db *DB) PutExtraction(ctx context.Context, tenant, text string, x *factcheck.Extraction) error {
	rec := extractionRecord(text, x, db.now())
	if rec == nil {
		return nil
	}
	return db.putCached(ctx, tenant, RefExtraction, text, rec)
}

// getCached reads the tenant's cache entry of text (of kind RefVerdict or
// RefExtraction) into into, and says whether it is younger than maxAge by
// the time at returns.
func (db *DB) getCached(ctx context.Context, tenant, kind, text string, maxAge time.Duration, into any, at func() time.Time) (bool, error) {
	if maxAge <= 0 {
		maxAge = db.ttl
	}
	key := cacheKey(Normalize(text))
	found := false
	err := db.view(ctx, tenant, func(tb *tenantTx) error {
		raw := sub(tb, refBucket[kind]).Get(key)
		if raw == nil {
			return nil
		}
		found = true
		return decode(raw, into)
	})
	if err != nil {
		return false, fmt.Errorf("cache %s: %w", kind, err)
	}
	if !found || db.now().Sub(at()) >= maxAge {
		return false, nil
	}
	record(ctx, kind, key)
	return true, nil
}

// putCached writes the tenant's cache entry e of text.
func (db *DB) putCached(ctx context.Context, tenant, kind, text string, e any) error {
	key := cacheKey(Normalize(text))
	if len(key) == 0 {
		return nil
	}
	err := db.update(ctx, tenant, func(tb *tenantTx) error { return sub(tb, refBucket[kind]).putRecord(key, e) })
	if err != nil {
		return fmt.Errorf("cache %s: %w", kind, err)
	}
	record(ctx, kind, key)
	return nil
}
