package postgres

import (
	"context"
	"crypto/sha256"
	"fmt"
	"time"
)

// onceTable holds the keys used once (UseOnce), by SHA-256, shared by
// every replica. It is created on first use.
const onceTable = `CREATE TABLE IF NOT EXISTS once_keys (
	key_hash bytea PRIMARY KEY,
	expires_ns bigint NOT NULL
)`

// UseOnce records key as used until expires and reports whether this is
// its first use, as store.DB.UseOnce does: the first of several replicas
// to use a key gets true, the others false. Expired keys are removed as it
// goes.
func (db *DB) UseOnce(ctx context.Context, key string, expires time.Time) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	h := sha256.Sum256([]byte(key))
	now := ns(db.now())
	if _, err := db.pool.Exec(ctx, onceTable); err != nil {
		return false, fmt.Errorf("store: use once: %w", ctxErr(ctx, err))
	}
	if _, err := db.pool.Exec(ctx, `DELETE FROM once_keys WHERE expires_ns <= $1`, now); err != nil {
		return false, fmt.Errorf("store: use once: %w", ctxErr(ctx, err))
	}
	tag, err := db.pool.Exec(ctx, `INSERT INTO once_keys (key_hash, expires_ns) VALUES ($1, $2) ON CONFLICT (key_hash) DO NOTHING`, h[:], ns(expires))
	if err != nil {
		return false, fmt.Errorf("store: use once: %w", ctxErr(ctx, err))
	}
	return tag.RowsAffected() == 1, nil
}
