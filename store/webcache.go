package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

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

// Get implements search.Cache.
func (db *DB) Get(ctx context.Context, bucket, key string) ([]byte, time.Time, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, time.Time{}, false, err
	}
	var e webEntry
	found := false
	err := db.bolt.View(func(tx *bolt.Tx) error {
		tb, err := tenantBucket(tx, WebTenant)
		if err != nil {
			return err
		}
		raw := get(sub(tb, bWebCache), []byte(bucket+"\x00"+key))
		if raw == nil {
			return nil
		}
		found = true
		return decode(raw, &e)
	})
	if err != nil || !found {
		return nil, time.Time{}, false, err
	}
	return e.Val, e.At, true, nil
}

// Put implements search.Cache. A page (bucket search.PageBucket) is also
// kept as a snapshot under its content hash, so an auditor can see what a
// page said when a verdict cited it, even after the page cache moves on.
func (db *DB) Put(ctx context.Context, bucket, key string, val []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
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
	return db.bolt.Update(func(tx *bolt.Tx) error {
		tb, err := tenantBucket(tx, WebTenant)
		if err != nil {
			return err
		}
		if err := sub(tb, bWebCache).Put([]byte(bucket+"\x00"+key), v); err != nil {
			return err
		}
		if hash != "" {
			return sub(tb, bSnapshots).Put([]byte(hash), v)
		}
		return nil
	})
}

// PageSnapshot returns the page whose body had the given SHA-256, as it
// was read, and when.
func (db *DB) PageSnapshot(ctx context.Context, sha256 string) (*search.Page, error) {
	var e webEntry
	found := false
	err := db.bolt.View(func(tx *bolt.Tx) error {
		tb, err := tenantBucket(tx, WebTenant)
		if err != nil {
			return err
		}
		raw := get(sub(tb, bSnapshots), []byte(sha256))
		if raw == nil {
			return nil
		}
		found = true
		return decode(raw, &e)
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, ErrNotFound
	}
	var p search.Page
	if err := json.Unmarshal(e.Val, &p); err != nil {
		return nil, fmt.Errorf("store: snapshot %s: %w", sha256, err)
	}
	return &p, nil
}

// pruneWeb removes web cache entries and snapshots stored before cutoff.
func pruneWeb(tx *bolt.Tx, cutoff time.Time) (int, error) {
	tb, err := tenantBucket(tx, WebTenant)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, name := range [][]byte{bWebCache, bSnapshots} {
		b := tb.Bucket(name)
		if b == nil {
			continue
		}
		var old [][]byte
		err := b.ForEach(func(k, raw []byte) error {
			var e webEntry
			if decode(raw, &e) != nil || e.At.Before(cutoff) {
				old = append(old, append([]byte(nil), k...))
			}
			return nil
		})
		if err != nil {
			return n, err
		}
		for _, k := range old {
			if err := b.Delete(k); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
