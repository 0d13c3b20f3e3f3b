// Package postgres is the store's driver for PostgreSQL, for several
// replicas sharing one database: the records of package store in one
// table (see driver.go and migrations/), every rule above it in package
// store, the same as on bbolt.
//
// The schema is versioned by numbered SQL files embedded in the binary and
// applied by Open under an advisory lock, so replicas starting together
// do not race (see migrate.go); a database of the older schema, a table
// per record kind, is read into the records table once (legacy.go).
//
// Backups are PostgreSQL's own (pg_dump); BackupFile is bbolt's only.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/store"
)

// DB is the store on a PostgreSQL database, with the chat core's shared
// rate limits (Take, Give). It is safe for concurrent use, by several
// processes too.
type DB struct {
	*store.DB
	pool *pgxpool.Pool
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
	if opts.Timeout > 0 && cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = opts.Timeout
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", cfg.ConnConfig.Database, err)
	}
	db := &DB{pool: pool}
	opts.AfterPrune = db.pruneRateEvents
	_, err = applyMigrations(ctx, pool)
	if err == nil {
		db.DB, err = store.New(ctx, &driver{pool: pool}, opts)
	}
	if err == nil {
		err = db.upgradeLegacy(ctx)
	}
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("open database %s: %w", cfg.ConnConfig.Database, err)
	}
	return db, nil
}

// ctxErr returns the context's error, preferring it to err: a query
// interrupted by a canceled context reports context.Canceled.
func ctxErr(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}
