package storetest_test

import (
	"context"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

func TestMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) storetest.Backend { return storetest.NewMemoryAt(now) })
}

func TestMemoryMaintained(t *testing.T) {
	storetest.RunMaintained(t, func(t *testing.T, now func() time.Time) storetest.Maintained {
		return storetest.NewMemoryAt(now)
	})
}

// TestMemoryShared runs the suite over a memory driver that does not say
// it has one process, as PostgreSQL: leases are then records.
func TestMemoryShared(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) storetest.Backend {
		db, err := store.New(context.Background(), struct{ store.Driver }{store.NewMemoryDriver()}, store.Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return db
	})
}
