package store

import (
	"bytes"
	"context"
	"fmt"
	"time"
)

// PruneStats counts what Prune removed.
type PruneStats struct {
	Checks      int `json:"checks"`
	Requests    int `json:"requests"`
	Verdicts    int `json:"verdicts"`
	Extractions int `json:"extractions"`
	// Web counts web cache entries (search answers, pages) and page
	// snapshots.
	Web int `json:"web"`
}

// Prune removes, in every tenant, checks created before cutoff (with their
// index entries and feedback), finished (done or failed) requests last
// updated before cutoff, the dedupe records of refused requests once they
// are RefusedTTL old, and cached verdicts and extractions made before
// cutoff. Pending requests are kept whatever their age: they are still
// owed an answer. Each tenant is pruned in its own transaction. Then it
// removes what was retrieved from the web before cutoff (see WebTenant),
// except the page snapshots that a remaining check or cached verdict
// cites: an auditor can still see every page a kept verdict was based on.
func (db *DB) Prune(ctx context.Context, cutoff time.Time) (PruneStats, error) {
	var st PruneStats
	tenants, err := db.UserTenants(ctx)
	if err != nil {
		return st, fmt.Errorf("prune: %w", err)
	}
	refusedCutoff := db.now().Add(-RefusedTTL)
	for _, t := range tenants {
		var ts PruneStats
		err := db.updateTenant(ctx, t, func(tb *tenantTx) (err error) {
			ts, err = pruneTenant(tb, cutoff, refusedCutoff)
			return err
		})
		if err != nil {
			return st, fmt.Errorf("prune tenant %s: %w", t, err)
		}
		st.Checks, st.Requests = st.Checks+ts.Checks, st.Requests+ts.Requests
		st.Verdicts, st.Extractions = st.Verdicts+ts.Verdicts, st.Extractions+ts.Extractions
	}
	cited, err := db.citedPages(ctx, cutoff, tenants)
	if err == nil {
		err = db.update(ctx, func(tx *txn) (err error) {
			st.Web, err = pruneWeb(tx, cutoff, cited)
			return err
		})
	}
	if err != nil {
		return st, fmt.Errorf("prune web cache: %w", err)
	}
	if db.afterPrune != nil {
		if err := db.afterPrune(ctx, db.now()); err != nil {
			return st, fmt.Errorf("prune: %w", err)
		}
	}
	return st, nil
}

// pruneTenant removes from tenant bucket tb what Prune removes before
// cutoff, and counts it.
func pruneTenant(tb *tenantTx, cutoff, refusedCutoff time.Time) (st PruneStats, err error) {
	if st.Checks, err = pruneChecks(tb, cutoff); err != nil {
		return st, err
	}
	if st.Requests, err = pruneRequests(tb, cutoff, refusedCutoff); err != nil {
		return st, err
	}
	if st.Verdicts, err = pruneCache(tb.Bucket(bVerdicts), cutoff); err != nil {
		return st, err
	}
	st.Extractions, err = pruneCache(tb.Bucket(bExtractions), cutoff)
	return st, err
}

// pruneCache removes the cached verdicts or extractions of b made before
// cutoff.
func pruneCache(b *bkt, cutoff time.Time) (int, error) {
	n, visit := 0, b.ForEach
	ex := b.tx.nat
	native := ex != nil
	if native { // the records with a time natively, the others (few, or the first time) as below
		var untimed [][]byte
		var err error
		if n, untimed, err = ex.DeleteBefore(b.b, cutoff); err != nil || len(untimed) == 0 {
			return n, err
		}
		if len(untimed) < 1000 {
			visit = func(fn func(k, v []byte) error) error { return eachKey(b, untimed, fn) }
		}
	}
	var kept [][]byte
	var times []time.Time
	deleted, err := b.deleteVisited(visit, func(k, v []byte) (bool, error) {
		t, err := cachedAt(v)
		if err != nil {
			return false, fmt.Errorf("cache entry %q: %w", k, err)
		}
		if !t.Before(cutoff) && native {
			kept, times = append(kept, bytes.Clone(k)), append(times, t)
		}
		return t.Before(cutoff), nil
	})
	if err != nil {
		return 0, err
	}
	if native && len(kept) > 0 {
		err = ex.SetTimes(b.b, kept, times)
	}
	return n + deleted, err
}

// eachKey calls fn with each of keys in b and its value, skipping those
// that are gone.
func eachKey(b *bkt, keys [][]byte, fn func(k, v []byte) error) error {
	for _, k := range keys {
		if v := b.Get(k); v != nil {
			if err := fn(k, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// cachedAt returns the time of a cached verdict or extraction.
func cachedAt(v []byte) (time.Time, error) {
	var e struct {
		At time.Time `json:"at"`
	}
	err := decode(v, &e)
	return e.At, err
}

// pruneChecks removes the checks created before cutoff, with everything
// derived from them. It reads the summaries oldest first, up to the
// cutoff's second (IDs start with their time), deciding by CreatedAt.
func pruneChecks(tb *tenantTx, cutoff time.Time) (int, error) {
	stop := []byte(cutoff.UTC().Add(time.Second).Format(idTimeLayout))
	var old []*CheckSummary
	c := tb.Bucket(bSums).Cursor()
	for k, v := c.First(); k != nil && bytes.Compare(k, stop) < 0; k, v = c.Next() {
		var s CheckSummary
		if err := decode(v, &s); err != nil {
			return 0, fmt.Errorf("summary %s: %w", k, err)
		}
		if s.CreatedAt.Before(cutoff) {
			old = append(old, &s)
		}
	}
	for _, s := range old {
		if _, err := deleteCheck(tb, s); err != nil {
			return 0, err
		}
	}
	return len(old), nil
}

// pruneRequests removes the finished requests last updated before cutoff,
// and the refused ones last updated before refusedCutoff.
func pruneRequests(tb *tenantTx, cutoff, refusedCutoff time.Time) (int, error) {
	reqs, err := requestsWhere(tb, func(r *Request) bool {
		return r.State != RequestPending && (r.UpdatedAt.Before(cutoff) || r.Refused && r.UpdatedAt.Before(refusedCutoff))
	})
	if err != nil {
		return 0, err
	}
	for _, r := range reqs {
		if err := deleteRequest(tb, r); err != nil {
			return 0, err
		}
	}
	return len(reqs), nil
}

// PruneEvery runs Prune every interval until ctx is done, with the cutoff
// retention before the time of each run (retention <= 0 keeps every check
// and removes only the dedupe records of refused requests older than
// RefusedTTL). It calls report, if not nil, with the result of each run.
// factbot serve runs it in a goroutine:
//
//	go db.PruneEvery(ctx, time.Hour, retention, logPrune)
func (db *DB) PruneEvery(ctx context.Context, interval, retention time.Duration, report func(PruneStats, error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var cutoff time.Time
		if retention > 0 {
			cutoff = db.now().Add(-retention)
		}
		st, err := db.Prune(ctx, cutoff)
		if report != nil {
			report(st, err)
		}
	}
}
