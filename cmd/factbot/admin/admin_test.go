package admin_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/cmd/factbot/admin"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

var ctx = context.Background()

// t0 is the fake clock of the databases.
var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func mustf(t testing.TB, err error, format string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf(format+": %v", append(args, err)...)
	}
}

// fill writes checks and requests of two users and two tenants, some of
// them old, into the database at path.
func fill(t *testing.T, path string) {
	t.Helper()
	now := t0
	db, err := store.Open(path, store.Options{Now: func() time.Time { return now }})
	mustf(t, err, "open")
	defer db.Close()
	for i, spec := range []struct{ tenant, user, text string }{
		{"T1", "U1", "The Eiffel Tower is 330 m tall"},
		{"T1", "U2", "The moon is made of cheese"},
		{"T2", "U1", "Water boils at 100 C"},
		{"T1", "U1", "Bigfoot lives in Oregon"},
	} {
		now = t0.Add(time.Duration(i) * 30 * 24 * time.Hour)
		c := &store.Check{Tenant: spec.tenant, Channel: "C1", User: spec.user, Text: spec.text, CreatedAt: now,
			Report: &factcheck.Report{Input: spec.text, Claims: []*factcheck.Verdict{{Claim: spec.text, Verdict: factcheck.Supported, CheckedAt: now}}}}
		mustf(t, db.SaveCheck(ctx, c), "save")
		mustf(t, db.PutVerdict(ctx, spec.tenant, c.Report.Claims[0], nil), "put verdict")
		_, err := db.AcceptRequest(ctx, &store.Request{Key: "k" + c.ID, Tenant: spec.tenant, User: spec.user, Text: spec.text})
		mustf(t, err, "accept")
		mustf(t, db.FinishRequest(ctx, spec.tenant, "k"+c.ID, store.RequestDone, c.ID), "finish")
	}
}

// copyFile copies src to a new file dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	mustf(t, err, "read")
	mustf(t, os.WriteFile(dst, b, 0o600), "write")
}

// serve opens the database at path as 'factbot serve' does, with its admin
// server, and returns it; both are closed at the end of the test.
func serve(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	mustf(t, err, "serve: open")
	sctx, cancel := context.WithCancel(ctx)
	srv, err := admin.Start(sctx, path, db, admin.Options{})
	mustf(t, err, "serve: start admin")
	t.Cleanup(func() {
		cancel()
		srv.Close()
		db.Close()
	})
	return db
}

// history returns every check ID of the tenants, as the operator sees
// them.
func history(t *testing.T, db *store.DB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, tn := range []string{"T1", "T2"} {
		h, err := db.History(ctx, tn, store.HistoryQuery{})
		mustf(t, err, "history")
		for _, s := range h {
			out[tn] = append(out[tn], s.Text)
		}
	}
	return out
}

// TestLockedDatabase: while one process (here a goroutine's store) holds
// the file, a second Open returns ErrLocked; Open of package admin then
// falls back to the admin socket, and opens the file itself once it is
// free.
func TestLockedDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	fill(t, path)
	held := serve(t, path)
	_, err := store.Open(path, store.Options{Timeout: 10 * time.Millisecond})
	if !errors.Is(err, store.ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	st, closeStore, err := admin.Open(path, func() (*store.DB, error) {
		return store.Open(path, store.Options{Timeout: 10 * time.Millisecond})
	})
	mustf(t, err, "admin.Open of a held file")
	if _, ok := st.(*admin.Client); !ok {
		t.Errorf("admin.Open of a held file = %T, want *admin.Client", st)
	}
	mustf(t, closeStore(), "close client")
	_ = held

	free := filepath.Join(t.TempDir(), "free.db")
	fill(t, free)
	st, closeStore, err = admin.Open(free, func() (*store.DB, error) { return store.Open(free, store.Options{}) })
	mustf(t, err, "admin.Open of a free file")
	if _, ok := st.(*store.DB); !ok {
		t.Errorf("admin.Open of a free file = %T, want *store.DB", st)
	}
	mustf(t, closeStore(), "close db")

	// Nobody serves a locked file's socket: the lock error stays.
	_, _, err = admin.Open(free, func() (*store.DB, error) { return nil, store.ErrLocked })
	if !errors.Is(err, store.ErrLocked) {
		t.Errorf("admin.Open without a server: %v, want ErrLocked", err)
	}
}

// TestSocketMode: the admin socket is the owner's only.
func TestSocketMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	serve(t, path)
	fi, err := os.Stat(admin.SocketPath(path))
	mustf(t, err, "stat socket")
	if fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want a socket with 0600", fi.Mode())
	}
	// A second server on the same socket is refused.
	db2 := filepath.Join(filepath.Dir(path), "other.db")
	s2, err := store.Open(db2, store.Options{})
	mustf(t, err, "open other")
	defer s2.Close()
	if _, err := admin.Start(ctx, path, s2, admin.Options{}); err == nil {
		t.Error("second admin server on a socket in use: no error")
	}
}

// TestClientMatchesStore: backup, prune, forget and forget-tenant through
// the admin socket of a served database give the same results as the same
// calls on a copy of it opened directly.
func TestClientMatchesStore(t *testing.T) {
	dir := t.TempDir()
	served, direct := filepath.Join(dir, "served.db"), filepath.Join(dir, "direct.db")
	fill(t, served)
	copyFile(t, served, direct)
	sdb := serve(t, served)
	ddb, err := store.Open(direct, store.Options{})
	mustf(t, err, "open direct")
	defer ddb.Close()
	c, err := admin.Dial(served)
	mustf(t, err, "dial")
	defer c.Close()

	cutoff := t0.Add(45 * 24 * time.Hour)
	steps := []struct {
		name string
		run  func(st admin.Store) (any, error)
	}{
		{"tenants", func(st admin.Store) (any, error) { return st.UserTenants(ctx) }},
		{"forget", func(st admin.Store) (any, error) { return st.Forget(ctx, "T1", "U2") }},
		{"prune", func(st admin.Store) (any, error) { return st.Prune(ctx, cutoff) }},
		{"forget tenant", func(st admin.Store) (any, error) { return st.ForgetTenant(ctx, "T2") }},
	}
	for _, s := range steps {
		got, err := s.run(c)
		mustf(t, err, "%s through the socket", s.name)
		want, err := s.run(ddb)
		mustf(t, err, "%s directly", s.name)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: stats through the socket (-direct +socket):\n%s", s.name, diff)
		}
		if diff := cmp.Diff(history(t, ddb), history(t, sdb)); diff != "" {
			t.Errorf("after %s: history (-direct +socket):\n%s", s.name, diff)
		}
	}
	if h := history(t, sdb); len(h["T1"]) != 1 || len(h["T2"]) != 0 {
		t.Errorf("history after the steps = %v, want one T1 check", h)
	}

	// The backup, written by the server to a path relative to here, is a
	// consistent copy: it opens and holds what the served file holds.
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, filepath.Join(dir, "backup.db"))
	mustf(t, err, "rel")
	n, err := c.BackupFile(ctx, rel)
	mustf(t, err, "backup through the socket")
	fi, err := os.Stat(filepath.Join(dir, "backup.db"))
	mustf(t, err, "stat backup")
	if n <= 0 || fi.Size() != n {
		t.Errorf("backup wrote %d bytes, file has %d", n, fi.Size())
	}
	bdb, err := store.Open(filepath.Join(dir, "backup.db"), store.Options{})
	mustf(t, err, "open backup")
	defer bdb.Close()
	if diff := cmp.Diff(history(t, sdb), history(t, bdb)); diff != "" {
		t.Errorf("backup history (-served +backup):\n%s", diff)
	}
	if _, err := c.BackupFile(ctx, rel); err == nil {
		t.Error("backup over an existing file: no error")
	}
}

// TestBadRequests: the server refuses what it cannot do safely.
func TestBadRequests(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	fill(t, path)
	serve(t, path)
	c, err := admin.Dial(path)
	mustf(t, err, "dial")
	defer c.Close()
	if _, err := c.Forget(ctx, "T1", ""); err == nil {
		t.Error("forget of an empty user: no error")
	}
	if _, err := c.ForgetTenant(ctx, ""); err == nil {
		t.Error("forget of an empty tenant: no error")
	}
	if _, err := c.Prune(ctx, time.Time{}); err == nil {
		t.Error("prune without a cutoff: no error")
	}
	if _, err := admin.Dial(filepath.Join(t.TempDir(), "none.db")); !errors.Is(err, admin.ErrNoServer) {
		t.Errorf("Dial without a server: %v, want ErrNoServer", err)
	}
}
