package store_test

import (
	"testing"
	"time"

	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

func TestConformance(t *testing.T) { storetest.Run(t, openChecked) }

// openChecked opens a database that checks its invariants when the test
// ends (before it is closed).
func openChecked(t *testing.T, now func() time.Time) storetest.Backend {
	db := storetest.Open(t, store.Options{Now: now})
	t.Cleanup(func() {
		if err := store.CheckInvariants(db); err != nil {
			t.Errorf("invariants: %v", err)
		}
	})
	return db
}

func TestConformanceMaintained(t *testing.T) {
	storetest.RunMaintained(t, func(t *testing.T, now func() time.Time) storetest.Maintained {
		return checkedDB{openChecked(t, now).(*store.DB)}
	})
}

// checkedDB lets the suite check bbolt's invariants between the steps of a
// test, not only at its end.
type checkedDB struct{ *store.DB }

func (c checkedDB) CheckInvariants() error { return store.CheckInvariants(c.DB) }
