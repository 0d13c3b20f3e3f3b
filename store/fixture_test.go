package store_test

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/store"
)

var writeFixture = flag.Bool("write-fixture", false, "write testdata/layout3.db with this code (only for a new layout's fixture)")

// layout3 is a bbolt file written by factbot with the store's layout 3
// (schema version 3, before the store ran over drivers): every kind of
// record, an installation among them. layout5 is the same written with
// schema version 5, before the word index's IDs were packed.
const (
	layout3 = "testdata/layout3.db"
	layout5 = "testdata/layout5.db"
)

func TestWriteFixture(t *testing.T) {
	if !*writeFixture {
		t.Skip("-write-fixture not set")
	}
	os.Remove(layout3)
	db, err := store.Open(layout3, store.Options{Now: func() time.Time { return FixtureTime }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	FillFixture(t, db)
	kr, err := keyring.New(FixtureKey)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Installations(kr).Put(context.Background(), FixtureInstallation()); err != nil {
		t.Fatal(err)
	}
}

// TestOpenLayout opens a copy of each file written by an older factbot,
// upgrades it in place and reads every record back.
func TestOpenLayout(t *testing.T) {
	for _, old := range []string{layout3, layout5} {
		t.Run(filepath.Base(old), func(t *testing.T) { openLayout(t, old) })
	}
}

func openLayout(t *testing.T, old string) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	copyFile(t, old, path)
	for range 2 { // upgraded, then opened as it is
		db, err := store.Open(path, store.Options{Now: func() time.Time { return FixtureTime }})
		if err != nil {
			t.Fatal(err)
		}
		VerifyFixture(t, db)
		if err := store.CheckInvariants(db); err != nil { // the word index among them
			t.Error(err)
		}
		kr, err := keyring.New(FixtureKey)
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.Installations(kr).Get(context.Background(), "slack", "T1")
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(got, FixtureInstallation()); d != "" {
			t.Errorf("installation (-got +want):\n%s", d)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
