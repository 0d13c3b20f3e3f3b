package postgres

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// TestCopyFrom: a bbolt database copied into PostgreSQL reads the same,
// and copying it again changes nothing.
func TestCopyFrom(t *testing.T) {
	clk := storetest.NewClock(t0)
	src, err := store.Open(filepath.Join(t.TempDir(), "factbot.db"), store.Options{Now: clk.Now})
	mustf(t, err, "open bbolt")
	defer src.Close()
	var checks []*store.Check
	for i, tenant := range []string{"T1", "T1", "T2"} {
		clk.Add(time.Minute)
		r := &store.Request{Key: "k" + string(rune('a'+i)), Tenant: tenant, User: "U1", Text: "text " + string(rune('a'+i)),
			CacheRefs: []store.CacheRef{{Kind: store.RefWeb, Key: "search\x005\x00q"}}}
		_, err := src.AcceptRequest(ctx, r)
		mustf(t, err, "accept")
		v := verdict("claim "+string(rune('a'+i)), factcheck.Supported, clk.Now())
		c := &store.Check{Tenant: tenant, User: "U1", Channel: "C1", Text: r.Text, RequestKey: r.Key, CreatedAt: clk.Now(),
			Report: &factcheck.Report{Input: r.Text, Claims: []*factcheck.Verdict{v}}, Visibility: store.VisibilityPublic}
		mustf(t, src.SaveCheck(ctx, c), "save")
		mustf(t, src.AddFeedback(ctx, tenant, c.ID, store.Feedback{User: "U2", Note: "note"}), "feedback")
		mustf(t, src.PutVerdict(ctx, tenant, v, nil), "put verdict")
		mustf(t, src.PutExtraction(ctx, tenant, r.Text, &factcheck.Extraction{Claims: []factcheck.ExtractedClaim{{Claim: v.Claim}}}, nil), "put extraction")
		checks = append(checks, c)
	}
	mustf(t, src.FinishRequest(ctx, "T1", "ka", store.RequestDone, ""), "finish")
	page, _ := json.Marshal(&search.Page{URL: "https://example.org/a", Text: "page", SHA256: "aaaa"})
	mustf(t, src.Put(ctx, search.PageBucket, "https://example.org/a", page, nil), "put page")
	mustf(t, src.Put(ctx, "search", "5\x00q", []byte(`{"results":[]}`), nil), "put search")

	dst := openTest(t, store.Options{Now: clk.Now})
	want := CopyStats{Tenants: 2, Requests: 3, Checks: 3, Feedback: 3, Cache: 6, Web: 2, Snapshots: 1}
	for run := range 2 {
		st, err := dst.CopyFrom(ctx, src)
		mustf(t, err, "copy %d", run)
		if diff := cmp.Diff(want, st); diff != "" {
			t.Errorf("copy %d stats (-want +got):\n%s", run, diff)
		}
	}
	for _, c := range checks {
		want, err := src.Check(ctx, c.Tenant, c.ID)
		mustf(t, err, "src check")
		got, err := dst.Check(ctx, c.Tenant, c.ID)
		mustf(t, err, "dst check")
		if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
			t.Errorf("check %s (-bbolt +postgres):\n%s", c.ID, diff)
		}
		wr, _ := src.Request(ctx, c.Tenant, c.RequestKey)
		gr, err := dst.Request(ctx, c.Tenant, c.RequestKey)
		mustf(t, err, "dst request")
		if diff := cmp.Diff(wr, gr); diff != "" {
			t.Errorf("request %s (-bbolt +postgres):\n%s", c.RequestKey, diff)
		}
		wv, _, _ := src.Verdict(ctx, c.Tenant, c.Report.Claims[0].Claim, 0, nil)
		gv, ok, err := dst.Verdict(ctx, c.Tenant, c.Report.Claims[0].Claim, 0, nil)
		if err != nil || !ok {
			t.Fatalf("dst verdict: %v %v", ok, err)
		}
		if diff := cmp.Diff(wv, gv, cmpOpts); diff != "" {
			t.Errorf("verdict (-bbolt +postgres):\n%s", diff)
		}
		if _, ok, _ := dst.Extraction(ctx, c.Tenant, c.Text, 0, nil); !ok {
			t.Errorf("extraction of %q not copied", c.Text)
		}
	}
	for _, tenant := range []string{"T1", "T2"} {
		for _, q := range []store.HistoryQuery{{}, {Search: "text"}, {User: "U1", Verdict: factcheck.Supported}} {
			w, _ := src.History(ctx, tenant, q)
			g, err := dst.History(ctx, tenant, q)
			mustf(t, err, "history")
			if diff := cmp.Diff(w, g, cmpOpts); diff != "" {
				t.Errorf("History(%s, %+v) (-bbolt +postgres):\n%s", tenant, q, diff)
			}
		}
	}
	wantPend, _ := src.Tenants(ctx)
	if got, _ := dst.Tenants(ctx); !cmp.Equal(wantPend, got) {
		t.Errorf("Tenants = %v, want %v", got, wantPend)
	}
	wv, wat, _, _ := src.Get(ctx, search.PageBucket, "https://example.org/a", nil)
	gv, gat, ok, err := dst.Get(ctx, search.PageBucket, "https://example.org/a", nil)
	if err != nil || !ok || !gat.Equal(wat) || !jsonEqual(t, wv, gv) {
		t.Errorf("page: %s at %v (%v %v), want %s at %v", gv, gat, ok, err, wv, wat)
	}
	if _, _, ok, _ := dst.Get(ctx, "search", "5\x00q", nil); !ok {
		t.Error("search answer not copied")
	}
	if _, err := dst.PageSnapshot(ctx, "aaaa"); err != nil {
		t.Errorf("snapshot: %v", err)
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	var x, y any
	mustf(t, json.Unmarshal(a, &x), "unmarshal")
	mustf(t, json.Unmarshal(b, &y), "unmarshal")
	return cmp.Equal(x, y)
}
