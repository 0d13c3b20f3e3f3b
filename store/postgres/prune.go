package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

// Prune removes, in every tenant, checks created before cutoff (with their
// feedback), finished requests last updated before cutoff, the dedupe
// records of refused requests once they are store.RefusedTTL old, and
// cached verdicts and extractions made before cutoff; pending requests
// are kept. Then it removes what was retrieved from the web before cutoff,
// except the page snapshots that a remaining check or cached verdict
// cites. It is (*store.DB).Prune's rule; beyond it, the rate limits' uses
// that have left their window are deleted (see Take).
func (db *DB) Prune(ctx context.Context, cutoff time.Time) (store.PruneStats, error) {
	var st store.PruneStats
	if err := ctx.Err(); err != nil {
		return st, err
	}
	c, refused := ns(cutoff), ns(db.now().Add(-store.RefusedTTL))
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "DELETE FROM checks WHERE created_ns < $1 AND tenant <> $2", c, store.WebTenant)
		if err != nil {
			return err
		}
		st.Checks = int(tag.RowsAffected())
		tag, err = tx.Exec(ctx, "DELETE FROM requests WHERE state <> 'pending' AND (updated_ns < $1 OR (refused AND updated_ns < $2))", c, refused)
		if err != nil {
			return err
		}
		st.Requests = int(tag.RowsAffected())
		if err := pruneRateEvents(ctx, tx, db.now()); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `WITH d AS (DELETE FROM cache WHERE at_ns < $1 RETURNING kind)
SELECT count(*) FILTER (WHERE kind = 'verdict'), count(*) FILTER (WHERE kind = 'extraction') FROM d`, c).Scan(&st.Verdicts, &st.Extractions)
	})
	if err != nil {
		return st, fmt.Errorf("prune: %w", ctxErr(ctx, err))
	}
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "DELETE FROM webcache WHERE at_ns < $1", c)
		if err != nil {
			return err
		}
		st.Web = int(tag.RowsAffected())
		// The snapshots some remaining check or cached verdict cites (a
		// field "sha256" at any depth, as bbolt looks for it) are kept.
		tag, err = tx.Exec(ctx, `DELETE FROM snapshots WHERE at_ns < $1 AND sha256 NOT IN (
	SELECT h FROM (
		SELECT jsonb_path_query(record, 'lax $.**.sha256') #>> '{}' AS h FROM checks
		UNION SELECT jsonb_path_query(record, 'lax $.**.sha256') #>> '{}' FROM cache WHERE kind = 'verdict'
	) cited WHERE h IS NOT NULL)`, c)
		if err != nil {
			return err
		}
		st.Web += int(tag.RowsAffected())
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("prune web cache: %w", ctxErr(ctx, err))
	}
	return st, nil
}

// PruneEvery runs Prune every interval until ctx is done, as
// (*store.DB).PruneEvery does. Replicas may all run it: a prune that finds
// nothing left to remove is cheap.
func (db *DB) PruneEvery(ctx context.Context, interval, retention time.Duration, report func(store.PruneStats, error)) {
	store.PruneEvery(ctx, db.Prune, db.now, interval, retention, report)
}

// Forget deletes what one user asked in one tenant, and everything their
// requests caused, in one transaction, by (*store.DB).Forget's rule: their
// checks with the feedback on them, their requests, the cached verdicts of
// their claims and extractions of their texts (a linked page's text too),
// and the web cache entries and snapshots their records name that no
// remaining record of any tenant names.
func (db *DB) Forget(ctx context.Context, tenant, user string) (store.ForgetStats, error) {
	var st store.ForgetStats
	if err := ctx.Err(); err != nil {
		return st, err
	}
	if user == "" {
		return st, fmt.Errorf("forget: empty user")
	}
	if tenant == store.WebTenant {
		return st, fmt.Errorf("forget: %s is not a tenant", store.WebTenant)
	}
	if tenant == "" {
		return st, fmt.Errorf("forget: %w", store.ErrNoTenant)
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		st = store.ForgetStats{}
		web := store.NewWebRefs()
		if err := forgetChecks(ctx, tx, tenant, user, web, &st); err != nil {
			return err
		}
		if err := forgetRequests(ctx, tx, tenant, user, web, &st); err != nil {
			return err
		}
		return forgetWeb(ctx, tx, web, &st)
	})
	if err != nil {
		return st, fmt.Errorf("forget: %w", ctxErr(ctx, err))
	}
	return st, nil
}

// ForgetTenant deletes every record of a tenant, in one transaction, with
// the web cache entries its records caused that no other tenant's records
// name.
func (db *DB) ForgetTenant(ctx context.Context, tenant string) (store.ForgetStats, error) {
	var st store.ForgetStats
	if err := ctx.Err(); err != nil {
		return st, err
	}
	if tenant == store.WebTenant {
		return st, fmt.Errorf("forget tenant: %s is not a tenant", store.WebTenant)
	}
	if tenant == "" {
		return st, fmt.Errorf("forget tenant: %w", store.ErrNoTenant)
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		st = store.ForgetStats{}
		web := store.NewWebRefs()
		if err := tenantWebRefs(ctx, tx, tenant, web, &st); err != nil {
			return err
		}
		t := pgText(tenant)
		err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM cache WHERE tenant = $1 AND kind = 'verdict'),
	(SELECT count(*) FROM cache WHERE tenant = $1 AND kind = 'extraction'), (SELECT count(*) FROM feedback WHERE tenant = $1)`, t).
			Scan(&st.Verdicts, &st.Extractions, &st.Feedback)
		if err != nil {
			return err
		}
		for _, table := range []string{"checks", "requests", "cache"} { // feedback goes with its checks
			if _, err := tx.Exec(ctx, "DELETE FROM "+table+" WHERE tenant = $1", t); err != nil {
				return err
			}
		}
		return forgetWeb(ctx, tx, web, &st)
	})
	if err != nil {
		return st, fmt.Errorf("forget tenant %s: %w", tenant, ctxErr(ctx, err))
	}
	return st, nil
}

// eachRecord decodes the JSONB of each row of a query into a new T.
func eachRecord[T any](ctx context.Context, tx pgx.Tx, sql string, args []any, fn func(*T) error) error {
	rows, err := tx.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	recs, err := collectJSON[T](rows)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// tenantWebRefs adds to web what the tenant's checks, requests and cached
// verdicts name in the web cache, counting checks and requests in st.
func tenantWebRefs(ctx context.Context, tx pgx.Tx, tenant string, web *store.WebRefs, st *store.ForgetStats) error {
	t := []any{pgText(tenant)}
	err := eachRecord(ctx, tx, "SELECT record::text FROM checks WHERE tenant = $1", t, func(c *store.Check) error {
		web.AddCheck(c)
		st.Checks++
		return nil
	})
	if err != nil {
		return err
	}
	err = eachRecord(ctx, tx, "SELECT record::text FROM requests WHERE tenant = $1", t, func(r *store.Request) error {
		web.AddRefs(r.CacheRefs)
		if u := store.OnlyURL(r.Text); u != "" {
			web.AddURL(u)
		}
		st.Requests++
		return nil
	})
	if err != nil {
		return err
	}
	return eachRecord(ctx, tx, "SELECT record::text FROM cache WHERE tenant = $1 AND kind = 'verdict'", t, func(e *store.CachedVerdict) error {
		web.AddVerdict(e.Verdict)
		return nil
	})
}

// forgetChecks deletes the user's checks, with the cached verdicts of
// their claims and the cached extractions they caused, and adds what they
// name in the web cache to web.
func forgetChecks(ctx context.Context, tx pgx.Tx, tenant, user string, web *store.WebRefs, st *store.ForgetStats) error {
	var cs []*store.Check
	err := eachRecord(ctx, tx, "SELECT record::text FROM checks WHERE tenant = $1 AND user_id = $2 ORDER BY id DESC FOR UPDATE",
		[]any{pgText(tenant), pgText(user)}, func(c *store.Check) error { cs = append(cs, c); return nil })
	if err != nil {
		return err
	}
	for _, c := range cs {
		if c.Report != nil {
			for _, v := range c.Report.Claims {
				if v == nil {
					continue
				}
				if err := forgetCached(ctx, tx, tenant, store.RefVerdict, store.CacheKey(v.Claim), &st.Verdicts); err != nil {
					return err
				}
			}
		}
		if err := forgetCached(ctx, tx, tenant, store.RefExtraction, store.CacheKey(c.Text), &st.Extractions); err != nil {
			return err
		}
		if err := forgetRefs(ctx, tx, tenant, c.CacheRefs, st); err != nil {
			return err
		}
		if len(c.CacheRefs) == 0 && store.OnlyURL(c.Text) != "" {
			if err := forgetPageExtraction(ctx, tx, c, st); err != nil {
				return err
			}
		}
		web.AddCheck(c)
		tag, err := tx.Exec(ctx, "DELETE FROM feedback WHERE tenant = $1 AND check_id = $2", pgText(tenant), pgText(c.ID))
		if err != nil {
			return err
		}
		st.Feedback += int(tag.RowsAffected())
		if _, err := tx.Exec(ctx, "DELETE FROM checks WHERE tenant = $1 AND id = $2", pgText(tenant), pgText(c.ID)); err != nil {
			return err
		}
		st.Checks++
	}
	return nil
}

// forgetRequests deletes the user's requests, pending ones too, with the
// cached extractions of their texts and the records they caused.
func forgetRequests(ctx context.Context, tx pgx.Tx, tenant, user string, web *store.WebRefs, st *store.ForgetStats) error {
	var rs []*store.Request
	err := eachRecord(ctx, tx, "DELETE FROM requests WHERE tenant = $1 AND user_id = $2 RETURNING record::text",
		[]any{pgText(tenant), pgText(user)}, func(r *store.Request) error { rs = append(rs, r); return nil })
	if err != nil {
		return err
	}
	for _, r := range rs {
		if r.Text != "" {
			if err := forgetCached(ctx, tx, tenant, store.RefExtraction, store.CacheKey(r.Text), &st.Extractions); err != nil {
				return err
			}
			if u := store.OnlyURL(r.Text); u != "" {
				web.AddURL(u)
			}
		}
		if err := forgetRefs(ctx, tx, tenant, r.CacheRefs, st); err != nil {
			return err
		}
		web.AddRefs(r.CacheRefs)
	}
	st.Requests += len(rs)
	return nil
}

// forgetCached deletes one entry of the tenant's cache, counting it in n.
func forgetCached(ctx context.Context, tx pgx.Tx, tenant, kind, key string, n *int) error {
	if key == "" {
		return nil
	}
	tag, err := tx.Exec(ctx, "DELETE FROM cache WHERE tenant = $1 AND kind = $2 AND key = $3", pgText(tenant), kind, pgText(key))
	*n += int(tag.RowsAffected())
	return err
}

// forgetRefs deletes the tenant cache entries that refs name.
func forgetRefs(ctx context.Context, tx pgx.Tx, tenant string, refs []store.CacheRef, st *store.ForgetStats) error {
	for _, r := range refs {
		var n *int
		switch r.Kind {
		case store.RefVerdict:
			n = &st.Verdicts
		case store.RefExtraction:
			n = &st.Extractions
		default:
			continue
		}
		if err := forgetCached(ctx, tx, tenant, r.Kind, r.Key, n); err != nil {
			return err
		}
	}
	return nil
}

// forgetPageExtraction deletes the cached extractions whose claims begin
// with the claims of c, a check of a message that was only a link.
func forgetPageExtraction(ctx context.Context, tx pgx.Tx, c *store.Check, st *store.ForgetStats) error {
	if c.Report == nil || len(c.Report.Claims) == 0 {
		return nil
	}
	var claims []string
	for _, v := range c.Report.Claims {
		if v != nil {
			claims = append(claims, v.Claim)
		}
	}
	var keys []string
	rows, err := tx.Query(ctx, "SELECT key, record::text FROM cache WHERE tenant = $1 AND kind = 'extraction'", pgText(c.Tenant))
	if err != nil {
		return err
	}
	var key, rec string
	_, err = pgx.ForEachRow(rows, []any{&key, &rec}, func() error {
		var e store.CachedExtraction
		if fromJSONB(rec, &e) != nil || e.Extraction == nil || len(e.Extraction.Claims) < len(claims) {
			return nil
		}
		for i, cl := range claims {
			if e.Extraction.Claims[i].Claim != cl {
				return nil
			}
		}
		keys = append(keys, key)
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if _, err := tx.Exec(ctx, "DELETE FROM cache WHERE tenant = $1 AND kind = 'extraction' AND key = $2", pgText(c.Tenant), k); err != nil {
			return err
		}
		st.Extractions++
	}
	return nil
}

// forgetWeb deletes the web cache entries and snapshots that gone names,
// except those that the remaining records of every tenant name too
// (store.ResolveWeb decides both).
func forgetWeb(ctx context.Context, tx pgx.Tx, gone *store.WebRefs, st *store.ForgetStats) error {
	l, lookupErr, err := webLookup(ctx, tx)
	if err != nil {
		return err
	}
	delKeys, delSnaps := store.ResolveWeb(gone, l)
	if err := lookupErr(); err != nil {
		return err
	}
	if len(delKeys) == 0 && len(delSnaps) == 0 {
		return nil
	}
	kept := store.NewWebRefs()
	rows, err := tx.Query(ctx, "SELECT DISTINCT tenant FROM (SELECT tenant FROM checks UNION SELECT tenant FROM requests UNION SELECT tenant FROM cache) t")
	if err != nil {
		return err
	}
	tenants, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, t := range tenants {
		var ignored store.ForgetStats
		if err := tenantWebRefs(ctx, tx, fromText(t), kept, &ignored); err != nil {
			return err
		}
	}
	keepKeys, keepSnaps := store.ResolveWeb(kept, l)
	if err := lookupErr(); err != nil {
		return err
	}
	return store.DeleteWeb(delKeys, keepKeys, delSnaps, keepSnaps, st,
		func(k string) error {
			_, err := tx.Exec(ctx, "DELETE FROM webcache WHERE key = $1", pgText(k))
			return err
		},
		func(h string) error {
			_, err := tx.Exec(ctx, "DELETE FROM snapshots WHERE sha256 = $1", pgText(h))
			return err
		})
}

// webLookup reads the web cache's keys and snapshot hashes for
// store.ResolveWeb; a page's value is read when asked for, and lookupErr
// returns the first error of such a read.
func webLookup(ctx context.Context, tx pgx.Tx) (l store.WebLookup, lookupErr func() error, err error) {
	l = store.WebLookup{Queries: map[string][]string{}}
	var firstErr error
	lookupErr = func() error { return firstErr }
	rows, err := tx.Query(ctx, "SELECT key FROM webcache")
	if err != nil {
		return l, lookupErr, err
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var k string
		err := r.Scan(&k)
		return fromText(k), err
	})
	if err != nil {
		return l, lookupErr, err
	}
	have := map[string]bool{}
	for _, k := range keys {
		have[k] = true
		if q := store.QueryOf(k); q != "" {
			l.Queries[q] = append(l.Queries[q], k)
		}
	}
	rows, err = tx.Query(ctx, "SELECT sha256 FROM snapshots")
	if err != nil {
		return l, lookupErr, err
	}
	hashes, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return l, lookupErr, err
	}
	snaps := map[string]bool{}
	for _, h := range hashes {
		snaps[fromText(h)] = true
	}
	l.HasSnap = func(h string) bool { return snaps[h] }
	l.Get = func(k string) ([]byte, bool) {
		if !have[k] {
			return nil, false
		}
		if !strings.HasPrefix(k, search.PageBucket+"\x00") {
			return nil, true // only a page's value is looked into
		}
		var val string
		err := tx.QueryRow(ctx, "SELECT val::text FROM webcache WHERE key = $1", pgText(k)).Scan(&val)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) && firstErr == nil {
			firstErr = err
		}
		return []byte(rawJSON(val)), err == nil
	}
	return l, lookupErr, nil
}
