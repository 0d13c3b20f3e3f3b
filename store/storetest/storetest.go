// Package storetest helps tests of other packages use a real store: a
// database in a temporary directory, closed when the test ends.
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
