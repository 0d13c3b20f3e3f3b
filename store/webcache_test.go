package store

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
)

// putPage stores a page the way search.Reader does.
func putPage(t *testing.T, db *DB, url, sha string, at time.Time) *search.Page {
	t.Helper()
	p := &search.Page{URL: url, FinalURL: url, Title: "Page " + sha, Text: "What the page said (" + sha + ").", FetchedAt: at, SHA256: sha, Bytes: 100}
	val, err := json.Marshal(p)
	mustf(t, err, "marshal")
	mustf(t, db.Put(ctx, search.PageBucket, url, val), "put page")
	return p
}

// checkCiting is a check whose one verdict read the page with hash sha.
func checkCiting(tenant, user, claim, sha string, at time.Time) *Check {
	c := check(tenant, "C1", user, claim, at, map[string]factcheck.Label{claim: factcheck.Supported})
	c.Report.Claims[0].Sources = []factcheck.Source{{URL: "https://example.org/" + sha, Via: "read", FetchedAt: at, SHA256: sha, Cited: true}}
	return c
}

func TestWebCache(t *testing.T) {
	db, clk := newDB(t)
	want := putPage(t, db, "https://example.org/a", "aaaa", clk.Now())
	clk.Add(time.Hour)
	val, at, ok, err := db.Get(ctx, search.PageBucket, "https://example.org/a")
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
	if err := db.Put(ctx, "search", "q", []byte("not json")); err == nil {
		t.Error("Put of a non-JSON value: no error")
	}
}

func TestPruneWeb(t *testing.T) {
	db, clk := newDB(t)
	// Before the cutoff: a search answer, a page cited only by a check that
	// is pruned too, and a page still cited by a recent check.
	mustf(t, db.Put(ctx, "search", "tavily\x00old query", []byte(`{"results":[]}`)), "put search")
	putPage(t, db, "https://example.org/old", "old0", clk.Now())
	putPage(t, db, "https://example.org/cited", "cited0", clk.Now())
	oldCheck := checkCiting("T1", "U1", "Old claim", "old0", clk.Now())
	mustf(t, db.SaveCheck(ctx, oldCheck), "save old check")

	clk.Add(40 * 24 * time.Hour)
	// After: a fresh search answer and page, and a check answered from the
	// page cache, citing the old snapshot.
	mustf(t, db.Put(ctx, "search", "tavily\x00new query", []byte(`{"results":[]}`)), "put search")
	putPage(t, db, "https://example.org/new", "new0", clk.Now())
	recent := checkCiting("T2", "U1", "Recent claim", "cited0", clk.Now())
	mustf(t, db.SaveCheck(ctx, recent), "save recent check")

	st, err := db.Prune(ctx, clk.Now().Add(-30*24*time.Hour))
	mustf(t, err, "prune")
	// Gone: the old search answer, both old page cache entries, the old
	// snapshot.
	if diff := cmp.Diff(PruneStats{Checks: 1, Web: 4}, st); diff != "" {
		t.Errorf("prune stats (-want +got):\n%s", diff)
	}
	for _, k := range []struct {
		bucket, key string
		want        bool
	}{
		{"search", "tavily\x00old query", false},
		{search.PageBucket, "https://example.org/old", false},
		{search.PageBucket, "https://example.org/cited", false},
		{"search", "tavily\x00new query", true},
		{search.PageBucket, "https://example.org/new", true},
	} {
		if _, _, ok, err := db.Get(ctx, k.bucket, k.key); ok != k.want || err != nil {
			t.Errorf("Get(%s, %q) after prune: found %v (%v), want %v", k.bucket, k.key, ok, err, k.want)
		}
	}
	for sha, want := range map[string]bool{"old0": false, "cited0": true, "new0": true} {
		_, err := db.PageSnapshot(ctx, sha)
		if found := err == nil; found != want || err != nil && !errors.Is(err, ErrNotFound) {
			t.Errorf("snapshot %s after prune: %v, want found = %v", sha, err, want)
		}
	}
	// The web tenant got no check buckets from the prune.
	if h, err := db.History(ctx, WebTenant, HistoryQuery{}); err != nil || len(h) != 0 {
		t.Errorf("history of the web tenant: %v, %v", h, err)
	}
	mustf(t, db.checkInvariants(), "verify")
	// Pruning again removes nothing more.
	st, err = db.Prune(ctx, clk.Now().Add(-30*24*time.Hour))
	if err != nil || st != (PruneStats{}) {
		t.Errorf("second prune: %+v, %v", st, err)
	}
}
