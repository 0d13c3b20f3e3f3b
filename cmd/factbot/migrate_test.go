package main

import (
	"context"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/pgtest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/postgres"
)

// testPostgres creates an empty database (see pgtest), dropped at
// cleanup, and returns its URL.
func testPostgres(t *testing.T) string {
	t.Helper()
	return pgtest.DSN(t)
}

func TestMigrateCommand(t *testing.T) {
	dsn := testPostgres(t)
	e := newStEnv(t)
	c := stCheck("cli", "ann", "The Eiffel Tower is 330 m tall", stT0, factcheck.Supported)
	e.seed(c)
	for run := range 2 {
		stdout, stderr, code := e.run("migrate", "--from", e.path, "--to", dsn)
		if code != exitOK || !strings.Contains(stdout, "1 checks") || !strings.Contains(stdout, "The counts match") {
			t.Fatalf("migrate run %d: code %d, stdout %q, stderr %q", run, code, stdout, stderr)
		}
	}
	db, err := postgres.Open(context.Background(), dsn, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.Check(context.Background(), "cli", c.ID)
	if err != nil || got.Text != c.Text {
		t.Errorf("copied check: %+v, %v", got, err)
	}
	e.path = dsn // FACTBOT_DB=postgres://…
	if stdout, stderr, code := e.run("migrate"); code != exitOK || !strings.Contains(stdout, "up to date") {
		t.Errorf("migrate of FACTBOT_DB: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestMigrateUsage(t *testing.T) {
	e := newStEnv(t)
	if _, stderr, code := e.run("migrate"); code != exitUsage || !strings.Contains(stderr, "FACTBOT_DB") {
		t.Errorf("migrate of a bbolt FACTBOT_DB: code %d, stderr %q", code, stderr)
	}
	if _, _, code := e.run("migrate", "--to", "factbot.db"); code != exitUsage {
		t.Errorf("migrate --to a file: code %d", code)
	}
	if _, _, code := e.run("migrate", "--from", e.path+".missing", "--to", "postgres://x@/y"); code != exitUsage {
		t.Errorf("migrate --from a missing file: code %d", code)
	}
	if got := redact("postgres://factbot:s3cret@db:5432/factbot"); strings.Contains(got, "s3cret") {
		t.Errorf("redact = %q", got)
	}
}
