package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// The read-all iterators copy a database into another ('factbot migrate
// --from'), with Restore.

// CacheKey returns the key under which the verdict or extraction cache
// keeps text: its Normalize form, or a hash of it when it is long.
func CacheKey(text string) string { return string(cacheKey(text)) }

// EachRequest calls fn with every request of the tenant, in key order,
// from one read transaction (fn may not write to the database).
func (db *DB) EachRequest(ctx context.Context, tenant string, fn func(*Request) error) error {
	return db.view(ctx, tenant, func(tb *tenantTx) error {
		return eachRecord(tb.Bucket(bRequests), nil, func(_ []byte, r *Request) error { return fn(r) })
	})
}

// CacheEntry is one record of a tenant's verdict or extraction cache, or
// of the shared web cache or page snapshots, as EachCacheEntry gives it.
type CacheEntry struct {
	Kind string    // RefVerdict, RefExtraction, RefWeb, RefSnapshot
	Key  string    // as a CacheRef of Kind names it
	At   time.Time // when it was cached
	// Value is the record: {"at":…,"verdict":…} or {"at":…,"extraction":…}
	// for the tenant caches, the cached value itself for the web.
	Value json.RawMessage
}

// EachCacheEntry calls fn with every cached verdict and extraction of the
// tenant or, of WebTenant, every entry of the shared web cache (Kind
// RefWeb) and every page snapshot (RefSnapshot), from one read
// transaction.
func (db *DB) EachCacheEntry(ctx context.Context, tenant string, fn func(CacheEntry) error) error {
	kinds := []string{RefVerdict, RefExtraction}
	if tenant == WebTenant {
		kinds = []string{RefWeb, RefSnapshot}
	}
	return db.view(ctx, tenant, func(tb *tenantTx) error {
		for _, kind := range kinds {
			err := tb.Bucket(refBucket[kind]).ForEach(func(k, v []byte) error {
				var e webEntry // a tenant's cache record has its "at" too
				_, data, err := openEnvelope(v)
				if err == nil {
					err = json.Unmarshal(data, &e)
				}
				if tenant == WebTenant {
					data = e.Val
				}
				if err != nil {
					return fmt.Errorf("%s %q: %w", kind, k, err)
				}
				return fn(CacheEntry{Kind: kind, Key: string(k), At: e.At, Value: data})
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}
