package postgres

import (
	"slices"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/store"
)

// TestMigrateWords: a database of migration 4 (its search texts without
// words, the store's own word index beside them) is indexed by migration
// 5, whose searches then find what the old index found.
func TestMigrateWords(t *testing.T) {
	cfg := newDatabase(t)
	db, err := OpenConfig(ctx, cfg.Copy(), store.Options{})
	mustf(t, err, "open")
	long := strings.Repeat("é", 40) // indexed by its first 64 bytes
	for _, text := range []string{"The Eiffel Tower", "Towers of Paris", long + " is long"} {
		mustf(t, db.SaveCheck(ctx, &store.Check{Tenant: "T1", Text: text}), "save")
	}
	_, err = db.pool.Exec(ctx, `ALTER TABLE records DROP COLUMN words;
DELETE FROM schema_migrations WHERE version = 5;
INSERT INTO records VALUES ('T1', 'words', 'tower'::bytea || '\x00'::bytea || 'id'::bytea, '')`)
	db.Close()
	mustf(t, err, "back to migration 4")
	db, err = OpenConfig(ctx, cfg.Copy(), store.Options{})
	mustf(t, err, "open again")
	defer db.Close()
	for search, want := range map[string][]string{"tower": {"The Eiffel Tower", "Towers of Paris"}, "tow eiff": {"The Eiffel Tower"}, long: {long + " is long"}, long + "x": nil, "paris of": {"Towers of Paris"}} {
		h, err := db.History(ctx, "T1", store.HistoryQuery{Search: search})
		mustf(t, err, "history")
		var got []string
		for _, s := range h {
			got = append(got, s.Text)
		}
		if slices.Sort(got); !slices.Equal(got, want) {
			t.Errorf("History(%q) = %q, want %q", search, got, want)
		}
	}
	var n int
	mustf(t, db.pool.QueryRow(ctx, "SELECT count(*) FROM records WHERE bucket = 'words'").Scan(&n), "count")
	if n != 0 {
		t.Errorf("the old word index kept %d entries", n)
	}
}
