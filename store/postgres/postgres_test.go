package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/postgres/pgtest"
	"github.com/factbot-dev/factbot/store/storetest"
)

func TestConformance(t *testing.T) { storetest.Run(t, openPostgres) }

func openPostgres(t *testing.T, now func() time.Time) storetest.Backend {
	return openTest(t, store.Options{Now: now})
}

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

func TestConformanceMaintained(t *testing.T) {
	storetest.RunMaintained(t, func(t *testing.T, now func() time.Time) storetest.Maintained {
		return openTest(t, store.Options{Now: now})
	})
}

func TestDriver(t *testing.T) {
	storetest.RunDriver(t, func(t *testing.T) store.Driver { return openTest(t, store.Options{}).Driver() })
}
