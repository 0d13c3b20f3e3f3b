// Package postgres is factbot's store on PostgreSQL, for several replicas
// sharing one database: the same records and rules as the bbolt store
// (package store), whose types it uses, with the same conformance suite
// (storetest.Run).
//
// Each record is a JSONB column next to the columns its queries filter and
// order on (see migrations/). Text columns that are compared or ordered use
// the "C" collation, so orders are bytewise as in bbolt. PostgreSQL text
// cannot hold a NUL character (and JSONB not the escape \u0000), which
// factbot's web cache keys contain: both are stored escaped (see pgText).
//
// The schema is versioned by numbered SQL files embedded in the binary and
// applied by Open under an advisory lock, so replicas starting together
// do not race (see migrate.go).
//
// Backups are PostgreSQL's own (pg_dump); Backup is bbolt's only.
package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/store"
)

// DB is a factbot store in a PostgreSQL database. It is safe for
// concurrent use, by several processes too.
type DB struct {
	pool *pgxpool.Pool
	ttl  time.Duration
	now  func() time.Time
}

// IsDSN reports whether FACTBOT_DB names a PostgreSQL database
// ("postgres://…" or "postgresql://…") rather than a bbolt file.
func IsDSN(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// DefaultMaxConns is the connection pool's size unless the DSN sets
// pool_max_conns: pgxpool's default (4 on a small machine) queues a burst
// of chat events behind a few commits.
const DefaultMaxConns = 16

// Open connects to the database dsn (a postgres:// URL or a key=value
// connection string) and applies the schema migrations it lacks. Of
// opts, CacheTTL and Now are used (Timeout bounds the connection attempt).
func Open(ctx context.Context, dsn string, opts store.Options) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if !strings.Contains(dsn, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	return OpenConfig(ctx, cfg, opts)
}

// OpenConfig is Open with a parsed pool configuration.
func OpenConfig(ctx context.Context, cfg *pgxpool.Config, opts store.Options) (*DB, error) {
	if opts.CacheTTL <= 0 {
		opts.CacheTTL = store.DefaultCacheTTL
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Timeout > 0 && cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = opts.Timeout
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", cfg.ConnConfig.Database, err)
	}
	db := &DB{pool: pool, ttl: opts.CacheTTL, now: opts.Now}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open database %s: %w", cfg.ConnConfig.Database, err)
	}
	return db, nil
}

// Close closes the connections.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// Pool returns the connection pool, for tests and tools.
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// ErrNoBackup is returned by Backup and BackupFile: a PostgreSQL database
// is backed up with PostgreSQL's own tools.
var ErrNoBackup = errors.New("backup: the database is PostgreSQL; use pg_dump, e.g. pg_dump -Fc -f factbot.dump \"$FACTBOT_DB\"")

// Backup is bbolt's only: it returns ErrNoBackup. pg_dump writes a
// consistent copy of a live database.
func (db *DB) Backup(context.Context, io.Writer) (int64, error) { return 0, ErrNoBackup }

// BackupFile is bbolt's only: it returns ErrNoBackup.
func (db *DB) BackupFile(context.Context, string) (int64, error) { return 0, ErrNoBackup }

// UserTenants lists every tenant that has records, the reserved web
// tenant aside, for operators' views across tenants.
func (db *DB) UserTenants(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows, err := db.pool.Query(ctx, `SELECT tenant FROM (SELECT tenant FROM checks UNION SELECT tenant FROM requests
	UNION SELECT tenant FROM cache) t WHERE tenant <> $1 ORDER BY tenant`, store.WebTenant)
	if err != nil {
		return nil, ctxErr(ctx, err)
	}
	ts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var t string
		err := r.Scan(&t)
		return fromText(t), err
	})
	if err != nil || len(ts) == 0 {
		return nil, ctxErr(ctx, err)
	}
	return ts, nil
}

// NUL and the escape character are stored as two characters of the
// Unicode private use area: esc+escEsc for esc itself, esc+escNUL for NUL.
const (
	esc    = "\uE000"
	escEsc = esc + "\uE001"
	escNUL = esc + "\uE002"
)

var (
	textEscaper   = strings.NewReplacer(esc, escEsc, "\x00", escNUL)
	textUnescaper = strings.NewReplacer(escEsc, esc, escNUL, "\x00")
	jsonUnescaper = strings.NewReplacer(escEsc, esc, escNUL, `\u0000`)
)

// pgText returns s as a text column holds it: valid UTF-8, NUL escaped.
func pgText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if !strings.Contains(s, "\x00") && !strings.Contains(s, esc) {
		return s
	}
	return textEscaper.Replace(s)
}

// fromText undoes pgText.
func fromText(s string) string {
	if !strings.Contains(s, esc) {
		return s
	}
	return textUnescaper.Replace(s)
}

// toJSONB marshals v to the text of a JSONB value: as encoding/json
// writes it, with each escaped NUL (\u0000) and each esc character
// replaced as pgText does.
func toJSONB(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return jsonText(b), nil
}

// jsonText escapes JSON text for JSONB (see toJSONB).
func jsonText(b []byte) string {
	s := string(b)
	if !strings.Contains(s, `\u0000`) && !strings.Contains(s, esc) {
		return s
	}
	var out strings.Builder
	for i := 0; i < len(s); {
		switch {
		case s[i] == '\\' && strings.HasPrefix(s[i:], `\u0000`):
			out.WriteString(escNUL)
			i += len(`\u0000`)
		case s[i] == '\\' && i+1 < len(s):
			out.WriteString(s[i : i+2]) // an escape: its second byte is not a new one
			i += 2
		case strings.HasPrefix(s[i:], esc):
			out.WriteString(escEsc)
			i += len(esc)
		default:
			out.WriteByte(s[i])
			i++
		}
	}
	return out.String()
}

// fromJSONB unmarshals the text of a JSONB value that toJSONB wrote.
func fromJSONB(s string, v any) error {
	return json.Unmarshal([]byte(rawJSON(s)), v)
}

// rawJSON undoes jsonText.
func rawJSON(s string) string {
	if !strings.Contains(s, esc) {
		return s
	}
	return jsonUnescaper.Replace(s)
}

// ns returns t in unix nanoseconds, clamped to what an int64 holds.
func ns(t time.Time) int64 {
	switch {
	case t.IsZero() || t.Year() < 1678:
		return math.MinInt64
	case t.Year() > 2261:
		return math.MaxInt64
	}
	return t.UnixNano()
}

// inTx runs fn in a transaction, committed if fn returns nil.
func (db *DB) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, db.pool, fn)
}

// ctxErr returns the context's error, preferring it to err: a query
// interrupted by a canceled context reports context.Canceled.
func ctxErr(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}
