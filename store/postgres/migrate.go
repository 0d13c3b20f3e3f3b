package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/internal/pgmigrate"
	"github.com/factbot-dev/factbot/store"
)

// The schema's migrations: migrations/NNNN_name.sql, applied by
// internal/pgmigrate in order of their number, each in its own transaction
// that also records it in schema_migrations. A released file is never
// edited: a change is a new file.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations are the files of migrationFiles's folder.
var migrations, _ = fs.Sub(migrationFiles, "migrations")

// migrationLock is the advisory lock key under which migrations run, so
// replicas starting together apply each migration once.
const migrationLock int64 = 0x66616374626f74 // "factbot"

// Migrate applies the migrations the database lacks and returns the names
// of those it applied ('factbot migrate'); Open does the same.
func (db *DB) Migrate(ctx context.Context) ([]string, error) {
	return applyMigrations(ctx, db.pool)
}

// applyMigrations applies the missing migrations to a database of UTF-8.
// It refuses a database that a newer factbot migrated
// (store.ErrNewerSchema).
func applyMigrations(ctx context.Context, pool *pgxpool.Pool) ([]string, error) {
	var enc string
	if err := pool.QueryRow(ctx, "SHOW server_encoding").Scan(&enc); err != nil {
		return nil, err
	}
	if enc != "UTF8" {
		return nil, fmt.Errorf("the database's encoding is %s: factbot stores text as UTF-8; create the database with ENCODING 'UTF8'", enc)
	}
	done, err := pgmigrate.Apply(ctx, pool, migrations, migrationLock)
	if errors.Is(err, pgmigrate.ErrNewer) {
		err = fmt.Errorf("%w: %w", store.ErrNewerSchema, err)
	}
	return done, err
}
