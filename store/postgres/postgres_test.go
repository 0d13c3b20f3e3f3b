package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// testDSNVar names the PostgreSQL the tests use; each test gets a new
// database there, dropped when it ends.
const testDSNVar = "FACTBOT_TEST_POSTGRES"

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

// newDatabase creates an empty database on the server of
// FACTBOT_TEST_POSTGRES (skipping the test when it is unset), drops it
// when the test ends, and returns its pool configuration.
func newDatabase(t testing.TB) *pgxpool.Config {
	t.Helper()
	dsn := os.Getenv(testDSNVar)
	if dsn == "" {
		t.Skip("no PostgreSQL: set FACTBOT_TEST_POSTGRES=postgres://… (in CI, .ci/run starts one; locally: apt-get install postgresql and see .ci/run)")
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("%s: %v", testDSNVar, err)
	}
	defer admin.Close(ctx)
	b := make([]byte, 6)
	rand.Read(b)
	name := "factbot_t_" + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Errorf("drop database %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.Database = name
	return cfg
}

func TestConformanceMaintained(t *testing.T) {
	storetest.RunMaintained(t, func(t *testing.T, now func() time.Time) storetest.Maintained {
		return openTest(t, store.Options{Now: now})
	})
}
