package postgres

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/factbot-dev/factbot/internal/pgmigrate"
	"github.com/factbot-dev/factbot/store"
)

// TestConcurrentOpen: replicas starting together on a fresh database all
// open it, and each migration is applied once.
func TestConcurrentOpen(t *testing.T) {
	cfg := newDatabase(t)
	ms, err := pgmigrate.Read(migrations)
	mustf(t, err, "migrations")
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			db, err := OpenConfig(context.Background(), cfg.Copy(), store.Options{})
			if err == nil {
				db.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("open %d: %v", i, err)
		}
	}
	db, err := OpenConfig(ctx, cfg.Copy(), store.Options{})
	mustf(t, err, "open")
	defer db.Close()
	rows, err := db.pool.Query(ctx, "SELECT version FROM schema_migrations ORDER BY version")
	mustf(t, err, "query")
	got, err := pgx.CollectRows(rows, pgx.RowTo[int])
	mustf(t, err, "rows")
	if len(got) != len(ms) {
		t.Errorf("schema_migrations has %v, want each of %d migrations once", got, len(ms))
	}
	done, err := db.Migrate(ctx)
	if err != nil || len(done) != 0 {
		t.Errorf("Migrate on a migrated database = %v, %v; want nothing to do", done, err)
	}
}

// TestNewerSchema: a database migrated by a newer factbot is refused.
func TestNewerSchema(t *testing.T) {
	cfg := newDatabase(t)
	db, err := OpenConfig(ctx, cfg.Copy(), store.Options{})
	mustf(t, err, "open")
	_, err = db.pool.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_future')")
	db.Close()
	mustf(t, err, "insert")
	if _, err := OpenConfig(ctx, cfg.Copy(), store.Options{}); !errors.Is(err, store.ErrNewerSchema) {
		t.Errorf("open of a newer schema: %v, want ErrNewerSchema", err)
	}
}

func TestMigrationNames(t *testing.T) {
	ms, err := pgmigrate.Read(migrations)
	mustf(t, err, "migrations")
	if len(ms) == 0 || ms[0].Version != 1 {
		t.Fatalf("migrations = %+v", ms)
	}
	for i, m := range ms {
		if m.Version != i+1 {
			t.Errorf("migration %s: number %d, want %d (no gaps)", m.Name, m.Version, i+1)
		}
	}
}
