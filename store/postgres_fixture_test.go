package store_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbot-dev/factbot/internal/pgtest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/postgres"
)

// schema3 is a database filled by factbot with the schema of migrations 1
// to 3 (a table per record kind, before the store ran over drivers),
// dumped with pg_dump --inserts.
const schema3 = "postgres/testdata/schema3.sql"

func fixtureNow() time.Time { return FixtureTime }

func TestWritePostgresFixture(t *testing.T) {
	if !*writeFixture {
		t.Skip("-write-fixture not set")
	}
	dsn := pgtest.DSN(t)
	db, err := postgres.Open(context.Background(), dsn, store.Options{Now: fixtureNow})
	if err != nil {
		t.Fatal(err)
	}
	FillFixture(t, db)
	db.Close()
	out, err := exec.Command("pg_dump", "--inserts", "--no-owner", "--no-privileges", dsn).Output()
	if err != nil {
		t.Fatalf("pg_dump: %v", err)
	}
	if err := os.WriteFile(schema3, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// loadDump fills a new database with the SQL file and returns its URL.
func loadDump(t *testing.T, file string) string {
	t.Helper()
	dsn := pgtest.DSN(t)
	sql, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// pg_dump writes psql's \restrict lines, which are not SQL.
	var lines []string
	for _, l := range strings.Split(string(sql), "\n") {
		if !strings.HasPrefix(l, "\\") {
			lines = append(lines, l)
		}
	}
	if _, err := conn.Exec(ctx, strings.Join(lines, "\n"), pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatalf("load %s: %v", file, err)
	}
	return dsn
}

// TestMigrateSchema3 opens a database filled by an older factbot: the
// missing migrations are applied and every record reads back.
func TestMigrateSchema3(t *testing.T) {
	dsn := loadDump(t, schema3)
	for range 2 { // migrated, then opened as it is
		db, err := postgres.Open(context.Background(), dsn, store.Options{Now: fixtureNow})
		if err != nil {
			t.Fatal(err)
		}
		VerifyFixture(t, db)
		db.Close()
	}
}
