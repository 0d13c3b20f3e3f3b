package pgtest_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/factbot-dev/factbot/internal/pgtest"
)

// TestDropWhileConnected: a database with a session still open on it (a
// pool the test forgot, a backend of another kind) is dropped all the same.
func TestDropWhileConnected(t *testing.T) {
	server := pgtest.ServerDSN(t)
	ctx := context.Background()
	name, drop, err := pgtest.Create(ctx, server, "factbot_drop_")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := pgx.ParseConfig(server)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Database = name
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "BEGIN; CREATE TABLE t (x int); LOCK TABLE t"); err != nil {
		t.Fatal(err)
	}
	if err := drop(); err != nil {
		t.Fatalf("drop: %v", err)
	}
	var n int
	if err := c.QueryRow(ctx, "SELECT 1").Scan(&n); err == nil {
		t.Error("the session on the dropped database still answers")
	}
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	if exists {
		t.Errorf("database %s still exists", name)
	}
}
