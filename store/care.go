package store

import (
	"bytes"
	"context"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
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
// index entries), finished (done or failed) requests last updated before
// cutoff, and cached verdicts and extractions made before cutoff. Pending
// requests are kept whatever their age: they are still owed an answer.
// Each tenant is pruned in its own transaction. Then it removes what was
// retrieved from the web before cutoff (see WebTenant), except the page
// snapshots that a remaining check or cached verdict cites: an auditor can
// still see every page a kept verdict was based on.
func (db *DB) Prune(ctx context.Context, cutoff time.Time) (PruneStats, error) {
	var st PruneStats
	var tenants []string
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bTenants).ForEachBucket(func(k []byte) error {
			if string(k) != WebTenant {
				tenants = append(tenants, string(k))
			}
			return nil
		})
	})
	if err != nil {
		return st, fmt.Errorf("prune: %w", err)
	}
	stop := []byte(cutoff.UTC().Add(time.Second).Format(idTimeLayout))
	for _, t := range tenants {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			tb, err := tenantBucket(tx, t)
			if err != nil {
				return err
			}
			// Checks: oldest first, up to the cutoff's second (IDs start with
			// their time), deciding by CreatedAt.
			var old []*CheckSummary
			c := sub(tb, bSums).Cursor()
			for k, v := c.First(); k != nil && bytes.Compare(k, stop) < 0; k, v = c.Next() {
				var s CheckSummary
				if err := decode(v, &s); err != nil {
					return fmt.Errorf("summary %s: %w", k, err)
				}
				if s.CreatedAt.Before(cutoff) {
					old = append(old, &s)
				}
			}
			for _, s := range old {
				if err := deleteCheck(tb, s); err != nil {
					return err
				}
			}
			st.Checks += len(old)
			// Finished requests.
			reqs, err := requestsWhere(tb, func(r *Request) bool {
				return r.State != RequestPending && r.UpdatedAt.Before(cutoff)
			})
			if err != nil {
				return err
			}
			for _, r := range reqs {
				if err := deleteRequest(tb, r); err != nil {
					return err
				}
			}
			st.Requests += len(reqs)
			// Cache entries.
			n, err := pruneCache(sub(tb, bVerdicts), cutoff, func(v []byte) (time.Time, error) {
				var e cachedVerdict
				err := decode(v, &e)
				return e.At, err
			})
			if err != nil {
				return err
			}
			st.Verdicts += n
			n, err = pruneCache(sub(tb, bExtractions), cutoff, func(v []byte) (time.Time, error) {
				var e struct {
					At time.Time `json:"at"`
				}
				err := decode(v, &e)
				return e.At, err
			})
			st.Extractions += n
			return err
		})
		if err != nil {
			return st, fmt.Errorf("prune tenant %s: %w", t, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return st, err
	}
	cited, err := db.citedPages(ctx, cutoff, tenants)
	if err != nil {
		return st, fmt.Errorf("prune web cache: %w", err)
	}
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		st.Web, err = pruneWeb(tx, cutoff, cited)
		return err
	})
	if err != nil {
		return st, fmt.Errorf("prune web cache: %w", err)
	}
	return st, nil
}

// requestsWhere returns the requests of tenant bucket tb that keep
// accepts, in key order.
func requestsWhere(tb *bolt.Bucket, keep func(*Request) bool) ([]*Request, error) {
	var reqs []*Request
	err := sub(tb, bRequests).ForEach(func(k, v []byte) error {
		var r Request
		if err := decode(v, &r); err != nil {
			return fmt.Errorf("request %s: %w", k, err)
		}
		if keep(&r) {
			reqs = append(reqs, &r)
		}
		return nil
	})
	return reqs, err
}

func pruneCache(b *bolt.Bucket, cutoff time.Time, at func([]byte) (time.Time, error)) (int, error) {
	var keys [][]byte
	err := b.ForEach(func(k, v []byte) error {
		t, err := at(v)
		if err != nil {
			return fmt.Errorf("cache entry %q: %w", k, err)
		}
		if t.Before(cutoff) {
			keys = append(keys, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

// ForgetStats counts what Forget removed.
type ForgetStats struct {
	Checks      int `json:"checks"`
	Requests    int `json:"requests"`
	Verdicts    int `json:"verdicts"`
	Extractions int `json:"extractions"`
}

// Forget deletes what one user asked in one tenant, in one transaction:
// their checks with every index entry, their requests (pending ones too),
// and the cached verdicts and extractions of the claims and texts of those
// checks, so their words do not outlive the request. Feedback they left on
// other people's checks is kept.
func (db *DB) Forget(ctx context.Context, tenant, user string) (ForgetStats, error) {
	var st ForgetStats
	if err := ctx.Err(); err != nil {
		return st, err
	}
	if user == "" {
		return st, fmt.Errorf("forget: empty user")
	}
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		tb, err := tenantBucket(tx, tenant)
		if err != nil {
			return err
		}
		var ids [][]byte
		err = walkDesc(sub(tb, bByUser), indexKey(user, ""), func(id []byte) (bool, error) {
			ids = append(ids, bytes.Clone(id))
			return true, nil
		})
		if err != nil {
			return err
		}
		forgetCache := func(b *bolt.Bucket, text string, n *int) error {
			k := cacheKey(Normalize(text))
			if len(k) > 0 && b.Get(k) != nil {
				*n++
				return b.Delete(k)
			}
			return nil
		}
		for _, id := range ids {
			var c Check
			if err := decode(sub(tb, bChecks).Get(id), &c); err != nil {
				return fmt.Errorf("check %s: %w", id, err)
			}
			if c.Report != nil {
				for _, v := range c.Report.Claims {
					if v != nil {
						if err := forgetCache(sub(tb, bVerdicts), v.Claim, &st.Verdicts); err != nil {
							return err
						}
					}
				}
			}
			if err := forgetCache(sub(tb, bExtractions), c.Text, &st.Extractions); err != nil {
				return err
			}
			if err := deleteCheck(tb, summarize(&c)); err != nil {
				return err
			}
			st.Checks++
		}
		reqs, err := requestsWhere(tb, func(r *Request) bool { return r.User == user })
		if err != nil {
			return err
		}
		for _, r := range reqs {
			if err := deleteRequest(tb, r); err != nil {
				return err
			}
			if r.Text != "" {
				if err := forgetCache(sub(tb, bExtractions), r.Text, &st.Extractions); err != nil {
					return err
				}
			}
		}
		st.Requests = len(reqs)
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("forget: %w", err)
	}
	return st, nil
}
