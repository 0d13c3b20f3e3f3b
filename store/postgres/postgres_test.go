package postgres

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/internal/pgtest"
	"github.com/factbot-dev/factbot/store"
)

// openTest opens the store in a new database.
func openTest(t testing.TB, opts store.Options) *DB {
	t.Helper()
	db, err := OpenConfig(context.Background(), newDatabase(t), opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newDatabase creates an empty database (see pgtest), dropped when the
// test ends, and returns its pool configuration.
func newDatabase(t testing.TB) *pgxpool.Config {
	t.Helper()
	return pgtest.Config(t)
}
