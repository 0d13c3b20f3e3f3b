package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

func TestBackupCommand(t *testing.T) {
	e := newStEnv(t)
	c := stCheck("cli", "ann", "x", stT0, factcheck.Supported)
	e.seed(c)
	dst := filepath.Join(t.TempDir(), "copy.db")
	stdout, stderr, code := e.run("backup", dst)
	if code != exitOK || !strings.Contains(stdout, "Backed up") {
		t.Fatalf("backup: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	db, err := store.Open(dst, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Check(context.Background(), "cli", c.ID); err != nil {
		t.Errorf("check in the backup: %v", err)
	}
	db.Close()
	if _, stderr, code := e.run("backup", dst); code == exitOK || !strings.Contains(stderr, "already exists") {
		t.Errorf("backup over an existing file: code %d, stderr %q", code, stderr)
	}
	if _, stderr, code := e.run("backup", e.path); code != exitUsage || !strings.Contains(stderr, "the database itself") {
		t.Errorf("backup onto the database: code %d, stderr %q", code, stderr)
	}
	if _, _, code := e.run("backup"); code != exitUsage {
		t.Errorf("backup without FILE: code %d", code)
	}
}
