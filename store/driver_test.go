package store_test

import (
	"path/filepath"
	"testing"

	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

func TestBoltDriver(t *testing.T) {
	storetest.RunDriver(t, func(t *testing.T) store.Driver {
		db, err := store.Open(filepath.Join(t.TempDir(), "factbot.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db.Driver()
	})
}

func TestMemoryDriver(t *testing.T) {
	storetest.RunDriver(t, func(t *testing.T) store.Driver { return store.NewMemoryDriver() })
}
