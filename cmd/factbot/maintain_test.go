package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// TestMaintenanceWhileServing: with the database held open as 'factbot
// serve' holds it (and serve's maintenance running), backup, forget and
// prune still work, through the admin socket next to the file.
func TestMaintenanceWhileServing(t *testing.T) {
	e := newStEnv(t)
	ann := stCheck("cli", "ann", "Ann's claim", stT0, factcheck.Supported)
	bob := stCheck("cli", "bob", "Bob's claim", stT0, factcheck.Contradicted)
	annT2 := stCheck("T2", "ann", "Ann's claim in a workspace", stT0, factcheck.Supported)
	e.seed(ann, bob, annT2)

	db, err := store.Open(e.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := maintain(ctx, &app{command: "serve", getenv: func(string) string { return "" }}, &config.Config{DB: e.path}, &boltFile{DB: db}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer stop()

	dst := filepath.Join(t.TempDir(), "copy.db")
	if stdout, stderr, code := e.run("backup", dst); code != exitOK || !strings.Contains(stdout, "Backed up") {
		t.Fatalf("backup while serving: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	copyDB, err := store.Open(dst, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := copyDB.Check(context.Background(), "cli", bob.ID); err != nil {
		t.Errorf("check in the backup made while serving: %v", err)
	}
	copyDB.Close()

	// Without --tenant, ann is forgotten in every tenant (listed through
	// the socket too).
	if stdout, stderr, code := e.run("forget", "--user", "ann"); code != exitOK || !strings.Contains(stdout, "user ann in 2 of 2 tenants, in all: 2 checks") {
		t.Fatalf("forget while serving: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, c := range []*store.Check{ann, annT2} {
		if _, err := db.Check(context.Background(), c.Tenant, c.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("ann's check in %s after forget = %v, want store.ErrNotFound", c.Tenant, err)
		}
	}
	if stdout, stderr, code := e.run("prune", "--older-than", "1h"); code != exitOK || !strings.Contains(stdout, "1 checks") {
		t.Errorf("prune while serving: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
