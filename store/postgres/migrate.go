package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/store"
)

// The schema's migrations: migrations/NNNN_name.sql, applied in order of
// their number, each in its own transaction that also records it in
// schema_migrations. A released file is never edited: a change is a new
// file.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the advisory lock key under which migrations run, so
// replicas starting together apply each migration once.
const migrationLock int64 = 0x66616374626f74 // "factbot"

// migration is one numbered SQL file.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations in order.
func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, n := range names {
		base := path.Base(n)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name is not NNNN_name.sql", base)
		}
		b, err := migrationFiles.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: strings.TrimSuffix(base, ".sql"), sql: string(b)})
	}
	slices.SortFunc(out, func(a, b migration) int { return a.version - b.version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s have the same number", out[i-1].name, out[i].name)
		}
	}
	return out, nil
}

// Migrate applies the migrations the database lacks and returns the names
// of those it applied ('factbot migrate'); Open does the same.
func (db *DB) Migrate(ctx context.Context) ([]string, error) {
	return applyMigrations(ctx, db.pool)
}

// applyMigrations applies the missing migrations holding the advisory
// lock on one connection. It refuses a database that a newer factbot
// migrated (store.ErrNewerSchema).
func applyMigrations(ctx context.Context, pool *pgxpool.Pool) ([]string, error) {
	ms, err := migrations()
	if err != nil {
		return nil, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	var enc string
	if err := conn.QueryRow(ctx, "SHOW server_encoding").Scan(&enc); err != nil {
		return nil, err
	}
	if enc != "UTF8" {
		return nil, fmt.Errorf("the database's encoding is %s: factbot stores text as UTF-8; create the database with ENCODING 'UTF8'", enc)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return nil, fmt.Errorf("schema lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	_, err = conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    integer PRIMARY KEY,
	name       text NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now()
)`)
	if err != nil {
		return nil, fmt.Errorf("schema_migrations: %w", err)
	}
	rows, err := conn.Query(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, err
	}
	applied, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return nil, err
	}
	if len(applied) > 0 && len(ms) > 0 && slices.Max(applied) > ms[len(ms)-1].version {
		return nil, fmt.Errorf("%w: schema version %d, this factbot knows up to %d", store.ErrNewerSchema, slices.Max(applied), ms[len(ms)-1].version)
	}
	var done []string
	for _, m := range ms {
		if slices.Contains(applied, m.version) {
			continue
		}
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.version, m.name)
			return err
		})
		if err != nil {
			return done, fmt.Errorf("migration %s: %w", m.name, err)
		}
		done = append(done, m.name)
	}
	return done, nil
}
