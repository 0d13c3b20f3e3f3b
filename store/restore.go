package store

import (
	"context"
	"fmt"
)

// Records are records read from another database, as EachRequest,
// EachCheck (with feedback) and EachCacheEntry give them, or from an
// older layout: Restore writes them.
type Records struct {
	Requests []*Request
	Checks   []*Check
	Cache    []CacheEntry
}

// Restore writes rs into tenant's records (entries of the web cache and
// snapshots into WebTenant's) in one transaction, replacing records of
// the same keys, so that a copy stopped half way can be run again.
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
		return putEntries(tb, rs.Cache)
	})
	if err != nil {
		return fmt.Errorf("restore %s: %w", tenant, err)
	}
	return nil
}

// putEntries writes cache entries into their buckets of tb, or of
// WebTenant for the web's.
func putEntries(tb *tenantTx, es []CacheEntry) error {
	for _, e := range es {
		var v any = e.Value
		b := tb
		switch e.Kind {
		case RefVerdict, RefExtraction:
		case RefWeb, RefSnapshot:
			v, b = webEntry{At: e.At, Val: e.Value}, &tenantTx{tb.tx, WebTenant}
		default:
			return fmt.Errorf("restore: unknown record kind %q", e.Kind)
		}
		if err := b.Bucket(refBucket[e.Kind]).putRecord([]byte(e.Key), v); err != nil {
			return err
		}
	}
	return nil
}
