package store

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"
)

// bOnce holds the keys used once (UseOnce): SHA-256 of the key → its
// expiry (Unix nanoseconds, big-endian). It has no tenant: a key is used
// before anyone knows which tenant it leads to (an install's state).
var bOnce = []byte("once")

// maxOnceSweep bounds the expired keys one UseOnce removes.
const maxOnceSweep = 100

// UseOnce records key as used until expires and reports whether this is
// its first use: true once, false for every later use before it expires
// (an OAuth install state, accepted once on every replica: drivers shared
// by replicas run updates serializably). Keys past their expiry are
// removed as it goes.
func (db *DB) UseOnce(ctx context.Context, key string, expires time.Time) (bool, error) {
	h := sha256.Sum256([]byte(key))
	now := db.now().UnixNano()
	first := false
	err := db.update(ctx, func(tx *txn) error {
		first = false
		b := global(tx, bOnce)
		if v := b.Get(h[:]); len(v) == 8 && int64(binary.BigEndian.Uint64(v)) > now {
			return nil
		}
		first = true
		if err := sweepOnce(b, now); err != nil {
			return err
		}
		return b.Put(h[:], binary.BigEndian.AppendUint64(nil, uint64(expires.UnixNano())))
	})
	if err != nil {
		return false, fmt.Errorf("store: use once: %w", err)
	}
	return first, nil
}

// sweepOnce deletes up to maxOnceSweep expired keys.
func sweepOnce(b *bkt, now int64) error {
	n := 0
	_, err := b.deleteIf(nil, func(_, v []byte) (bool, error) {
		old := n < maxOnceSweep && (len(v) != 8 || int64(binary.BigEndian.Uint64(v)) <= now)
		if old {
			n++
		}
		return old, nil
	})
	return err
}
