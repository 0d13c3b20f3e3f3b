package store_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// testVerdictCache: a verdict is found by its normalised claim, in its own
// tenant, while fresh (Options.CacheTTL by default), without its trace; a
// failed verdict is not cached, and re-putting a cached verdict keeps its
// time.
func testVerdictCache(t *testing.T, db Maintained, clk *storetest.Clock) {
	v := verdict("The Eiffel Tower is 330 m tall.", factcheck.Supported, clk.Now())
	v.Trace = []factcheck.TraceEvent{{At: clk.Now(), Kind: "tool", Tool: "web_search", Args: `{"query":"eiffel"}`}}
	mustf(t, db.PutVerdict(ctx, "T1", v, nil), "put")
	clk.Add(24 * time.Hour)
	for _, claim := range []string{"The Eiffel Tower is 330 m tall.", "the eiffel tower is 330 M TALL", "“The Eiffel  Tower is 330 m tall”"} {
		got, ok, err := db.Verdict(ctx, "T1", claim, 0, nil)
		mustf(t, err, "verdict")
		if !ok {
			t.Fatalf("Verdict(%q): miss", claim)
		}
		want := *v
		want.Cached = true
		want.Trace = nil
		if diff := cmp.Diff(&want, got, cmpOpts); diff != "" {
			t.Errorf("Verdict(%q) (-want +got):\n%s", claim, diff)
		}
	}
	if _, ok, _ := db.Verdict(ctx, "T1", "The Eiffel Tower is 300 m tall.", 0, nil); ok {
		t.Error("a different claim hit the cache")
	}
	if _, ok, _ := db.Verdict(ctx, "T2", "The Eiffel Tower is 330 m tall.", 0, nil); ok {
		t.Error("another tenant hit the cache")
	}
	if _, ok, _ := db.Verdict(ctx, "T1", "The Eiffel Tower is 330 m tall.", 24*time.Hour, nil); ok {
		t.Error("hit with maxAge equal to the age")
	}
	clk.Add(7 * 24 * time.Hour)
	if _, ok, _ := db.Verdict(ctx, "T1", "The Eiffel Tower is 330 m tall.", 0, nil); ok {
		t.Error("hit after the default TTL")
	}
	failed := verdict("The sky is green", factcheck.Unverifiable, clk.Now())
	failed.Error = "model unavailable"
	mustf(t, db.PutVerdict(ctx, "T1", failed, nil), "put failed")
	if _, ok, _ := db.Verdict(ctx, "T1", "The sky is green", 0, nil); ok {
		t.Error("a failed verdict was cached")
	}
	old := verdict("Water boils at 100 C", factcheck.Supported, clk.Now().Add(-6*24*time.Hour))
	old.Cached = true
	mustf(t, db.PutVerdict(ctx, "T1", old, nil), "put cached")
	if _, ok, _ := db.Verdict(ctx, "T1", "Water boils at 100 C", 5*24*time.Hour, nil); ok {
		t.Error("re-put cached verdict became fresher")
	}
	if _, _, err := db.Verdict(ctx, "", "x", 0, nil); !errors.Is(err, store.ErrNoTenant) {
		t.Errorf("Verdict without a tenant: %v, want ErrNoTenant", err)
	}
}

// testExtractionCache: an extraction is found by its normalised text, in
// its own tenant, while fresh; a very long text works as a key too.
func testExtractionCache(t *testing.T, db Maintained, clk *storetest.Clock) {
	x := &factcheck.Extraction{Claims: []factcheck.ExtractedClaim{{Claim: "A is B", Span: "A is B", Start: 0, End: 6}}, NotCheckable: []factcheck.NotCheckable{}}
	mustf(t, db.PutExtraction(ctx, "T1", "A is B!", x, nil), "put")
	got, ok, err := db.Extraction(ctx, "T1", "a is b", time.Hour, nil)
	mustf(t, err, "get")
	if !ok {
		t.Fatal("miss")
	}
	if diff := cmp.Diff(x, got, cmpOpts); diff != "" {
		t.Errorf("extraction (-want +got):\n%s", diff)
	}
	if _, ok, _ := db.Extraction(ctx, "T2", "A is B!", time.Hour, nil); ok {
		t.Error("another tenant hit")
	}
	clk.Add(2 * time.Hour)
	if _, ok, _ := db.Extraction(ctx, "T1", "A is B!", time.Hour, nil); ok {
		t.Error("stale hit")
	}
	long := strings.Repeat("word ", 2000)
	mustf(t, db.PutExtraction(ctx, "T1", long, x, nil), "put long")
	if _, ok, _ := db.Extraction(ctx, "T1", long, time.Hour, nil); !ok {
		t.Error("long input: miss")
	}
}
