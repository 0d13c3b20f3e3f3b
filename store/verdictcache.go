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
	ok, err := db.getCached(ctx, tenant, bVerdicts, claim, maxAge, &e, func() time.Time { return e.At })
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
	return db.putCached(ctx, tenant, bVerdicts, v.Claim, rec)
}

// Extraction returns the tenant's cached extraction of text (matched after
// Normalize) if it was made less than maxAge ago (maxAge <= 0: the
// Options.CacheTTL).
func (db *DB) Extraction(ctx context.Context, tenant, text string, maxAge time.Duration) (*factcheck.Extraction, bool, error) {
	var e CachedExtraction
	ok, err := db.getCached(ctx, tenant, bExtractions, text, maxAge, &e, func() time.Time { return e.At })
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
	return db.putCached(ctx, tenant, bExtractions, text, rec)
}

func (db *DB) getCached(ctx context.Context, tenant string, bucket []byte, text string, maxAge time.Duration, into any, at func() time.Time) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if maxAge <= 0 {
		maxAge = db.ttl
	}
	key := cacheKey(Normalize(text))
	found := false
	err := db.drv.View(ctx, func(tx Tx) error {
		tb, err := tenantBucket(tx, tenant)
		if err != nil {
			return err
		}
		b := sub(tb, bucket)
		if b == nil {
			return nil
		}
		raw := b.Get(key)
		if raw == nil {
			return nil
		}
		found = true
		return decode(raw, into)
	})
	if err != nil {
		return false, fmt.Errorf("cache %s: %w", bucket, err)
	}
	if !found || db.now().Sub(at()) >= maxAge {
		return false, nil
	}
	record(ctx, refKind(bucket), key)
	return true, nil
}

func (db *DB) putCached(ctx context.Context, tenant string, bucket []byte, text string, e any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	key := cacheKey(Normalize(text))
	if len(key) == 0 {
		return nil
	}
	v, err := encode(e)
	if err != nil {
		return err
	}
	err = db.drv.Update(ctx, func(tx Tx) error {
		tb, err := tenantBucket(tx, tenant)
		if err != nil {
			return err
		}
		return sub(tb, bucket).Put(key, v)
	})
	if err != nil {
		return fmt.Errorf("cache %s: %w", bucket, err)
	}
	record(ctx, refKind(bucket), key)
	return nil
}

// refKind is the CacheRef kind of a tenant cache bucket.
func refKind(bucket []byte) string {
	if string(bucket) == string(bVerdicts) {
		return RefVerdict
	}
	return RefExtraction
}
