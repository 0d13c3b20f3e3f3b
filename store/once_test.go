package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/internal/pgtest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/postgres"
)

// useOnce is the store method the install flow needs.
type useOnce interface {
	UseOnce(ctx context.Context, key string, expires time.Time) (bool, error)
}

// testUseOnce: a key is used once until it expires, on every backend; a
// key past its expiry is forgotten.
func testUseOnce(t *testing.T, st useOnce, now *time.Time) {
	ctx := context.Background()
	exp := now.Add(10 * time.Minute)
	for i, want := range []bool{true, false, false} {
		if got, err := st.UseOnce(ctx, "state-a", exp); err != nil || got != want {
			t.Errorf("use %d of state-a = %v, %v; want %v", i+1, got, err, want)
		}
	}
	if got, err := st.UseOnce(ctx, "state-b", exp); err != nil || !got {
		t.Errorf("first use of state-b = %v, %v; want true", got, err)
	}
	*now = exp.Add(time.Second)
	if got, err := st.UseOnce(ctx, "state-c", now.Add(time.Minute)); err != nil || !got {
		t.Errorf("first use of state-c = %v, %v", got, err)
	}
	// state-a expired and was swept: the state itself has expired too, so
	// a new use is harmless, and the table does not grow for ever.
	if got, err := st.UseOnce(ctx, "state-a", now.Add(time.Minute)); err != nil || !got {
		t.Errorf("use of state-a after its expiry = %v, %v; want true (forgotten)", got, err)
	}
}

func TestUseOnceBolt(t *testing.T) {
	now := time.Now()
	db, err := store.Open(filepath.Join(t.TempDir(), "f.db"), store.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	testUseOnce(t, db, &now)
}

func TestUseOncePostgres(t *testing.T) {
	now := time.Now()
	db, err := postgres.OpenConfig(context.Background(), pgtest.Config(t), store.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	testUseOnce(t, db, &now)
}
