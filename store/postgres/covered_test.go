package postgres

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// TestMigrateCoveredIndexes: a database of migration 6, whose history
// index entries are empty, has them filled with their checks' summaries
// by migration 7; pages through them are the same before and after.
func TestMigrateCoveredIndexes(t *testing.T) {
	cfg := newDatabase(t)
	db, err := OpenConfig(ctx, cfg.Copy(), store.Options{})
	mustf(t, err, "open")
	for i, text := range []string{"one", "two", "three"} {
		c := &store.Check{Tenant: "T1", Channel: "C1", User: "U1", Text: text,
			Report: &factcheck.Report{Claims: []*factcheck.Verdict{{Claim: text, Verdict: factcheck.Supported}}}}
		c.CreatedAt = time.Date(2026, 1, 1+i, 0, 0, 0, 0, time.UTC)
		mustf(t, db.SaveCheck(ctx, c), "save")
	}
	pages := func() (out [][]store.CheckSummary) {
		for _, q := range []store.HistoryQuery{{User: "U1"}, {Channel: "C1"}, {Verdict: factcheck.Supported}} {
			h, err := db.History(ctx, "T1", q)
			mustf(t, err, "history")
			out = append(out, h)
		}
		return out
	}
	want := pages()
	covered := func() (n int) {
		mustf(t, db.pool.QueryRow(ctx, "SELECT count(*) FROM records WHERE bucket LIKE 'by\\_%' AND value <> ''").Scan(&n), "count")
		return n
	}
	if n := covered(); n != 9 {
		t.Fatalf("%d index entries hold a summary, want all 9", n)
	}
	_, err = db.pool.Exec(ctx, "UPDATE records SET value = '' WHERE bucket LIKE 'by\\_%'; DELETE FROM schema_migrations WHERE version = 7")
	mustf(t, err, "back to migration 6")
	if diff := cmp.Diff(pages(), want); diff != "" {
		t.Errorf("pages through empty entries (-got +want):\n%s", diff)
	}
	db.Close()
	db, err = OpenConfig(ctx, cfg.Copy(), store.Options{})
	mustf(t, err, "open again")
	defer db.Close()
	if n := covered(); n != 9 {
		t.Errorf("after migration 7: %d index entries hold a summary, want 9", n)
	}
	if diff := cmp.Diff(pages(), want); diff != "" {
		t.Errorf("pages after migration 7 (-got +want):\n%s", diff)
	}
}
