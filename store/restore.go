package store

import (
	"context"
	"fmt"
)

// Records are records read from another database, as EachRequest,
// EachCheck (with feedback), EachCacheEntry and EachWebEntry give them, or
// from an older layout: Restore writes them.
type Records struct {
	Requests []*Request
	Checks   []*Check
	Cache    []CacheEntry // Kind RefVerdict or RefExtraction
	Web      []CacheEntry // Kind RefWeb or RefSnapshot
}

// Restore writes rs into tenant's records (Web into the shared web
// cache) in one transaction, replacing records of the same keys, so that
// a copy stopped half way can be run again.
func (db *DB) Restore(ctx context.Context, tenant string, rs Records) error {
	err := db.updateTenant(ctx, tenant, func(tb *tenantTx) error {
		for _, r := range rs.Requests {
			r.Tenant = tenant
			old, _ := getRequest(tb, r.Key)
			if err := putRequest(tb, old, r); err != nil {
				return err
			}
		}
		for _, c := range rs.Checks {
			c.Tenant = tenant
			if err := putCheck(tb, c); err != nil {
				return err
			}
		}
		if err := putEntries(tb, rs.Cache); err != nil {
			return err
		}
		return putEntries(&tenantTx{tb.tx, WebTenant}, rs.Web)
	})
	if err != nil {
		return fmt.Errorf("restore %s: %w", tenant, err)
	}
	return nil
}

// putEntries writes cache entries into their buckets of tb.
func putEntries(tb *tenantTx, es []CacheEntry) error {
	for _, e := range es {
		var v any
		switch e.Kind {
		case RefVerdict, RefExtraction:
			v = e.Value
		case RefWeb, RefSnapshot:
			v = webEntry{At: e.At, Val: e.Value}
		default:
			return fmt.Errorf("restore: unknown record kind %q", e.Kind)
		}
		if err := sub(tb, refBucket[e.Kind]).putRecord([]byte(e.Key), v); err != nil {
			return err
		}
	}
	return nil
}
