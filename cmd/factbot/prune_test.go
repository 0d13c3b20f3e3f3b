package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

func mustOK(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestPruneCommand(t *testing.T) {
	e := newStEnv(t)
	old := stCheck("cli", "ann", "old", time.Now().Add(-40*24*time.Hour), factcheck.Supported)
	recent := stCheck("cli", "ann", "recent", time.Now().Add(-time.Hour), factcheck.Supported)
	e.seed(old, recent)
	// A page read 40 days ago and one read an hour ago.
	db, err := store.Open(e.path, store.Options{Now: func() time.Time { return time.Now().Add(-40 * 24 * time.Hour) }})
	mustOK(t, err)
	mustOK(t, db.Put(context.Background(), search.PageBucket, "https://example.org/old", []byte(`{"url":"https://example.org/old","sha256":"old0"}`), nil))
	mustOK(t, db.Close())
	db, err = store.Open(e.path, store.Options{})
	mustOK(t, err)
	mustOK(t, db.Put(context.Background(), search.PageBucket, "https://example.org/new", []byte(`{"url":"https://example.org/new","sha256":"new0"}`), nil))
	mustOK(t, db.Close())

	stdout, stderr, code := e.run("prune", "--older-than", "30d")
	if code != exitOK || !strings.Contains(stdout, ": 1 checks,") || !strings.Contains(stdout, ", 2 cached web results and page snapshots.") {
		t.Fatalf("prune: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	db, err = store.Open(e.path, store.Options{})
	mustOK(t, err)
	defer db.Close()
	if _, err := db.PageSnapshot(context.Background(), "old0"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("old snapshot after prune: %v", err)
	}
	if _, err := db.PageSnapshot(context.Background(), "new0"); err != nil {
		t.Errorf("recent snapshot after prune: %v", err)
	}
	db.Close()
	stdout, _, _ = e.run("history")
	if strings.Contains(stdout, old.ID) || !strings.Contains(stdout, recent.ID) {
		t.Errorf("history after prune:\n%s", stdout)
	}
	for _, args := range [][]string{{"prune"}, {"prune", "--older-than", "soon"}, {"prune", "--older-than", "0s"}} {
		if _, stderr, code := e.run(args...); code != exitUsage || stderr == "" {
			t.Errorf("%v: code %d, stderr %q", args, code, stderr)
		}
	}
}
