package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// Maintained is a Backend with the caches and the maintenance of
// *store.DB: the verdict and extraction caches (factcheck.Cache), the
// shared web cache and page snapshots (search.Cache), Prune, Forget and
// ForgetTenant. RunMaintained checks that a backend does them as
// *store.DB does.
type Maintained interface {
	Backend
	factcheck.Cache
	search.Cache
	PageSnapshot(ctx context.Context, sha256 string) (*search.Page, error)
	Prune(ctx context.Context, cutoff time.Time) (store.PruneStats, error)
	Forget(ctx context.Context, tenant, user string) (store.ForgetStats, error)
	ForgetTenant(ctx context.Context, tenant string) (store.ForgetStats, error)
}

var _ Maintained = (*store.DB)(nil)

// MaintainedOpener opens an empty Maintained backend for one test, as
// Opener does.
type MaintainedOpener func(t *testing.T, now func() time.Time) Maintained

// RunMaintained is the conformance suite of what Run leaves out: the
// caches, pruning and forgetting.
func RunMaintained(t *testing.T, open MaintainedOpener) {
	tests := []struct {
		name string
		run  func(t *testing.T, b Maintained, clk *storetest.Clock)
	}{
		{"VerdictCache", testVerdictCache},
		{"ExtractionCache", testExtractionCache},
		{"Forget", testForget},
		{"ForgetWebRecorded", func(t *testing.T, b Maintained, clk *storetest.Clock) { testForgetWeb(t, b, true) }},
		{"ForgetWebFromReport", func(t *testing.T, b Maintained, clk *storetest.Clock) { testForgetWeb(t, b, false) }},
		{"ForgetTenant", testForgetTenant},
		{"Prune", testPrune},
		{"PruneRefused", testPruneRefused},
		{"PruneWeb", testPruneWeb},
		{"EarlierForgotten", testEarlierForgotten},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := storetest.NewClock(t0)
			tt.run(t, open(t, clk.Now), clk)
		})
	}
}

// testForget: Forget deletes one user's checks, requests and cached
// verdicts in one tenant, and nothing of others.
func testForget(t *testing.T, db Maintained, clk *storetest.Clock) {
	var mine []*store.Check
	for i, u := range []string{"U1", "U2", "U1"} {
		clk.Add(time.Minute)
		c := check("T1", "C1", u, "text "+string(rune('a'+i)), clk.Now(), map[string]factcheck.Label{"claim " + string(rune('a'+i)): factcheck.Supported})
		mustf(t, db.SaveCheck(ctx, c), "save")
		mustf(t, db.PutVerdict(ctx, "T1", c.Report.Claims[0], nil), "put verdict")
		_, err := db.AcceptRequest(ctx, &store.Request{Key: c.ID, Tenant: "T1", User: u, Text: c.Text})
		mustf(t, err, "accept")
		if u == "U1" {
			mine = append(mine, c)
		}
	}
	otherTenant := check("T2", "C1", "U1", "text", clk.Now(), nil)
	mustf(t, db.SaveCheck(ctx, otherTenant), "save")

	st, err := db.Forget(ctx, "T1", "U1")
	mustf(t, err, "forget")
	if diff := cmp.Diff(store.ForgetStats{Checks: 2, Requests: 2, Verdicts: 2}, st, cmpOpts); diff != "" {
		t.Errorf("forget stats (-want +got):\n%s", diff)
	}
	for _, c := range mine {
		if _, err := db.Check(ctx, "T1", c.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("forgotten check %s: %v", c.ID, err)
		}
		if _, ok, _ := db.Verdict(ctx, "T1", c.Report.Claims[0].Claim, 0, nil); ok {
			t.Errorf("cached verdict of a forgotten claim remains")
		}
	}
	for _, q := range []store.HistoryQuery{{}, {User: "U1"}, {Channel: "C1"}, {Verdict: factcheck.Supported}, {Search: "text"}} {
		h, _ := db.History(ctx, "T1", q)
		for _, s := range h {
			if s.User == "U1" {
				t.Errorf("History(%+v) still finds %s", q, s.ID)
			}
		}
		if q.User == "U1" && len(h) != 0 || q.User == "" && len(h) != 1 {
			t.Errorf("History(%+v) = %v, want U2's check only", q, ids(h))
		}
	}
	if h, _ := db.History(ctx, "T2", store.HistoryQuery{User: "U1"}); len(h) != 1 {
		t.Errorf("other tenant's check of the same user: %v", ids(h))
	}
	if _, err := db.Forget(ctx, "T1", ""); err == nil {
		t.Error("Forget of an empty user: no error")
	}
}

// webWorld is a backend in which users of two tenants asked checks that
// went through the caches the way the engine and package search use them.
type webWorld struct {
	db Maintained
	// U1 of T1: a claim whose verification searched "Eiffel tower height"
	// and read the shared page A and the secret page B; then a message that
	// was only the link L, whose page text was extracted.
	u1Text, u1Link *store.Check
	// U2 of T1 and U3 of T2 cite page A; U2 searched "moon cheese".
	u2, u3 *store.Check
}

const (
	urlA    = "https://example.org/a"
	urlB    = "https://intranet.example/doc?token=s3cr3t"
	urlLink = "https://news.example/story"
	shaA    = "aaaa"
	shaB    = "bbbb"
	shaLink = "cccc"
)

// putPage stores a page the way search.Reader does, telling rec.
func putPage(t *testing.T, rec search.Recorder, db Maintained, url, sha string, at time.Time) *search.Page {
	t.Helper()
	p := &search.Page{URL: url, FinalURL: url, Title: "Page " + sha, Text: "What the page said (" + sha + ").", FetchedAt: at, SHA256: sha, Bytes: 100}
	val, err := json.Marshal(p)
	mustf(t, err, "marshal")
	mustf(t, db.Put(ctx, search.PageBucket, url, val, rec), "put page")
	return p
}

// putSearch stores a search answer the way search.CachedSearcher does.
func putSearch(t *testing.T, rec search.Recorder, db Maintained, query string) {
	t.Helper()
	q := strings.Join(strings.Fields(strings.ToLower(query)), " ")
	mustf(t, db.Put(ctx, search.SearchBucket, "5\x00"+q, []byte(`{"provider":"brave","results":[]}`), rec), "put search")
}

// run saves a check of tenant/user made the way the engine makes one:
// every cache use told to the check's recorder (unless record is false,
// as before checks recorded them). Its one verdict cites the given pages.
func run(t *testing.T, db Maintained, record bool, tenant, user, text, claim, query string, pages map[string]string, link string) *store.Check {
	t.Helper()
	rec := store.NewCacheRecorder()
	source := text
	if link != "" {
		p := putPage(t, rec, db, link, shaLink, time.Time{})
		source = p.Title + "\n\n" + p.Text
	}
	mustf(t, db.PutExtraction(ctx, tenant, source, &factcheck.Extraction{Claims: []factcheck.ExtractedClaim{{Claim: claim}}}, rec), "put extraction")
	putSearch(t, rec, db, query)
	c := check(tenant, "C1", user, text, t0, map[string]factcheck.Label{claim: factcheck.Supported})
	v := c.Report.Claims[0]
	v.Sources = nil
	for _, u := range slices.Sorted(func(yield func(string) bool) {
		for u := range pages {
			if !yield(u) {
				return
			}
		}
	}) {
		sha := pages[u]
		if _, _, ok, _ := db.Get(ctx, search.PageBucket, u, rec); !ok {
			putPage(t, rec, db, u, sha, time.Time{})
		}
		v.Sources = append(v.Sources, factcheck.Source{URL: u, Via: "read", SHA256: sha, Cited: true})
	}
	v.Trace = []factcheck.TraceEvent{{Kind: "tool", Tool: factcheck.ToolWebSearch, Args: `{"query":"` + query + `"}`}}
	mustf(t, db.PutVerdict(ctx, tenant, v, rec), "put verdict")
	if record {
		c.CacheRefs = rec.Refs()
	}
	mustf(t, db.SaveCheck(ctx, c), "save")
	_, err := db.AcceptRequest(ctx, &store.Request{Key: "k-" + c.ID, Tenant: tenant, User: user, Text: text, CheckID: c.ID})
	mustf(t, err, "accept")
	return c
}

func newWebWorld(t *testing.T, db Maintained, record bool) *webWorld {
	w := &webWorld{db: db}
	w.u1Text = run(t, db, record, "T1", "U1", "The Eiffel Tower is 330 m tall", "The Eiffel Tower is 330 m tall", "Eiffel  tower HEIGHT", map[string]string{urlA: shaA, urlB: shaB}, "")
	w.u1Link = run(t, db, record, "T1", "U1", "<"+urlLink+">", "The story happened", "story happened", nil, urlLink)
	w.u2 = run(t, db, true, "T1", "U2", "The moon is cheese", "The moon is cheese", "moon cheese", map[string]string{urlA: shaA}, "")
	w.u3 = run(t, db, true, "T2", "U3", "Tides follow the moon", "Tides follow the moon", "tides moon", map[string]string{urlA: shaA}, "")
	return w
}

// webState says which of the world's web records are stored.
func (w *webWorld) webState(t *testing.T) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	for _, u := range []string{urlA, urlB, urlLink} {
		_, _, ok, err := w.db.Get(ctx, search.PageBucket, u, nil)
		mustf(t, err, "get page")
		got["page "+u] = ok
	}
	for _, q := range []string{"eiffel tower height", "story happened", "moon cheese", "tides moon"} {
		_, _, ok, err := w.db.Get(ctx, search.SearchBucket, "5\x00"+q, nil)
		mustf(t, err, "get search")
		got["search "+q] = ok
	}
	for _, h := range []string{shaA, shaB, shaLink} {
		_, err := w.db.PageSnapshot(ctx, h)
		got["snapshot "+h] = err == nil
	}
	return got
}

// testForgetWeb: forgetting U1 deletes the search answers of the queries
// built from U1's claims, the pages and snapshots of the URLs only U1's
// checks read (the secret link too), and the extraction of the linked
// page's text; page A, which U2 and another tenant's U3 also cite, stays,
// and so does everything of theirs. It holds for checks that recorded
// their cache entries and for older ones, whose entries are found from
// the report.
func testForgetWeb(t *testing.T, db Maintained, record bool) {
	w := newWebWorld(t, db, record)
	st, err := w.db.Forget(ctx, "T1", "U1")
	mustf(t, err, "forget")
	want := store.ForgetStats{Checks: 2, Requests: 2, Verdicts: 2, Extractions: 2, Searches: 2, Pages: 2, Snapshots: 2}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("forget stats (-want +got):\n%s", diff)
	}
	wantWeb := map[string]bool{
		"page " + urlA: true, "page " + urlB: false, "page " + urlLink: false,
		"search eiffel tower height": false, "search story happened": false,
		"search moon cheese": true, "search tides moon": true,
		"snapshot " + shaA: true, "snapshot " + shaB: false, "snapshot " + shaLink: false,
	}
	if diff := cmp.Diff(wantWeb, w.webState(t)); diff != "" {
		t.Errorf("web cache after forget (-want +got):\n%s", diff)
	}
	if _, ok, _ := w.db.Extraction(ctx, "T1", "Page "+shaLink+"\n\nWhat the page said ("+shaLink+").", 0, nil); ok {
		t.Error("the extraction of U1's linked page remains")
	}
	for _, c := range []*store.Check{w.u2, w.u3} {
		if _, err := w.db.Check(ctx, c.Tenant, c.ID); err != nil {
			t.Errorf("%s's check: %v", c.User, err)
		}
		if _, ok, _ := w.db.Extraction(ctx, c.Tenant, c.Text, 0, nil); !ok {
			t.Errorf("%s's extraction was deleted", c.User)
		}
		if _, ok, _ := w.db.Verdict(ctx, c.Tenant, c.Report.Claims[0].Claim, 0, nil); !ok {
			t.Errorf("%s's verdict was deleted", c.User)
		}
	}
	checkInvariants(t, db)

	// Once U2 is forgotten too, only T2's U3 cites page A.
	st, err = w.db.Forget(ctx, "T1", "U2")
	mustf(t, err, "forget U2")
	if want := (store.ForgetStats{Checks: 1, Requests: 1, Verdicts: 1, Extractions: 1, Searches: 1}); st != want {
		t.Errorf("forget U2 stats = %+v, want %+v", st, want)
	}
	if got := w.webState(t); !got["page "+urlA] || !got["snapshot "+shaA] {
		t.Errorf("page A, cited by another tenant, was deleted: %v", got)
	}
}

// checkInvariants asks a backend that can check its own structure (bbolt's
// indexes against its records) to do so, between steps of a test.
func checkInvariants(t *testing.T, b any) {
	t.Helper()
	if c, ok := b.(interface{ CheckInvariants() error }); ok {
		mustf(t, c.CheckInvariants(), "invariants")
	}
}

// testForgetTenant: ForgetTenant deletes every record of a tenant and the
// web entries only its records name; the other tenant keeps its records
// and the page it shares.
func testForgetTenant(t *testing.T, db Maintained, clk *storetest.Clock) {
	w := newWebWorld(t, db, true)
	mustf(t, w.db.AddFeedback(ctx, "T1", w.u2.ID, store.Feedback{User: "U1", Note: "hm"}), "feedback")
	_, err := w.db.AcceptRequest(ctx, &store.Request{Key: "pending", Tenant: "T1", User: "U9", Text: "still owed"})
	mustf(t, err, "accept")
	st, err := w.db.ForgetTenant(ctx, "T1")
	mustf(t, err, "forget tenant")
	want := store.ForgetStats{Checks: 3, Requests: 4, Verdicts: 3, Extractions: 3, Feedback: 1, Searches: 3, Pages: 2, Snapshots: 2}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	if h, _ := w.db.History(ctx, "T1", store.HistoryQuery{}); len(h) != 0 {
		t.Errorf("T1 history after ForgetTenant: %v", ids(h))
	}
	if _, err := w.db.Request(ctx, "T1", "pending"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("T1 request after ForgetTenant: %v", err)
	}
	if tn, _ := w.db.Tenants(ctx); !slices.Equal(tn, []string{"T2"}) {
		t.Errorf("tenants with pending requests: %v, want T2 only", tn)
	}
	if _, err := w.db.Check(ctx, "T2", w.u3.ID); err != nil {
		t.Errorf("T2's check: %v", err)
	}
	got := w.webState(t)
	if !got["page "+urlA] || !got["snapshot "+shaA] || !got["search tides moon"] || got["page "+urlB] || got["search moon cheese"] {
		t.Errorf("web cache after ForgetTenant: %v", got)
	}
	if _, err := w.db.ForgetTenant(ctx, store.WebTenant); err == nil {
		t.Error("ForgetTenant of the web tenant: no error")
	}
}

// testPrune: Prune removes old checks, finished requests and cached
// verdicts and extractions, in every tenant; pending requests stay.
func testPrune(t *testing.T, db Maintained, clk *storetest.Clock) {
	old := check("T1", "C1", "U1", "old text", clk.Now(), map[string]factcheck.Label{"old claim": factcheck.Supported})
	mustf(t, db.SaveCheck(ctx, old), "save")
	mustf(t, db.PutVerdict(ctx, "T1", old.Report.Claims[0], nil), "put verdict")
	mustf(t, db.PutExtraction(ctx, "T1", "old text", &factcheck.Extraction{}, nil), "put extraction")
	for _, k := range []string{"done-old", "pending-old"} {
		_, err := db.AcceptRequest(ctx, &store.Request{Key: k, Tenant: "T1", Text: "t"})
		mustf(t, err, "accept")
	}
	mustf(t, db.FinishRequest(ctx, "T1", "done-old", store.RequestDone, old.ID), "finish")
	clk.Add(40 * 24 * time.Hour)
	recent := check("T1", "C1", "U1", "new text", clk.Now(), map[string]factcheck.Label{"new claim": factcheck.Contradicted})
	mustf(t, db.SaveCheck(ctx, recent), "save")
	mustf(t, db.PutVerdict(ctx, "T1", recent.Report.Claims[0], nil), "put verdict")
	other := check("T2", "C1", "U1", "old other", t0, map[string]factcheck.Label{"x": factcheck.Supported})
	mustf(t, db.SaveCheck(ctx, other), "save other tenant")

	st, err := db.Prune(ctx, clk.Now().Add(-30*24*time.Hour))
	mustf(t, err, "prune")
	if diff := cmp.Diff(store.PruneStats{Checks: 2, Requests: 1, Verdicts: 1, Extractions: 1}, st, cmpOpts); diff != "" {
		t.Errorf("prune stats (-want +got):\n%s", diff)
	}
	h, _ := db.History(ctx, "T1", store.HistoryQuery{})
	if diff := cmp.Diff([]string{recent.ID}, ids(h), cmpOpts); diff != "" {
		t.Errorf("history after prune (-want +got):\n%s", diff)
	}
	for _, q := range []store.HistoryQuery{{User: "U1"}, {Channel: "C1"}, {Verdict: factcheck.Supported}, {Search: "old"}} {
		h, _ := db.History(ctx, "T1", q)
		for _, s := range h {
			if s.ID == old.ID {
				t.Errorf("History(%+v) still finds the pruned check", q)
			}
		}
	}
	if _, err := db.Check(ctx, "T1", old.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("pruned check: %v, want ErrNotFound", err)
	}
	if _, err := db.Request(ctx, "T1", "pending-old"); err != nil {
		t.Errorf("pending request was pruned: %v", err)
	}
	if _, ok, _ := db.Verdict(ctx, "T1", "new claim", 0, nil); !ok {
		t.Error("recent verdict pruned")
	}
}

// testPruneRefused: the dedupe records of refused requests go once they
// are store.RefusedTTL old, whatever Prune's cutoff; other finished
// requests of the same age stay until the cutoff passes them.
func testPruneRefused(t *testing.T, db Maintained, clk *storetest.Clock) {
	for _, k := range []string{"refused", "failed", "refused-recent"} {
		if k == "refused-recent" {
			clk.Add(store.RefusedTTL)
		}
		_, err := db.AcceptRequest(ctx, &store.Request{Key: k, Tenant: "T1", User: "U1", Text: "t"})
		mustf(t, err, "accept")
		if k == "failed" {
			mustf(t, db.FinishRequest(ctx, "T1", k, store.RequestFailed, ""), "finish")
		} else {
			mustf(t, db.RefuseRequest(ctx, "T1", k), "refuse")
		}
	}
	clk.Add(time.Minute)
	st, err := db.Prune(ctx, t0.Add(-365*24*time.Hour))
	mustf(t, err, "prune")
	if st.Requests != 1 {
		t.Errorf("pruned %d requests, want the old refused one", st.Requests)
	}
	for k, want := range map[string]bool{"refused": false, "failed": true, "refused-recent": true} {
		_, err := db.Request(ctx, "T1", k)
		if got := err == nil; got != want {
			t.Errorf("request %s kept = %v (%v), want %v", k, got, err, want)
		}
	}
}

// checkCiting is a check whose one verdict read the page with hash sha.
func checkCiting(tenant, user, claim, sha string, at time.Time) *store.Check {
	c := check(tenant, "C1", user, claim, at, map[string]factcheck.Label{claim: factcheck.Supported})
	c.Report.Claims[0].Sources = []factcheck.Source{{URL: "https://example.org/" + sha, Via: "read", FetchedAt: at, SHA256: sha, Cited: true}}
	return c
}

// testPruneWeb: Prune removes web cache entries and snapshots stored
// before the cutoff, except the snapshots a remaining check cites.
func testPruneWeb(t *testing.T, db Maintained, clk *storetest.Clock) {
	mustf(t, db.Put(ctx, "search", "tavily\x00old query", []byte(`{"results":[]}`), nil), "put search")
	putPage(t, nil, db, "https://example.org/old", "old0", clk.Now())
	putPage(t, nil, db, "https://example.org/cited", "cited0", clk.Now())
	oldCheck := checkCiting("T1", "U1", "Old claim", "old0", clk.Now())
	mustf(t, db.SaveCheck(ctx, oldCheck), "save old check")

	clk.Add(40 * 24 * time.Hour)
	mustf(t, db.Put(ctx, "search", "tavily\x00new query", []byte(`{"results":[]}`), nil), "put search")
	putPage(t, nil, db, "https://example.org/new", "new0", clk.Now())
	recent := checkCiting("T2", "U1", "Recent claim", "cited0", clk.Now())
	mustf(t, db.SaveCheck(ctx, recent), "save recent check")

	st, err := db.Prune(ctx, clk.Now().Add(-30*24*time.Hour))
	mustf(t, err, "prune")
	if diff := cmp.Diff(store.PruneStats{Checks: 1, Web: 4}, st); diff != "" {
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
		if _, _, ok, err := db.Get(ctx, k.bucket, k.key, nil); ok != k.want || err != nil {
			t.Errorf("Get(%s, %q) after prune: found %v (%v), want %v", k.bucket, k.key, ok, err, k.want)
		}
	}
	for sha, want := range map[string]bool{"old0": false, "cited0": true, "new0": true} {
		_, err := db.PageSnapshot(ctx, sha)
		if found := err == nil; found != want || err != nil && !errors.Is(err, store.ErrNotFound) {
			t.Errorf("snapshot %s after prune: %v, want found = %v", sha, err, want)
		}
	}
	if h, err := db.History(ctx, store.WebTenant, store.HistoryQuery{}); err != nil || len(h) != 0 {
		t.Errorf("history of the web tenant: %v, %v", h, err)
	}
	st, err = db.Prune(ctx, clk.Now().Add(-30*24*time.Hour))
	if err != nil || st != (store.PruneStats{}) {
		t.Errorf("second prune: %+v, %v", st, err)
	}
}

// testEarlierForgotten: a forgotten or pruned check answers no new claim,
// even after its tenant's vectors were read into memory.
func testEarlierForgotten(t *testing.T, db Maintained, clk *storetest.Clock) {
	old := embedded("T1", "C1", "U3", "old claim", clk.Now(), axis(1))
	mustf(t, db.SaveCheck(ctx, old), "save")
	clk.Add(time.Hour)
	mine := embedded("T1", "C1", "U1", "my claim", clk.Now(), axis(0))
	mustf(t, db.SaveCheck(ctx, mine), "save")
	theirs := embedded("T1", "C1", "U2", "their claim", clk.Now(), axis(0))
	mustf(t, db.SaveCheck(ctx, theirs), "save")
	if got := nearest(t, db, "T1", nil, axis(0), t0); len(got) != 2 {
		t.Fatalf("before: %v, want both", got)
	}
	if got := nearest(t, db, "T1", nil, axis(1), t0); len(got) != 1 {
		t.Fatalf("before: %v, want the old check", got)
	}
	_, err := db.Forget(ctx, "T1", "U1")
	mustf(t, err, "forget")
	if got := nearest(t, db, "T1", nil, axis(0), t0); !cmp.Equal(got, []string{theirs.ID}) {
		t.Errorf("after Forget: %v, want only %s", got, theirs.ID)
	}
	_, err = db.Prune(ctx, t0.Add(time.Minute))
	mustf(t, err, "prune")
	if got := nearest(t, db, "T1", nil, axis(1), t0); len(got) != 0 {
		t.Errorf("after Prune: %v, want none", got)
	}
}
