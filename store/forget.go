package store

import (
	"bytes"
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

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
		if err := forgetChecks(tb, user, &st); err != nil {
			return err
		}
		return forgetRequests(tb, user, &st)
	})
	if err != nil {
		return st, fmt.Errorf("forget: %w", err)
	}
	return st, nil
}

// forgetChecks deletes the user's checks in tenant bucket tb, with the
// cached verdicts of their claims and the cached extractions of their
// texts.
func forgetChecks(tb *bolt.Bucket, user string, st *ForgetStats) error {
	var ids [][]byte
	err := walkDesc(sub(tb, bByUser), indexKey(user, ""), nil, func(id []byte) (bool, error) {
		ids = append(ids, bytes.Clone(id))
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		var c Check
		if err := decode(sub(tb, bChecks).Get(id), &c); err != nil {
			return fmt.Errorf("check %s: %w", id, err)
		}
		if c.Report != nil {
			for _, v := range c.Report.Claims {
				if v == nil {
					continue
				}
				if err := forgetCached(sub(tb, bVerdicts), v.Claim, &st.Verdicts); err != nil {
					return err
				}
			}
		}
		if err := forgetCached(sub(tb, bExtractions), c.Text, &st.Extractions); err != nil {
			return err
		}
		if err := deleteCheck(tb, summarize(&c)); err != nil {
			return err
		}
		st.Checks++
	}
	return nil
}

// forgetRequests deletes the user's requests in tenant bucket tb, pending
// ones too, with the cached extractions of their texts.
func forgetRequests(tb *bolt.Bucket, user string, st *ForgetStats) error {
	reqs, err := requestsWhere(tb, func(r *Request) bool { return r.User == user })
	if err != nil {
		return err
	}
	for _, r := range reqs {
		if err := deleteRequest(tb, r); err != nil {
			return err
		}
		if r.Text != "" {
			if err := forgetCached(sub(tb, bExtractions), r.Text, &st.Extractions); err != nil {
				return err
			}
		}
	}
	st.Requests = len(reqs)
	return nil
}

// forgetCached deletes the cache entry of text from b, if any, counting it
// in n.
func forgetCached(b *bolt.Bucket, text string, n *int) error {
	k := cacheKey(Normalize(text))
	if len(k) > 0 && b.Get(k) != nil {
		*n++
		return b.Delete(k)
	}
	return nil
}
