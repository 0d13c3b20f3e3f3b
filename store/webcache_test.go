package store

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/search"
)

// putPage stores a page the way search.Reader does.
func putPage(t *testing.T, db *DB, url, sha string, at time.Time) *search.Page {
	t.Helper()
	p := &search.Page{URL: url, FinalURL: url, Title: "Page " + sha, Text: "What the page said (" + sha + ").", FetchedAt: at, SHA256: sha, Bytes: 100}
	val, err := json.Marshal(p)
	mustf(t, err, "marshal")
	mustf(t, db.Put(ctx, search.PageBucket, url, val, nil), "put page")
	return p
}

func TestWebCache(t *testing.T) {
	db, clk := newDB(t)
	want := putPage(t, db, "https://example.org/a", "aaaa", clk.Now())
	clk.Add(time.Hour)
	val, at, ok, err := db.Get(ctx, search.PageBucket, "https://example.org/a", nil)
	if err != nil || !ok || !at.Equal(t0) {
		t.Fatalf("Get = %v, %v, %v", at, ok, err)
	}
	var got search.Page
	mustf(t, json.Unmarshal(val, &got), "unmarshal")
	if diff := cmp.Diff(want, &got); diff != "" {
		t.Errorf("cached page (-want +got):\n%s", diff)
	}
	snap, err := db.PageSnapshot(ctx, "aaaa")
	mustf(t, err, "snapshot")
	if diff := cmp.Diff(want, snap); diff != "" {
		t.Errorf("snapshot (-want +got):\n%s", diff)
	}
	// The page changes: the cache moves on, the old snapshot stays.
	putPage(t, db, "https://example.org/a", "bbbb", clk.Now())
	if snap, err := db.PageSnapshot(ctx, "aaaa"); err != nil || snap.Text != want.Text {
		t.Errorf("old snapshot after the page changed: %v, %v", snap, err)
	}
	if _, err := db.PageSnapshot(ctx, "cccc"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown snapshot: %v, want ErrNotFound", err)
	}
	if err := db.Put(ctx, "search", "q", []byte("not json"), nil); err == nil {
		t.Error("Put of a non-JSON value: no error")
	}
}
