package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

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

// CopyFrom copies every record of the bbolt database src into db:
// tenants' requests, checks with their feedback, cached verdicts and
// extractions, and the shared web cache with its snapshots. Each record
// is upserted, so a copy that stopped half way can be run again. Then it
// checks that db holds at least as many records of each kind, per tenant,
// as src (db may hold more: records a replica wrote meanwhile).
func (db *DB) CopyFrom(ctx context.Context, src *store.DB) (CopyStats, error) {
	var st CopyStats
	tenants, err := src.UserTenants(ctx)
	if err != nil {
		return st, fmt.Errorf("copy: %w", err)
	}
	b := &batcher{db: db}
	for _, t := range tenants {
		var ts CopyStats
		err := src.EachRequest(ctx, t, func(r *store.Request) error {
			ts.Requests++
			if r.Tenant == "" {
				r.Tenant = t
			}
			return b.add(ctx, func(tx pgx.Tx) error { return importRequest(ctx, tx, r) })
		})
		if err != nil {
			return st, fmt.Errorf("copy tenant %s: requests: %w", t, err)
		}
		err = src.EachCheck(ctx, t, func(c *store.Check) error {
			ts.Checks++
			ts.Feedback += len(c.Feedback)
			if c.Tenant == "" {
				c.Tenant = t
			}
			return b.add(ctx, func(tx pgx.Tx) error { return importCheck(ctx, tx, c) })
		})
		if err != nil {
			return st, fmt.Errorf("copy tenant %s: checks: %w", t, err)
		}
		err = src.EachCacheEntry(ctx, t, func(e store.CacheEntry) error {
			ts.Cache++
			return b.add(ctx, func(tx pgx.Tx) error {
				return putCacheRow(ctx, tx, t, e.Kind, e.Key, e.At, jsonText(e.Value))
			})
		})
		if err != nil {
			return st, fmt.Errorf("copy tenant %s: caches: %w", t, err)
		}
		if err := b.flush(ctx); err != nil {
			return st, fmt.Errorf("copy tenant %s: %w", t, err)
		}
		if err := db.checkCounts(ctx, t, ts); err != nil {
			return st, fmt.Errorf("copy tenant %s: %w", t, err)
		}
		st.Tenants++
		st.Requests += ts.Requests
		st.Checks += ts.Checks
		st.Feedback += ts.Feedback
		st.Cache += ts.Cache
	}
	err = src.EachWebEntry(ctx, func(e store.CacheEntry) error {
		if e.Kind == store.RefSnapshot {
			st.Snapshots++
		} else {
			st.Web++
		}
		return b.add(ctx, func(tx pgx.Tx) error { return putWeb(ctx, tx, e.Kind, e.Key, e.At, e.Value) })
	})
	if err == nil {
		err = b.flush(ctx)
	}
	if err != nil {
		return st, fmt.Errorf("copy web cache: %w", err)
	}
	var web, snaps int
	err = db.pool.QueryRow(ctx, "SELECT (SELECT count(*) FROM webcache), (SELECT count(*) FROM snapshots)").Scan(&web, &snaps)
	if err != nil {
		return st, fmt.Errorf("copy web cache: %w", err)
	}
	if web < st.Web || snaps < st.Snapshots {
		return st, fmt.Errorf("copy web cache: PostgreSQL holds %d web cache entries and %d snapshots, fewer than the %d and %d copied", web, snaps, st.Web, st.Snapshots)
	}
	return st, nil
}

// checkCounts checks that db holds at least the records of tenant that
// want counts.
func (db *DB) checkCounts(ctx context.Context, tenant string, want CopyStats) error {
	var got CopyStats
	err := db.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM requests WHERE tenant = $1), (SELECT count(*) FROM checks WHERE tenant = $1),
	(SELECT count(*) FROM feedback WHERE tenant = $1), (SELECT count(*) FROM cache WHERE tenant = $1)`, pgText(tenant)).
		Scan(&got.Requests, &got.Checks, &got.Feedback, &got.Cache)
	if err != nil {
		return err
	}
	if got.Requests < want.Requests || got.Checks < want.Checks || got.Feedback < want.Feedback || got.Cache < want.Cache {
		return fmt.Errorf("counts differ after the copy: PostgreSQL holds %d requests, %d checks, %d notes, %d cache entries; the file %d, %d, %d, %d",
			got.Requests, got.Checks, got.Feedback, got.Cache, want.Requests, want.Checks, want.Feedback, want.Cache)
	}
	return nil
}

// batcher runs writes in transactions of copyBatch writes.
type batcher struct {
	db  *DB
	fns []func(pgx.Tx) error
}

func (b *batcher) add(ctx context.Context, fn func(pgx.Tx) error) error {
	b.fns = append(b.fns, fn)
	if len(b.fns) >= copyBatch {
		return b.flush(ctx)
	}
	return nil
}

func (b *batcher) flush(ctx context.Context) error {
	if len(b.fns) == 0 {
		return nil
	}
	err := b.db.inTx(ctx, func(tx pgx.Tx) error {
		for _, fn := range b.fns {
			if err := fn(tx); err != nil {
				return err
			}
		}
		return nil
	})
	b.fns = b.fns[:0]
	return err
}

// importRequest upserts a request as it is.
func importRequest(ctx context.Context, tx pgx.Tx, r *store.Request) error {
	args, err := requestArgs(r)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO requests (tenant, key, state, user_id, refused, created_ns, updated_ns, record)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb) ON CONFLICT (tenant, key) DO UPDATE SET state = EXCLUDED.state, user_id = EXCLUDED.user_id,
	refused = EXCLUDED.refused, created_ns = EXCLUDED.created_ns, updated_ns = EXCLUDED.updated_ns, record = EXCLUDED.record`, args...)
	return err
}

// importCheck upserts a check as it is, under its ID, with its feedback
// (all of it, as Check returned it) in the feedback table.
func importCheck(ctx context.Context, tx pgx.Tx, c *store.Check) error {
	cp := *c
	cp.Feedback = nil
	if _, err := putCheck(ctx, tx, &cp, c.ID, true); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "DELETE FROM feedback WHERE tenant = $1 AND check_id = $2", pgText(c.Tenant), pgText(c.ID)); err != nil {
		return err
	}
	for i, f := range c.Feedback {
		rec, err := toJSONB(&f)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "INSERT INTO feedback (tenant, check_id, seq, user_id, record) VALUES ($1, $2, $3, $4, $5::jsonb)",
			pgText(c.Tenant), pgText(c.ID), i, pgText(f.User), rec)
		if err != nil {
			return err
		}
	}
	return nil
}
