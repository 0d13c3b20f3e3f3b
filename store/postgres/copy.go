package postgres

import (
	"context"
	"fmt"

	"github.com/factbot-dev/factbot/store"
)

// CopyStats counts what CopyFrom copied.
type CopyStats struct {
	Tenants   int `json:"tenants"`
	Requests  int `json:"requests"`
	Checks    int `json:"checks"`
	Feedback  int `json:"feedback"`
	Cache     int `json:"cache"`     // cached verdicts and extractions
	Web       int `json:"web"`       // web cache entries
	Snapshots int `json:"snapshots"` // page snapshots
}

// copyBatch is how many records share a transaction.
const copyBatch = 500

// CopyFrom copies every record of the database src (a bbolt file) into
// db: tenants' requests, checks with their feedback, cached verdicts and
// extractions, and the shared web cache with its snapshots. Each record
// replaces the one of its key, so a copy that stopped half way can be run
// again. Then it checks that db holds at least as many records of each
// kind, per tenant, as src.
func (db *DB) CopyFrom(ctx context.Context, src *store.DB) (CopyStats, error) {
	var st CopyStats
	tenants, err := src.UserTenants(ctx)
	if err != nil {
		return st, fmt.Errorf("copy: %w", err)
	}
	for _, t := range append(tenants, store.WebTenant) {
		if err := db.copyTenant(ctx, src, t, &st); err != nil {
			return st, fmt.Errorf("copy tenant %s: %w", t, err)
		}
		if t != store.WebTenant {
			st.Tenants++
		}
	}
	return st, nil
}

// copyTenant copies the records of tenant t (of the web cache, for
// store.WebTenant), then checks that db holds at least as many requests,
// checks and cache records of t as it read (db may hold more: records a
// replica wrote meanwhile).
func (db *DB) copyTenant(ctx context.Context, src *store.DB, t string, st *CopyStats) error {
	b := &batch{db: db, tenant: t}
	var read [3]int
	err := src.EachRequest(ctx, t, func(r *store.Request) error {
		st.Requests++
		read[0]++
		b.rs.Requests = append(b.rs.Requests, r)
		return b.maybeFlush(ctx)
	})
	if err != nil {
		return fmt.Errorf("requests: %w", err)
	}
	err = src.EachCheck(ctx, t, func(c *store.Check) error {
		st.Checks++
		read[1]++
		st.Feedback += len(c.Feedback)
		b.rs.Checks = append(b.rs.Checks, c)
		return b.maybeFlush(ctx)
	})
	if err != nil {
		return fmt.Errorf("checks: %w", err)
	}
	err = src.EachCacheEntry(ctx, t, func(e store.CacheEntry) error {
		switch e.Kind {
		case store.RefWeb:
			st.Web++
		case store.RefSnapshot:
			st.Snapshots++
		default:
			st.Cache++
		}
		read[2]++
		b.rs.Cache = append(b.rs.Cache, e)
		return b.maybeFlush(ctx)
	})
	if err != nil {
		return fmt.Errorf("caches: %w", err)
	}
	if err := b.flush(ctx); err != nil {
		return err
	}
	var got [3]int
	err = db.EachRequest(ctx, t, func(*store.Request) error { got[0]++; return nil })
	if err == nil {
		err = db.EachCheck(ctx, t, func(*store.Check) error { got[1]++; return nil })
	}
	if err == nil {
		err = db.EachCacheEntry(ctx, t, func(store.CacheEntry) error { got[2]++; return nil })
	}
	if err != nil {
		return err
	}
	for i, kind := range []string{"requests", "checks", "cache records"} {
		if got[i] < read[i] {
			return fmt.Errorf("%d %s copied, the source has %d", got[i], kind, read[i])
		}
	}
	return nil
}

// batch gathers records to restore in one transaction.
type batch struct {
	db     *DB
	tenant string
	rs     store.Records
}

func (b *batch) maybeFlush(ctx context.Context) error {
	if len(b.rs.Requests)+len(b.rs.Checks)+len(b.rs.Cache) < copyBatch {
		return nil
	}
	return b.flush(ctx)
}

func (b *batch) flush(ctx context.Context) error {
	err := b.db.Restore(ctx, b.tenant, b.rs)
	b.rs = store.Records{}
	return err
}
