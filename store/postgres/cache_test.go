package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

var ctx = context.Background()

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

var cmpOpts = cmp.Options{cmpopts.IgnoreUnexported(factcheck.Verdict{}), cmpopts.EquateEmpty()}

func newDB(t *testing.T) (*DB, *storetest.Clock) {
	clk := storetest.NewClock(t0)
	return openTest(t, store.Options{Now: clk.Now}), clk
}

func mustf(t testing.TB, err error, format string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf(format+": %v", append(args, err)...)
	}
}

func verdict(claim string, l factcheck.Label, at time.Time) *factcheck.Verdict {
	return &factcheck.Verdict{
		Claim: claim, Verdict: l, Confidence: factcheck.High, Reasoning: "Sources agree on " + claim + ".",
		Evidence:  []factcheck.Evidence{{SourceURL: "https://example.org/a", SourceTitle: "A", Supports: true, QuoteOrSummary: "q"}},
		CheckedAt: at, Model: "m",
		Sources: []factcheck.Source{{URL: "https://example.org/a", Via: "read", FetchedAt: at, SHA256: "aaaa", Cited: true}},
		Trace:   []factcheck.TraceEvent{{At: at, Kind: "tool", Tool: "web_search", Args: `{"query":"` + claim + `"}`}},
	}
}

// TestCacheRecords: the cache methods note what they read and write in
// the recorder they are given, under the keys bbolt uses.
func TestCacheRecords(t *testing.T) {
	db, _ := newDB(t)
	rec := store.NewCacheRecorder()
	mustf(t, db.PutVerdict(ctx, "T1", verdict("Claim One", factcheck.Supported, t0), rec), "put verdict")
	mustf(t, db.Put(ctx, "search", "10\x00claim one", []byte(`{"results":[]}`), rec), "put web")
	if _, _, _, err := db.Get(ctx, "search", "10\x00claim one", rec); err != nil {
		t.Fatal(err)
	}
	want := []store.CacheRef{{Kind: store.RefVerdict, Key: "claim one"}, {Kind: store.RefWeb, Key: "search\x0010\x00claim one"}}
	if diff := cmp.Diff(want, rec.Refs()); diff != "" {
		t.Errorf("recorded refs (-want +got):\n%s", diff)
	}
}

func TestWebCache(t *testing.T) {
	db, clk := newDB(t)
	want := &search.Page{URL: "https://example.org/a", Title: "A", Text: "What the page said.", FetchedAt: t0, SHA256: "aaaa", Bytes: 100}
	val, _ := json.Marshal(want)
	mustf(t, db.Put(ctx, search.PageBucket, "https://example.org/a", val, nil), "put page")
	clk.Add(time.Hour)
	got, at, ok, err := db.Get(ctx, search.PageBucket, "https://example.org/a", nil)
	if err != nil || !ok || !at.Equal(t0) {
		t.Fatalf("Get = %v, %v, %v", at, ok, err)
	}
	var p search.Page
	mustf(t, json.Unmarshal(got, &p), "unmarshal")
	if diff := cmp.Diff(want, &p); diff != "" {
		t.Errorf("cached page (-want +got):\n%s", diff)
	}
	snap, err := db.PageSnapshot(ctx, "aaaa")
	mustf(t, err, "snapshot")
	if diff := cmp.Diff(want, snap); diff != "" {
		t.Errorf("snapshot (-want +got):\n%s", diff)
	}
	if _, err := db.PageSnapshot(ctx, "cccc"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown snapshot: %v, want ErrNotFound", err)
	}
	if err := db.Put(ctx, "search", "q", []byte("not json"), nil); err == nil {
		t.Error("Put of a non-JSON value: no error")
	}
	if _, _, ok, _ := db.Get(ctx, "search", "missing", nil); ok {
		t.Error("Get of a missing key: hit")
	}
}

// TestNUL: text PostgreSQL cannot hold (NUL, in keys and in JSON) and the
// character that escapes it round-trip unchanged.
func TestNUL(t *testing.T) {
	db, _ := newDB(t)
	odd := "a\x00b \uE000 \uE000\uE002 \\u0000 \\\x00 end"
	r := &store.Request{Key: "k\x00" + odd, Tenant: "T\x00", User: odd, Text: odd, Meta: map[string]string{odd: odd},
		CacheRefs: []store.CacheRef{{Kind: store.RefWeb, Key: "search\x0010\x00q"}}}
	isNew, err := db.AcceptRequest(ctx, r)
	mustf(t, err, "accept")
	if !isNew {
		t.Fatal("not new")
	}
	got, err := db.Request(ctx, r.Tenant, r.Key)
	mustf(t, err, "request")
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if ts, _ := db.Tenants(ctx); !cmp.Equal(ts, []string{r.Tenant}) {
		t.Errorf("Tenants = %q", ts)
	}
	c := &store.Check{Tenant: r.Tenant, User: odd, Channel: odd, Text: odd, RequestKey: r.Key, CreatedAt: t0}
	mustf(t, db.SaveCheck(ctx, c), "save")
	gc, err := db.Check(ctx, c.Tenant, c.ID)
	mustf(t, err, "check")
	if diff := cmp.Diff(c, gc, cmpOpts); diff != "" {
		t.Errorf("check (-want +got):\n%s", diff)
	}
	h, err := db.History(ctx, c.Tenant, store.HistoryQuery{User: odd, Channel: odd, Search: "end"})
	mustf(t, err, "history")
	if len(h) != 1 || h[0].Text != odd {
		t.Errorf("history = %+v", h)
	}
	mustf(t, db.Put(ctx, "search", "10\x00"+odd, []byte(`{"q":"\u0000\\u0000`+"\uE000"+`"}`), nil), "put web")
	val, _, ok, err := db.Get(ctx, "search", "10\x00"+odd, nil)
	if err != nil || !ok {
		t.Fatalf("web get: %v %v", ok, err)
	}
	var v struct{ Q string }
	mustf(t, json.Unmarshal(val, &v), "unmarshal")
	if v.Q != "\x00\\u0000\uE000" {
		t.Errorf("web value = %q", v.Q)
	}
}

func TestIsDSN(t *testing.T) {
	for s, want := range map[string]bool{
		"postgres://factbot@db/factbot": true, "postgresql://x": true,
		"factbot.db": false, "/var/lib/factbot/factbot.db": false, "postgres.db": false,
	} {
		if got := IsDSN(s); got != want {
			t.Errorf("IsDSN(%q) = %v", s, got)
		}
	}
}
