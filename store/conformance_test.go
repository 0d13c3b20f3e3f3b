package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/internal/pgtest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/postgres"
	"github.com/factbot-dev/factbot/store/storetest"
)

// drivers are the drivers every suite runs over: each opens a new, empty
// store (closed when t ends). PostgreSQL's is skipped without
// FACTBOT_TEST_POSTGRES; memory-shared is the memory driver without its
// one-process mark, so that leases are records, as on PostgreSQL.
var drivers = []struct {
	name string
	open func(t *testing.T, opts store.Options) *store.DB
}{
	{"bolt", openBolt},
	{"memory", func(t *testing.T, opts store.Options) *store.DB { return store.NewMemory(opts) }},
	{"memory-shared", func(t *testing.T, opts store.Options) *store.DB {
		db, err := store.New(context.Background(), struct{ store.Driver }{store.NewMemoryDriver()}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}},
	{"Postgres", openPostgres},
}

// openBolt opens a bbolt file that checks its invariants when the test
// ends (before it is closed).
func openBolt(t *testing.T, opts store.Options) *store.DB {
	db := storetest.Open(t, opts)
	t.Cleanup(func() {
		if err := store.CheckInvariants(db); err != nil {
			t.Errorf("invariants: %v", err)
		}
	})
	return db
}

func openPostgres(t *testing.T, opts store.Options) *store.DB {
	db, err := postgres.OpenConfig(context.Background(), pgtest.Config(t), opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db.DB
}

func TestConformance(t *testing.T) {
	for _, d := range drivers {
		t.Run(d.name, func(t *testing.T) {
			Run(t, func(t *testing.T, now func() time.Time) Backend { return d.open(t, store.Options{Now: now}) })
		})
	}
}

func TestConformanceMaintained(t *testing.T) {
	for _, d := range drivers {
		t.Run(d.name, func(t *testing.T) {
			RunMaintained(t, func(t *testing.T, now func() time.Time) Maintained {
				return checkedDB{d.open(t, store.Options{Now: now})}
			})
		})
	}
}

func TestDriver(t *testing.T) {
	for _, d := range drivers {
		t.Run(d.name, func(t *testing.T) {
			RunDriver(t, func(t *testing.T) store.Driver { return d.open(t, store.Options{}).Driver() })
		})
	}
}

// checkedDB lets the suite check bbolt's invariants between the steps of a
// test, not only at its end (the check reads every driver's records).
type checkedDB struct{ *store.DB }

func (c checkedDB) CheckInvariants() error { return store.CheckInvariants(c.DB) }

func TestOpenBoltPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Path() != path {
		t.Errorf("Path() = %q, want %q", db.Path(), path)
	}
}

// TestInstallations: the Slack installations, their tokens sealed, on
// every driver; ForgetTenant deletes the tenant's.
func TestInstallations(t *testing.T) {
	for _, d := range drivers {
		t.Run(d.name, func(t *testing.T) {
			ctx := context.Background()
			db := d.open(t, store.Options{})
			kr, err := keyring.New(FixtureKey)
			if err != nil {
				t.Fatal(err)
			}
			ins := db.Installations(kr)
			want := FixtureInstallation()
			if err := ins.Put(ctx, want); err != nil {
				t.Fatal(err)
			}
			got, err := ins.Get(ctx, "slack", "T1")
			if err != nil || got.BotToken != want.BotToken || got.RefreshToken != want.RefreshToken || got.Name != want.Name {
				t.Errorf("Get = %+v, %v; want %+v", got, err, want)
			}
			if n, err := db.Installations(nil).Count(ctx, "slack"); n != 1 || err != nil {
				t.Errorf("Count = %d, %v; want 1", n, err)
			}
			if _, err := db.ForgetTenant(ctx, "T1"); err != nil {
				t.Fatal(err)
			}
			if _, err := ins.Get(ctx, "slack", "T1"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("Get after ForgetTenant: %v, want ErrNotFound", err)
			}
		})
	}
}
