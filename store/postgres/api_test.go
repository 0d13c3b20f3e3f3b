package postgres

import (
	"errors"
	"slices"
	"testing"

	"github.com/factbot-dev/factbot/store"
)

func TestSaveChecksAndUserTenants(t *testing.T) {
	db, clk := newDB(t)
	cs := []*store.Check{{Tenant: "T2", Text: "a"}, {Tenant: "T1", Text: "b"}}
	mustf(t, db.SaveChecks(ctx, cs), "save checks")
	for _, c := range cs {
		if _, err := db.Check(ctx, c.Tenant, c.ID); err != nil || !c.CreatedAt.Equal(clk.Now()) {
			t.Errorf("check %s of %s: %v", c.ID, c.Tenant, err)
		}
	}
	_, err := db.AcceptRequest(ctx, &store.Request{Key: "k", Tenant: "T3"})
	mustf(t, err, "accept")
	mustf(t, db.Put(ctx, "search", "q", []byte(`{}`), nil), "put web")
	got, err := db.UserTenants(ctx)
	mustf(t, err, "tenants")
	if want := []string{"T1", "T2", "T3"}; !slices.Equal(got, want) {
		t.Errorf("UserTenants = %v, want %v", got, want)
	}
	if err := db.SaveChecks(ctx, []*store.Check{{Tenant: "T1", Text: "c"}, {Text: "no tenant"}}); !errors.Is(err, store.ErrNoTenant) {
		t.Errorf("SaveChecks with a check without a tenant: %v", err)
	}
	if h, _ := db.History(ctx, "T1", store.HistoryQuery{}); len(h) != 1 {
		t.Errorf("a failed SaveChecks saved %d checks of T1, want none beyond the first call's", len(h)-1)
	}
	if _, err := db.BackupFile(ctx, "x"); !errors.Is(err, store.ErrNoBackup) {
		t.Errorf("BackupFile: %v", err)
	}
}
