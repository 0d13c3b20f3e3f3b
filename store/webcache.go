package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/factbot-dev/factbot/search"
)

// WebTenant is the reserved tenant that holds what factbot retrieved from
// the public web: search answers, extracted pages, and snapshots of pages
// by content hash. It records nothing of who asked; user records never use
// it.
const WebTenant = "_web"

var (
	bWebCache  = []byte("webcache")  // <bucket>\x00<key> → envelope(webEntry)
	bSnapshots = []byte("snapshots") // <sha256> → envelope(webEntry) of a search.Page
)

var _ search.Cache = (*DB)(nil)

type webEntry struct {
	At  time.Time       `json:"at"`
	Val json.RawMessage `json:"val"`
}

// Get implements search.Cache. rec is told of the entry read, fresh or not.
func (db *DB) Get(ctx context.Context, bucket, key string, rec search.Recorder) ([]byte, time.Time, bool, error) {
	k := []byte(webKey(bucket, key))
	e, err := db.webGet(ctx, bWebCache, k)
	if errors.Is(err, ErrNotFound) {
		return nil, time.Time{}, false, nil
	}
	if err != nil {
		return nil, time.Time{}, false, err
	}
	record(rec, RefWeb, k)
	return e.Val, e.At, true, nil
}

// Put implements search.Cache. A page (bucket search.PageBucket) is also
// kept as a snapshot under its content hash, so an auditor can see what a
// page said when a verdict cited it, even after the page cache moves on.
// rec is told of the entry and the snapshot written.
func (db *DB) Put(ctx context.Context, bucket, key string, val []byte, rec search.Recorder) error {
	if !json.Valid(val) {
		return fmt.Errorf("store: web cache value for %s is not JSON", bucket)
	}
	v, err := encode(webEntry{At: db.now().UTC(), Val: val})
	if err != nil {
		return err
	}
	var hash string
	if bucket == search.PageBucket {
		var p search.Page
		if json.Unmarshal(val, &p) == nil {
			hash = p.SHA256
		}
	}
	k := []byte(webKey(bucket, key))
	err = db.updateTenant(ctx, WebTenant, func(tb *tenantTx) error {
		if err := tb.Bucket(bWebCache).Put(k, v); err != nil {
			return err
		}
		if hash != "" {
			return tb.Bucket(bSnapshots).Put([]byte(hash), v)
		}
		return nil
	})
	if err != nil {
		return err
	}
	record(rec, RefWeb, k)
	record(rec, RefSnapshot, []byte(hash))
	return nil
}

// PageSnapshot returns the page whose body had the given SHA-256, as it
// was read, and when.
func (db *DB) PageSnapshot(ctx context.Context, sha256 string) (*search.Page, error) {
	e, err := db.webGet(ctx, bSnapshots, []byte(sha256))
	if err != nil {
		return nil, err
	}
	var p search.Page
	if err := json.Unmarshal(e.Val, &p); err != nil {
		return nil, fmt.Errorf("store: snapshot %s: %w", sha256, err)
	}
	return &p, nil
}

// webGet reads the entry under key in the web tenant's bucket b, or
// returns ErrNotFound.
func (db *DB) webGet(ctx context.Context, b, key []byte) (e webEntry, err error) {
	err = db.read(ctx, WebTenant, func(tb *tenantTx) error { return getRecord(tb.Bucket(b), key, &e) })
	return e, err
}

// pruneWeb removes web cache entries and snapshots stored before cutoff,
// and records that do not decode, except the snapshots whose hash is in
// keep.
func pruneWeb(tx *txn, cutoff time.Time, keep map[string]bool) (int, error) {
	wt := &tenantTx{tx, WebTenant}
	n := 0
	for _, name := range [][]byte{bWebCache, bSnapshots} {
		m, err := wt.Bucket(name).deleteIf(nil, func(k, raw []byte) (bool, error) {
			if bytes.Equal(name, bSnapshots) && keep[string(k)] {
				return false, nil
			}
			var e webEntry
			return decode(raw, &e) != nil || e.At.Before(cutoff), nil
		})
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// shaField precedes a content hash in the JSON of a factcheck.Source.
var shaField = []byte(`"sha256":"`)

// citedPages returns the hashes of the page snapshots stored before cutoff
// that the checks and cached verdicts of the tenants cite. It reads each
// tenant in its own read transaction, and not at all when no snapshot is
// that old.
func (db *DB) citedPages(ctx context.Context, cutoff time.Time, tenants []string) (map[string]bool, error) {
	old := map[string]bool{}
	err := db.view(ctx, WebTenant, func(tb *tenantTx) error {
		return tb.Bucket(bSnapshots).ForEach(func(k, raw []byte) error {
			var e webEntry
			if decode(raw, &e) == nil && e.At.Before(cutoff) {
				old[string(k)] = true
			}
			return nil
		})
	})
	if err != nil || len(old) == 0 {
		return nil, err
	}
	cited := map[string]bool{}
	for _, t := range tenants {
		err := db.view(ctx, t, func(tb *tenantTx) error {
			for _, name := range [][]byte{bChecks, bVerdicts} {
				// JSON strings escape their quotes, so the field name
				// only matches a field.
				tb.Bucket(name).ForEach(func(_, v []byte) error {
					v, _ = unpack(v)
					for i := bytes.Index(v, shaField); i >= 0; i = bytes.Index(v, shaField) {
						v = v[i+len(shaField):]
						if j := bytes.IndexByte(v, '"'); j >= 0 && old[string(v[:j])] {
							cited[string(v[:j])] = true
						}
					}
					return nil
				})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return cited, nil
}
