package store

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
)

// webWorld is a database in which users of two tenants asked checks that
// went through the caches the way the engine and package search use them.
type webWorld struct {
	db *DB
	// U1 of T1: a claim whose verification searched "Eiffel tower height"
	// and read the shared page A and the secret page B; then a message that
	// was only the link L, whose page text was extracted.
	u1Text, u1Link *Check
	// U2 of T1 and U3 of T2 cite page A; U2 searched "moon cheese".
	u2, u3 *Check
}

const (
	urlA    = "https://example.org/a"
	urlB    = "https://intranet.example/doc?token=s3cr3t"
	urlLink = "https://news.example/story"
	shaA    = "aaaa"
	shaB    = "bbbb"
	shaLink = "cccc"
)

// putPageCtx stores a page the way search.Reader does, under ctx.
func putPageCtx(t *testing.T, ctx context.Context, db *DB, url, sha string) *search.Page {
	t.Helper()
	p := &search.Page{URL: url, FinalURL: url, Title: "Page " + sha, Text: "What the page said (" + sha + ").", SHA256: sha, Bytes: 100}
	val, err := json.Marshal(p)
	mustf(t, err, "marshal")
	mustf(t, db.Put(ctx, search.PageBucket, url, val), "put page")
	return p
}

// putSearch stores a search answer the way search.CachedSearcher does.
func putSearch(t *testing.T, ctx context.Context, db *DB, query string) {
	t.Helper()
	mustf(t, db.Put(ctx, search.SearchBucket, "5\x00"+normQuery(query), []byte(`{"provider":"brave","results":[]}`)), "put search")
}

// run saves a check of tenant/user made the way the engine makes one:
// every cache use under a recording context (unless record is false, as
// before checks recorded them). Its one verdict cites the given pages.
func run(t *testing.T, db *DB, record bool, tenant, user, text, claim, query string, pages map[string]string, link string) *Check {
	t.Helper()
	rctx, rec := RecordCaches(ctx)
	source := text
	if link != "" {
		p := putPageCtx(t, rctx, db, link, shaLink)
		source = p.Title + "\n\n" + p.Text
	}
	mustf(t, db.PutExtraction(rctx, tenant, source, &factcheck.Extraction{Claims: []factcheck.ExtractedClaim{{Claim: claim}}}), "put extraction")
	putSearch(t, rctx, db, query)
	c := check(tenant, "C1", user, text, t0, map[string]factcheck.Label{claim: factcheck.Supported})
	v := c.Report.Claims[0]
	v.Sources = nil
	for u, sha := range pages {
		if _, _, ok, _ := db.Get(rctx, search.PageBucket, u); !ok {
			putPageCtx(t, rctx, db, u, sha)
		}
		v.Sources = append(v.Sources, factcheck.Source{URL: u, Via: "read", SHA256: sha, Cited: true})
	}
	v.Trace = []factcheck.TraceEvent{{Kind: "tool", Tool: factcheck.ToolWebSearch, Args: `{"query":"` + query + `"}`}}
	mustf(t, db.PutVerdict(rctx, tenant, v), "put verdict")
	if record {
		c.CacheRefs = rec.Refs()
	}
	mustf(t, db.SaveCheck(ctx, c), "save")
	_, err := db.AcceptRequest(ctx, &Request{Key: "k-" + c.ID, Tenant: tenant, User: user, Text: text, CheckID: c.ID})
	mustf(t, err, "accept")
	return c
}

func newWebWorld(t *testing.T, record bool) *webWorld {
	db, _ := newDB(t)
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
		_, _, ok, err := w.db.Get(ctx, search.PageBucket, u)
		mustf(t, err, "get page")
		got["page "+u] = ok
	}
	for _, q := range []string{"eiffel tower height", "story happened", "moon cheese", "tides moon"} {
		_, _, ok, err := w.db.Get(ctx, search.SearchBucket, "5\x00"+q)
		mustf(t, err, "get search")
		got["search "+q] = ok
	}
	for _, h := range []string{shaA, shaB, shaLink} {
		_, err := w.db.PageSnapshot(ctx, h)
		got["snapshot "+h] = err == nil
	}
	return got
}

// TestForgetWeb: forgetting U1 deletes the search answers of the queries
// built from U1's claims, the pages and snapshots of the URLs only U1's
// checks read (the secret link too), and the extraction of the linked
// page's text; page A, which U2 and another tenant's U3 also cite, stays,
// and so does everything of theirs. It holds for checks that recorded their
// cache entries and for older ones, whose entries are found from the
// report.
func TestForgetWeb(t *testing.T) {
	for _, record := range []bool{true, false} {
		name := "recorded"
		if !record {
			name = "from the report"
		}
		t.Run(name, func(t *testing.T) {
			w := newWebWorld(t, record)
			st, err := w.db.Forget(ctx, "T1", "U1")
			mustf(t, err, "forget")
			want := ForgetStats{Checks: 2, Requests: 2, Verdicts: 2, Extractions: 2, Searches: 2, Pages: 2, Snapshots: 2}
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
			if _, ok, _ := w.db.Extraction(ctx, "T1", "Page "+shaLink+"\n\nWhat the page said ("+shaLink+").", 0); ok {
				t.Error("the extraction of U1's linked page remains")
			}
			for _, c := range []*Check{w.u2, w.u3} {
				if _, err := w.db.Check(ctx, c.Tenant, c.ID); err != nil {
					t.Errorf("%s's check: %v", c.User, err)
				}
				if _, ok, _ := w.db.Extraction(ctx, c.Tenant, c.Text, 0); !ok {
					t.Errorf("%s's extraction was deleted", c.User)
				}
				if _, ok, _ := w.db.Verdict(ctx, c.Tenant, c.Report.Claims[0].Claim, 0); !ok {
					t.Errorf("%s's verdict was deleted", c.User)
				}
			}
			mustf(t, w.db.checkInvariants(), "invariants")

			// Once U2 is forgotten too, only T2's U3 cites page A.
			st, err = w.db.Forget(ctx, "T1", "U2")
			mustf(t, err, "forget U2")
			if want := (ForgetStats{Checks: 1, Requests: 1, Verdicts: 1, Extractions: 1, Searches: 1}); st != want {
				t.Errorf("forget U2 stats = %+v, want %+v", st, want)
			}
			if got := w.webState(t); !got["page "+urlA] || !got["snapshot "+shaA] {
				t.Errorf("page A, cited by another tenant, was deleted: %v", got)
			}
		})
	}
}

// TestForgetTenant: ForgetTenant deletes every record of a tenant and the
// web entries only its records name; the other tenant keeps its records
// and the page it shares.
func TestForgetTenant(t *testing.T) {
	w := newWebWorld(t, true)
	mustf(t, w.db.AddFeedback(ctx, "T1", w.u2.ID, Feedback{User: "U1", Note: "hm"}), "feedback")
	_, err := w.db.AcceptRequest(ctx, &Request{Key: "pending", Tenant: "T1", User: "U9", Text: "still owed"})
	mustf(t, err, "accept")
	st, err := w.db.ForgetTenant(ctx, "T1")
	mustf(t, err, "forget tenant")
	want := ForgetStats{Checks: 3, Requests: 4, Verdicts: 3, Extractions: 3, Feedback: 1, Searches: 3, Pages: 2, Snapshots: 2}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	if h, _ := w.db.History(ctx, "T1", HistoryQuery{}); len(h) != 0 {
		t.Errorf("T1 history after ForgetTenant: %v", ids(h))
	}
	if _, err := w.db.Request(ctx, "T1", "pending"); !errors.Is(err, ErrNotFound) {
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
	if _, err := w.db.ForgetTenant(ctx, WebTenant); err == nil {
		t.Error("ForgetTenant of the web tenant: no error")
	}
	mustf(t, w.db.checkInvariants(), "invariants")
}
