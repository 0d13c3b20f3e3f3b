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
		return eachRecord(sub(tb, bRequests), nil, func(_ []byte, r *Request) error { return fn(r) })
	})
}

// CacheEntry is one record of a tenant's verdict or extraction cache, or
// of the shared web cache or page snapshots, as EachCacheEntry and
// EachWebEntry give it.
type CacheEntry struct {
	Kind string    // RefVerdict, RefExtraction, RefWeb, RefSnapshot
	Key  string    // as a CacheRef of Kind names it
	At   time.Time // when it was cached
	// Value is the record: {"at":…,"verdict":…} or {"at":…,"extraction":…}
	// for the tenant caches, the cached value itself for the web.
	Value json.RawMessage
}

// EachCacheEntry calls fn with every cached verdict and extraction of the
// tenant, from one read transaction.
func (db *DB) EachCacheEntry(ctx context.Context, tenant string, fn func(CacheEntry) error) error {
	return db.view(ctx, tenant, func(tb *tenantTx) error {
		for _, kind := range []string{RefVerdict, RefExtraction} {
			err := sub(tb, refBucket[kind]).ForEach(func(k, v []byte) error {
				_, data, err := openEnvelope(v)
				if err != nil {
					return fmt.Errorf("%s %q: %w", kind, k, err)
				}
				at, err := cachedAt(v)
				if err != nil {
					return fmt.Errorf("%s %q: %w", kind, k, err)
				}
				return fn(CacheEntry{Kind: kind, Key: string(k), At: at, Value: data})
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// EachWebEntry calls fn with every entry of the shared web cache (Kind
// RefWeb) and every page snapshot (RefSnapshot), from one read
// transaction.
func (db *DB) EachWebEntry(ctx context.Context, fn func(CacheEntry) error) error {
	return db.view(ctx, WebTenant, func(tb *tenantTx) error {
		for _, kind := range []string{RefWeb, RefSnapshot} {
			err := eachRecord(sub(tb, refBucket[kind]), nil, func(k []byte, e *webEntry) error {
				return fn(CacheEntry{Kind: kind, Key: string(k), At: e.At, Value: e.Val})
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}
