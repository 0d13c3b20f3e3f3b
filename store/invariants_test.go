package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// checkInvariants checks the file's page structure and the schema's
// invariants: every check has a summary and search text and its index
// entries (word index included), every index entry names a check, and the
// pending index matches the pending requests. It returns every violation
// found, joined.
func (db *DB) checkInvariants() error {
	var errs []error
	if bd, ok := db.drv.(*boltDriver); ok {
		bd.db.View(func(tx *bolt.Tx) error {
			for err := range tx.Check() {
				errs = append(errs, err)
			}
			return nil
		})
	}
	err := db.run(context.Background(), ModeView, func(tx *txn) error {
		for _, name := range tx.Tenants() {
			tenantErrs, err := tenantInvariants(name, &tenantTx{tx, name})
			errs = append(errs, tenantErrs...)
			if err != nil {
				errs = append(errs, err)
			}
		}
		return nil
	})
	return errors.Join(append(errs, err)...)
}

// tenantInvariants returns the violations in one tenant's bucket; err is
// for a check record that does not decode.
func tenantInvariants(name string, tb *tenantTx) (errs []error, err error) {
	want, errs, err := derivedRecords(name, tb)
	if err != nil {
		return errs, err
	}
	errs = append(errs, indexInvariants(name, tb, want)...)
	errs = append(errs, pendingInvariants(name, tb)...)
	errs = append(errs, feedbackInvariants(name, tb)...)
	errs = append(errs, vectorInvariants(name, tb)...)
	return errs, nil
}

// vectorInvariants checks that every vectors record of tenant bucket tb
// decodes and belongs to a stored check.
func vectorInvariants(name string, tb *tenantTx) []error {
	var errs []error
	checks := tb.Bucket(bChecks)
	tb.Bucket(bVectors).ForEach(func(k, v []byte) error {
		if _, err := decodeVectors(v); err != nil {
			errs = append(errs, fmt.Errorf("%s/vectors %q: %w", name, k, err))
		}
		if checks.Get(k) == nil {
			errs = append(errs, fmt.Errorf("%s/vectors %q: no such check", name, k))
		}
		return nil
	})
	return errs
}

// feedbackInvariants checks that every note of tenant bucket tb's feedback
// bucket decodes and belongs to a stored check.
func feedbackInvariants(name string, tb *tenantTx) []error {
	var errs []error
	fb, checks := tb.Bucket(bFeedback), tb.Bucket(bChecks)
	if fb == nil {
		return nil
	}
	fb.ForEach(func(k, v []byte) error {
		id, _, ok := bytes.Cut(k, []byte{0})
		var f Feedback
		if err := decode(v, &f); err != nil || !ok || len(k) != len(id)+5 {
			errs = append(errs, fmt.Errorf("%s/feedback %q: bad record", name, k))
		}
		if checks == nil || checks.Get(id) == nil {
			errs = append(errs, fmt.Errorf("%s/feedback %q: no such check", name, k))
		}
		return nil
	})
	return errs
}

// derivedRecords reads every check of tenant bucket tb, checks that its
// summary and search text are stored and current, and returns the index
// entries the checks call for: index bucket name → keys.
func derivedRecords(name string, tb *tenantTx) (want map[string]map[string]bool, errs []error, err error) {
	want = map[string]map[string]bool{}
	add := func(bucket []byte, key []byte) {
		if want[string(bucket)] == nil {
			want[string(bucket)] = map[string]bool{}
		}
		want[string(bucket)][string(key)] = true
	}
	checks, sums, text := tb.Bucket(bChecks), tb.Bucket(bSums), tb.Bucket(bText)
	if checks == nil {
		return want, nil, nil
	}
	err = checks.ForEach(func(k, v []byte) error {
		var c Check
		if err := decode(v, &c); err != nil {
			return fmt.Errorf("%s/check %s: %w", name, k, err)
		}
		if sums.Get(k) == nil || text.Get(k) == nil {
			errs = append(errs, fmt.Errorf("%s/check %s: no summary or text", name, k))
		}
		st := searchText(&c)
		if t := text.Get(k); t != nil && string(t) != st {
			errs = append(errs, fmt.Errorf("%s/check %s: stale search text", name, k))
		}
		ws := textWords([]byte(st))
		if ix := tb.tx.nat; ix != nil && len(ws) > 0 { // a native index: the check is found by its words
			if !slices.ContainsFunc(ix.FindWords(text.b, ws, 1<<20), func(id []byte) bool { return bytes.Equal(id, k) }) {
				errs = append(errs, fmt.Errorf("%s/check %s: not found by its words", name, k))
			}
			ws = nil
		}
		for _, w := range ws {
			add(bWords, wordKey(w, packID(string(k))))
		}
		for _, e := range indexEntries(summarize(&c)) {
			add(e.bucket, e.key)
		}
		return nil
	})
	for _, b := range []*bkt{sums, text} {
		if countKeys(b) != countKeys(checks) {
			errs = append(errs, fmt.Errorf("%s: derived bucket size differs from checks", name))
		}
	}
	return want, errs, err
}

// indexInvariants compares the index buckets of tenant bucket tb with the
// entries its checks call for.
func indexInvariants(name string, tb *tenantTx, want map[string]map[string]bool) []error {
	var errs []error
	for _, ib := range [][]byte{bByChannel, bByUser, bByVerdict, bWords} {
		got := 0
		if b := tb.Bucket(ib); b != nil {
			b.ForEach(func(k, v []byte) error {
				got++
				if !want[string(ib)][string(k)] {
					errs = append(errs, fmt.Errorf("%s/%s: stray entry %q", name, ib, k))
				}
				_, id, _ := bytes.Cut(k, []byte{0})
				if len(v) > 0 && !bytes.Equal(v, tb.Bucket(bSums).Get(id)) {
					errs = append(errs, fmt.Errorf("%s/%s: entry %q holds another summary than its check's", name, ib, k))
				}
				return nil
			})
		}
		if got != len(want[string(ib)]) {
			errs = append(errs, fmt.Errorf("%s/%s: %d entries, want %d", name, ib, got, len(want[string(ib)])))
		}
	}
	return errs
}

// pendingInvariants checks that the pending index of tenant bucket tb
// (or, on the native path, the requests' times) holds exactly
// the pending requests.
func pendingInvariants(name string, tb *tenantTx) []error {
	var errs []error
	pending := map[string]bool{}
	keyOf := pendingKey
	if tb.tx.nat != nil {
		if countKeys(tb.Bucket(bPending)) > 0 {
			errs = append(errs, fmt.Errorf("%s/pending: entries on the native path", name))
		}
		keyOf = func(r *Request) []byte { return []byte(r.Key) }
		for _, k := range pendingKeys(tb, 0) {
			pending[string(k)] = true
		}
	} else {
		tb.Bucket(bPending).ForEach(func(k, _ []byte) error {
			pending[string(bytes.Clone(k))] = true
			return nil
		})
	}
	if rb := tb.Bucket(bRequests); rb != nil {
		rb.ForEach(func(k, v []byte) error {
			var r Request
			if err := decode(v, &r); err != nil {
				errs = append(errs, fmt.Errorf("%s/request %s: %w", name, k, err))
				return nil
			}
			pk := string(keyOf(&r))
			if r.State == RequestPending != pending[pk] {
				errs = append(errs, fmt.Errorf("%s/request %s: state %s, pending entry %v", name, k, r.State, pending[pk]))
			}
			delete(pending, pk)
			return nil
		})
	}
	for k := range pending {
		errs = append(errs, fmt.Errorf("%s/pending: stray entry %q", name, k))
	}
	return errs
}
