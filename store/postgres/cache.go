package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

var (
	_ factcheck.Cache = (*DB)(nil)
	_ search.Cache    = (*DB)(nil)
)

// Verdict returns the tenant's cached verdict for the claim (matched after
// store.Normalize) if it was made less than maxAge ago (maxAge <= 0: the
// Options.CacheTTL). The verdict has Cached set and keeps its original
// CheckedAt.
func (db *DB) Verdict(ctx context.Context, tenant, claim string, maxAge time.Duration) (*factcheck.Verdict, bool, error) {
	var e store.CachedVerdict
	ok, err := db.getCached(ctx, tenant, store.RefVerdict, claim, maxAge, &e, func() time.Time { return e.At })
	if err != nil || !ok || e.Verdict == nil {
		return nil, false, err
	}
	e.Verdict.Cached = true
	return e.Verdict, true, nil
}

// PutVerdict caches v under its normalised claim, as store.VerdictRecord
// says (what (*store.DB).PutVerdict caches too).
func (db *DB) PutVerdict(ctx context.Context, tenant string, v *factcheck.Verdict) error {
	rec := store.VerdictRecord(v, db.now())
	if rec == nil {
		return nil
	}
	return db.putCached(ctx, tenant, store.RefVerdict, v.Claim, rec.At, rec)
}

// Extraction returns the tenant's cached extraction of text if it was
// made less than maxAge ago.
func (db *DB) Extraction(ctx context.Context, tenant, text string, maxAge time.Duration) (*factcheck.Extraction, bool, error) {
	var e store.CachedExtraction
	ok, err := db.getCached(ctx, tenant, store.RefExtraction, text, maxAge, &e, func() time.Time { return e.At })
	if err != nil || !ok || e.Extraction == nil {
		return nil, false, err
	}
	return e.Extraction, true, nil
}

// PutExtraction caches the extraction of text.
func (db *DB) PutExtraction(ctx context.Context, tenant, text string, x *factcheck.Extraction) error {
	rec := store.ExtractionRecord(text, x, db.now())
	if rec == nil {
		return nil
	}
	return db.putCached(ctx, tenant, store.RefExtraction, text, rec.At, rec)
}

func (db *DB) getCached(ctx context.Context, tenant, kind, text string, maxAge time.Duration, into any, at func() time.Time) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if tenant == "" {
		return false, fmt.Errorf("cache %s: %w", kind, store.ErrNoTenant)
	}
	if maxAge <= 0 {
		maxAge = db.ttl
	}
	key := store.CacheKey(text)
	var rec string
	err := db.pool.QueryRow(ctx, "SELECT record::text FROM cache WHERE tenant = $1 AND kind = $2 AND key = $3",
		pgText(tenant), kind, pgText(key)).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err == nil {
		err = fromJSONB(rec, into)
	}
	if err != nil {
		return false, fmt.Errorf("cache %s: %w", kind, ctxErr(ctx, err))
	}
	if db.now().Sub(at()) >= maxAge {
		return false, nil
	}
	store.NoteCache(ctx, kind, key)
	return true, nil
}

func (db *DB) putCached(ctx context.Context, tenant, kind, text string, at time.Time, e any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if tenant == "" {
		return fmt.Errorf("cache %s: %w", kind, store.ErrNoTenant)
	}
	key := store.CacheKey(text)
	if key == "" {
		return nil
	}
	rec, err := toJSONB(e)
	if err != nil {
		return err
	}
	if err := putCacheRow(ctx, db.pool, tenant, kind, key, at, rec); err != nil {
		return fmt.Errorf("cache %s: %w", kind, ctxErr(ctx, err))
	}
	store.NoteCache(ctx, kind, key)
	return nil
}

// execer is a pool, connection or transaction.
type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

func putCacheRow(ctx context.Context, db execer, tenant, kind, key string, at time.Time, rec string) error {
	_, err := db.Exec(ctx, `INSERT INTO cache (tenant, kind, key, at_ns, record) VALUES ($1, $2, $3, $4, $5::jsonb)
ON CONFLICT (tenant, kind, key) DO UPDATE SET at_ns = EXCLUDED.at_ns, record = EXCLUDED.record`,
		pgText(tenant), kind, pgText(key), ns(at), rec)
	return err
}

// webEntry is a record of the web cache: the value and when it was
// stored.
type webEntry struct {
	At  time.Time
	Val json.RawMessage
}

// Get implements search.Cache: the shared web cache of every replica.
func (db *DB) Get(ctx context.Context, bucket, key string) ([]byte, time.Time, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, time.Time{}, false, err
	}
	k := store.WebKey(bucket, key)
	e, found, err := db.webGet(ctx, "webcache", "key", k)
	if err != nil || !found {
		return nil, time.Time{}, false, err
	}
	store.NoteCache(ctx, store.RefWeb, k)
	return e.Val, e.At, true, nil
}

// Put implements search.Cache. A page (bucket search.PageBucket) is also
// kept as a snapshot under its content hash.
func (db *DB) Put(ctx context.Context, bucket, key string, val []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !json.Valid(val) {
		return fmt.Errorf("store: web cache value for %s is not JSON", bucket)
	}
	var hash string
	if bucket == search.PageBucket {
		var p search.Page
		if json.Unmarshal(val, &p) == nil {
			hash = p.SHA256
		}
	}
	k := store.WebKey(bucket, key)
	at := db.now().UTC()
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := putWeb(ctx, tx, store.RefWeb, k, at, val); err != nil {
			return err
		}
		if hash != "" {
			return putWeb(ctx, tx, store.RefSnapshot, hash, at, val)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("web cache: %w", ctxErr(ctx, err))
	}
	store.NoteCache(ctx, store.RefWeb, k)
	store.NoteCache(ctx, store.RefSnapshot, hash)
	return nil
}

// putWeb upserts a web cache entry (kind store.RefWeb) or a snapshot
// (store.RefSnapshot).
func putWeb(ctx context.Context, db execer, kind, key string, at time.Time, val []byte) error {
	table, col := "webcache", "key"
	if kind == store.RefSnapshot {
		table, col = "snapshots", "sha256"
	}
	_, err := db.Exec(ctx, `INSERT INTO `+table+` (`+col+`, at_ns, val) VALUES ($1, $2, $3::jsonb)
ON CONFLICT (`+col+`) DO UPDATE SET at_ns = EXCLUDED.at_ns, val = EXCLUDED.val`,
		pgText(key), ns(at), jsonText(val))
	return err
}

// PageSnapshot returns the page whose body had the given SHA-256, as it
// was read, or an error wrapping store.ErrNotFound.
func (db *DB) PageSnapshot(ctx context.Context, sha256 string) (*search.Page, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e, found, err := db.webGet(ctx, "snapshots", "sha256", sha256)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, store.ErrNotFound
	}
	var p search.Page
	if err := json.Unmarshal(e.Val, &p); err != nil {
		return nil, fmt.Errorf("store: snapshot %s: %w", sha256, err)
	}
	return &p, nil
}

func (db *DB) webGet(ctx context.Context, table, col, key string) (webEntry, bool, error) {
	var at int64
	var val string
	err := db.pool.QueryRow(ctx, "SELECT at_ns, val::text FROM "+table+" WHERE "+col+" = $1", pgText(key)).Scan(&at, &val)
	if errors.Is(err, pgx.ErrNoRows) {
		return webEntry{}, false, nil
	}
	if err != nil {
		return webEntry{}, false, fmt.Errorf("web cache: %w", ctxErr(ctx, err))
	}
	return webEntry{At: time.Unix(0, at).UTC(), Val: json.RawMessage(rawJSON(val))}, true, nil
}
