package store

import (
	"bytes"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// verify checks the file's page structure and the schema's invariants:
// every check has a summary and search text and its index entries (word
// index included), every index entry names a check, and the pending index matches the pending
// requests.
func (db *DB) verify() error {
	return db.bolt.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		root := tx.Bucket(bTenants)
		err := root.ForEachBucket(func(name []byte) error {
			tb := root.Bucket(name)
			checks, sums, text := tb.Bucket(bChecks), tb.Bucket(bSums), tb.Bucket(bText)
			want := map[string]map[string]bool{} // index bucket -> keys
			if checks != nil {
				err := checks.ForEach(func(k, v []byte) error {
					var c Check
					if err := decode(v, &c); err != nil {
						return fmt.Errorf("%s/check %s: %w", name, k, err)
					}
					if sums.Get(k) == nil || text.Get(k) == nil {
						errs = append(errs, fmt.Errorf("%s/check %s: no summary or text", name, k))
					}
					if want[string(bWords)] == nil {
						want[string(bWords)] = map[string]bool{}
					}
					for _, w := range textWords([]byte(searchText(&c))) {
						want[string(bWords)][string(indexKey(w, string(k)))] = true
					}
					if t := text.Get(k); t != nil && string(t) != searchText(&c) {
						errs = append(errs, fmt.Errorf("%s/check %s: stale search text", name, k))
					}
					for _, e := range indexEntries(summarize(&c)) {
						if want[string(e.bucket)] == nil {
							want[string(e.bucket)] = map[string]bool{}
						}
						want[string(e.bucket)][string(e.key)] = true
					}
					return nil
				})
				if err != nil {
					return err
				}
			}
			for _, ib := range [][]byte{bByChannel, bByUser, bByVerdict, bWords} {
				got := 0
				if b := tb.Bucket(ib); b != nil {
					b.ForEach(func(k, _ []byte) error {
						got++
						if !want[string(ib)][string(k)] {
							errs = append(errs, fmt.Errorf("%s/%s: stray entry %q", name, ib, k))
						}
						return nil
					})
				}
				if got != len(want[string(ib)]) {
					errs = append(errs, fmt.Errorf("%s/%s: %d entries, want %d", name, ib, got, len(want[string(ib)])))
				}
			}
			for _, b := range []*bolt.Bucket{sums, text} {
				if b != nil && checks != nil && b.Stats().KeyN != checks.Stats().KeyN {
					errs = append(errs, fmt.Errorf("%s: derived bucket size differs from checks", name))
				}
			}
			pending := map[string]bool{}
			if p := tb.Bucket(bPending); p != nil {
				p.ForEach(func(k, _ []byte) error {
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
					pk := string(pendingKey(&r))
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
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	})
}
