// Package pgmigrate applies a PostgreSQL schema's versioned migrations:
// NNNN_name.sql files, applied in order of their number, each in its own
// transaction that also records it in the table schema_migrations, under an
// advisory lock so that processes starting together apply each one once.
// The store's PostgreSQL driver migrates its schema with it
// (store/postgres/migrate.go).
package pgmigrate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrNewer is wrapped by Apply when the database has a migration numbered
// above every one it was given: a newer program migrated it.
var ErrNewer = errors.New("the database was migrated by a newer version")

// Migration is one numbered SQL file.
type Migration struct {
	Version int
	Name    string // the file's name without .sql
	SQL     string
}

// Read returns the migrations of files, the NNNN_name.sql files at its
// root, in order.
func Read(files fs.FS) ([]Migration, error) {
	names, err := fs.Glob(files, "*.sql")
	if err != nil {
		return nil, err
	}
	var out []Migration
	for _, n := range names {
		num, _, ok := strings.Cut(n, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name is not NNNN_name.sql", n)
		}
		b, err := fs.ReadFile(files, n)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: v, Name: strings.TrimSuffix(n, ".sql"), SQL: string(b)})
	}
	slices.SortFunc(out, func(a, b Migration) int { return a.Version - b.Version })
	for i := 1; i < len(out); i++ {
		if out[i].Version == out[i-1].Version {
			return nil, fmt.Errorf("migrations %s and %s have the same number", out[i-1].Name, out[i].Name)
		}
	}
	return out, nil
}

// Locked runs fn on a connection of pool that holds the advisory lock key.
func Locked(ctx context.Context, pool *pgxpool.Pool, key int64, fn func(*pgx.Conn) error) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
		return fmt.Errorf("advisory lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", key)
	return fn(conn.Conn())
}

// Apply applies the migrations of files (see Read) that the database
// lacks, holding the advisory lock key, and returns the names of those it
// applied. It refuses a database a newer program migrated (ErrNewer).
func Apply(ctx context.Context, pool *pgxpool.Pool, files fs.FS, key int64) ([]string, error) {
	ms, err := Read(files)
	if err != nil {
		return nil, err
	}
	var done []string
	err = Locked(ctx, pool, key, func(conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    integer PRIMARY KEY,
	name       text NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now()
)`)
		if err != nil {
			return fmt.Errorf("schema_migrations: %w", err)
		}
		rows, err := conn.Query(ctx, "SELECT version FROM schema_migrations")
		if err != nil {
			return err
		}
		applied, err := pgx.CollectRows(rows, pgx.RowTo[int])
		if err != nil {
			return err
		}
		if len(applied) > 0 && len(ms) > 0 && slices.Max(applied) > ms[len(ms)-1].Version {
			return fmt.Errorf("%w: schema version %d, these migrations go up to %d", ErrNewer, slices.Max(applied), ms[len(ms)-1].Version)
		}
		for _, m := range ms {
			if slices.Contains(applied, m.Version) {
				continue
			}
			err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, m.SQL); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.Version, m.Name)
				return err
			})
			if err != nil {
				return fmt.Errorf("migration %s: %w", m.Name, err)
			}
			done = append(done, m.Name)
		}
		return nil
	})
	return done, err
}
