package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
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

// Verdict returns the tenant's cached verdict for the claim (matched after
// Normalize) if it was made less than maxAge ago (maxAge <= 0: the
// Options.CacheTTL). The verdict has Cached set and keeps its original
// CheckedAt.
func (db *DB) Verdict(ctx context.Context, tenant, claim string, maxAge time.Duration, rec search.Recorder) (*factcheck.Verdict, bool, error) {
	var e CachedVerdict
	ok, err := db.getCached(ctx, tenant, RefVerdict, claim, maxAge, &e, &e.At, rec)
	if err != nil || !ok || e.Verdict == nil {
		return nil, false, err
	}
	e.Verdict.Cached = true
	return e.Verdict, true, nil
}

// PutVerdict caches v under its normalised claim, unless it could not be
// made (Error set) or its claim is empty. The trace stays with the check
// that made the verdict. The cache time is v.CheckedAt (now if zero), so
// re-putting a cached verdict does not make it fresher.
func (db *DB) PutVerdict(ctx context.Context, tenant string, v *factcheck.Verdict, rec search.Recorder) error {
	if v == nil || v.Error != "" || strings.TrimSpace(v.Claim) == "" {
		return nil
	}
	at := v.CheckedAt
	if at.IsZero() {
		at = db.now()
	}
	c := *v
	c.Cached, c.Trace = false, nil
	return db.putCached(ctx, tenant, RefVerdict, v.Claim, &CachedVerdict{At: at.UTC(), Verdict: &c}, rec)
}

// Extraction returns the tenant's cached extraction of text (matched after
// Normalize) if it was made less than maxAge ago (maxAge <= 0: the
// Options.CacheTTL).
func (db *DB) Extraction(ctx context.Context, tenant, text string, maxAge time.Duration, rec search.Recorder) (*factcheck.Extraction, bool, error) {
	var e CachedExtraction
	ok, err := db.getCached(ctx, tenant, RefExtraction, text, maxAge, &e, &e.At, rec)
	if err != nil || !ok || e.Extraction == nil {
		return nil, false, err
	}
	return e.Extraction, true, nil
}

// PutExtraction caches the extraction of text, unless there is none or the
// text is empty.
func (db *DB) PutExtraction(ctx context.Context, tenant, text string, x *factcheck.Extraction, rec search.Recorder) error {
	if x == nil || strings.TrimSpace(text) == "" {
		return nil
	}
	return db.putCached(ctx, tenant, RefExtraction, text, &CachedExtraction{At: db.now().UTC(), Extraction: x}, rec)
}

// getCached reads the tenant's cache entry of text (of kind RefVerdict or
// RefExtraction) into into, and says whether it is younger than maxAge by
// its time, *at once read; rec is told of a fresh entry.
func (db *DB) getCached(ctx context.Context, tenant, kind, text string, maxAge time.Duration, into any, at *time.Time, rec search.Recorder) (bool, error) {
	if maxAge <= 0 {
		maxAge = db.ttl
	}
	key := cacheKey(text)
	err := db.read(ctx, tenant, func(tb *tenantTx) error { return getRecord(tb.Bucket(refBucket[kind]), key, into) })
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("cache %s: %w", kind, err)
	}
	if db.now().Sub(*at) >= maxAge {
		return false, nil
	}
	record(rec, kind, key)
	return true, nil
}

// putCached writes the tenant's cache entry e of text, and tells rec.
func (db *DB) putCached(ctx context.Context, tenant, kind, text string, e any, rec search.Recorder) error {
	key := cacheKey(text)
	if len(key) == 0 {
		return nil
	}
	err := db.updateTenant(ctx, tenant, func(tb *tenantTx) error { return tb.Bucket(refBucket[kind]).putRecord(key, e) })
	if err != nil {
		return fmt.Errorf("cache %s: %w", kind, err)
	}
	record(rec, kind, key)
	return nil
}
