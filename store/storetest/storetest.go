// Package storetest helps test code that keeps records in a store: Open
// gives a real bbolt database in a temporary directory, Memory the same
// store over the in-memory driver. (The store's own suites, run over
// every driver, are the store package's tests.)
package storetest

import (
	"path/filepath"
	"testing"

	"github.com/factbot-dev/factbot/store"
)

// Open opens a new database in t.TempDir() and closes it at cleanup.
func Open(t testing.TB, opts store.Options) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "factbot.db"), opts)
	if err != nil {
		t.Fatalf("storetest.Open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("storetest: close: %v", err)
		}
	})
	return db
}
