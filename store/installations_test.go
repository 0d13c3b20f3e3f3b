package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/internal/keyring"
)

func testKey(b byte) []byte { return bytes.Repeat([]byte{b}, keyring.KeySize) }

func openInstallDB(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

func TestInstallationsRoundTrip(t *testing.T) {
	ctx := context.Background()
	db, path := openInstallDB(t)
	kr, err := keyring.New(testKey(1))
	if err != nil {
		t.Fatal(err)
	}
	inst := &Installation{Platform: "slack", ID: "T1", Name: "One", BotUserID: "UB1", InstalledAt: time.Unix(1700000000, 0).UTC(),
		BotToken: "xoxb-secret-one", RefreshToken: "xoxe-refresh-one", ExpiresAt: time.Unix(1700043200, 0).UTC()}
	is := db.Installations(kr)
	if err := is.Put(ctx, inst); err != nil {
		t.Fatal(err)
	}
	got, err := is.Get(ctx, "slack", "T1")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(got, inst); d != "" {
		t.Errorf("round trip (-got +want):\n%s", d)
	}
	if _, err := is.Get(ctx, "slack", "T2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(T2) = %v, want ErrNotFound", err)
	}
	if n, _ := db.Installations(nil).Count(ctx, "slack"); n != 1 {
		t.Errorf("Count = %d, want 1", n)
	}
	// Another key cannot open it.
	other, _ := keyring.New(testKey(2))
	if _, err := db.Installations(other).Get(ctx, "slack", "T1"); !errors.Is(err, keyring.ErrNoKey) {
		t.Errorf("Get with another key = %v, want keyring.ErrNoKey", err)
	}
	if bad, err := db.Installations(other).Unopened(ctx); err != nil || !cmp.Equal(bad, []string{"slack:T1"}) {
		t.Errorf("Unopened with another key = %v, %v; want [slack:T1]", bad, err)
	}
	if bad, err := is.Unopened(ctx); err != nil || len(bad) != 0 {
		t.Errorf("Unopened with the key = %v, %v; want none", bad, err)
	}
	// The file never holds the tokens in clear.
	db.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"xoxb-secret-one", "xoxe-refresh-one", "secret-one", "refresh-one"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("database file holds %q in clear", secret)
		}
	}
	if !bytes.Contains(raw, []byte("UB1")) {
		t.Error("database file lacks the installation (the grep above would prove nothing)")
	}
}

func TestInstallationsRekey(t *testing.T) {
	ctx := context.Background()
	db, _ := openInstallDB(t)
	oldKR, _ := keyring.New(testKey(1))
	for _, id := range []string{"T1", "T2"} {
		if err := db.Installations(oldKR).Put(ctx, &Installation{Platform: "slack", ID: id, BotToken: "xoxb-" + id}); err != nil {
			t.Fatal(err)
		}
	}
	// Without the old key nothing changes.
	newOnly, _ := keyring.New(testKey(2))
	if _, err := db.Installations(newOnly).Rekey(ctx); !errors.Is(err, keyring.ErrNoKey) {
		t.Fatalf("Rekey without the old key = %v, want keyring.ErrNoKey", err)
	}
	rot, _ := keyring.New(testKey(2), testKey(1))
	st, err := db.Installations(rot).Rekey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(st, RekeyStats{Resealed: 2}); d != "" {
		t.Errorf("stats (-got +want):\n%s", d)
	}
	for _, id := range []string{"T1", "T2"} {
		got, err := db.Installations(newOnly).Get(ctx, "slack", id)
		if err != nil || got.BotToken != "xoxb-"+id {
			t.Errorf("after rekey, new key alone: %+v, %v", got, err)
		}
		if _, err := db.Installations(oldKR).Get(ctx, "slack", id); !errors.Is(err, keyring.ErrNoKey) {
			t.Errorf("after rekey, old key: %v, want keyring.ErrNoKey", err)
		}
	}
	st, err = db.Installations(rot).Rekey(ctx)
	if err != nil || st != (RekeyStats{Current: 2}) {
		t.Errorf("second rekey = %+v, %v", st, err)
	}
}

func TestInstallationsDeleteAndForgetTenant(t *testing.T) {
	ctx := context.Background()
	db, _ := openInstallDB(t)
	kr, _ := keyring.New(testKey(1))
	is := db.Installations(kr)
	for _, id := range []string{"T1", "T2"} {
		if err := is.Put(ctx, &Installation{Platform: "slack", ID: id, BotToken: "xoxb-" + id}); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := is.Delete(ctx, "slack", "T1"); !ok || err != nil {
		t.Errorf("Delete(T1) = %v, %v", ok, err)
	}
	if ok, _ := is.Delete(ctx, "slack", "T1"); ok {
		t.Error("Delete(T1) again found it")
	}
	st, err := db.ForgetTenant(ctx, "T2")
	if err != nil {
		t.Fatal(err)
	}
	if st.Installations != 1 {
		t.Errorf("ForgetTenant stats %+v, want 1 installation", st)
	}
	if _, err := is.Get(ctx, "slack", "T2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after ForgetTenant: %v, want ErrNotFound", err)
	}
}
