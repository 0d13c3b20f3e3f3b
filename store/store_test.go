package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
)

var ctx = context.Background()

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"The Eiffel Tower is 330 m tall.", "the eiffel tower is 330 m tall"},
		{"  the   EIFFEL tower\tis 330 m tall!!! ", "the eiffel tower is 330 m tall"},
		{"“The Eiffel Tower” is 330 m tall…", "the eiffel tower is 330 m tall"},
		{"ﬁnancial ＧＤＰ grew", "financial gdp grew"}, // NFKC: ligature, full width
		{"Straße", "strasse"}, // case folding
		{"GDP grew 3.5% in 2023", "gdp grew 3.5% in 2023"},
		{"GDP grew 35% in 2023", "gdp grew 35% in 2023"},
		{"It was -5 degrees", "it was -5 degrees"},
		{"well-known fact", "well known fact"},
		{"1,000 people at 10:30", "1,000 people at 10:30"},
		{"U.S. economy", "u s economy"},
		{"zero\u200bwidth", "zerowidth"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if Normalize("GDP grew 3.5%") == Normalize("GDP grew 35%") {
		t.Error("3.5% and 35% share a cache key")
	}
}

func TestEnvelope(t *testing.T) {
	b, err := encode(map[string]int{"a": 1})
	mustf(t, err, "encode")
	if want := `{"v":3,"data":{"a":1}}`; string(b) != want {
		t.Errorf("encode = %s, want %s", b, want)
	}
	var got map[string]int
	mustf(t, decode(b, &got), "decode")
	if diff := cmp.Diff(map[string]int{"a": 1}, got, cmpOpts); diff != "" {
		t.Errorf("decode (-want +got):\n%s", diff)
	}
	// Spacing another writer might use still decodes.
	mustf(t, decode([]byte(`{ "v": 2, "data": {"a": 1} }`), &got), "decode spaced")
	// Version 2 records have the same payload (version 3 added an index).
	mustf(t, decode([]byte(`{"v":2,"data":{"a":2}}`), &got), "decode version 2")
	if got["a"] != 2 {
		t.Errorf("decode of a version 2 envelope = %v", got)
	}
	for _, v := range []string{`{"v":1,"data":{}}`, `{"v":4,"data":{}}`} {
		if err := decode([]byte(v), &got); err == nil {
			t.Errorf("decode of %s: no error", v)
		}
	}
	if err := decode([]byte(`{"a":1}`), &got); err == nil {
		t.Error("decode of a bare record: no error")
	}
}

func TestRequests(t *testing.T) {
	db, clk := newDB(t)
	r := &Request{Key: "slack:event:Ev1", Tenant: "T1", Platform: "slack", Kind: "mention", Channel: "C1", User: "U1", Text: "is it so?", Meta: map[string]string{"response_url": "https://x"}}
	isNew, err := db.AcceptRequest(ctx, r)
	mustf(t, err, "accept")
	if !isNew {
		t.Fatal("first accept: isNew = false")
	}
	// Redelivery: same key, other contents; nothing written.
	clk.Add(time.Second)
	again := &Request{Key: "slack:event:Ev1", Tenant: "T1", Text: "changed"}
	isNew, err = db.AcceptRequest(ctx, again)
	mustf(t, err, "accept again")
	if isNew {
		t.Error("redelivery: isNew = true")
	}
	got, err := db.Request(ctx, "T1", "slack:event:Ev1")
	mustf(t, err, "request")
	if diff := cmp.Diff(r, got, cmpOpts); diff != "" {
		t.Errorf("stored request (-want +got):\n%s", diff)
	}

	clk.Add(time.Second)
	r2 := &Request{Key: "slack:event:Ev2", Tenant: "T1", Text: "second"}
	_, err = db.AcceptRequest(ctx, r2)
	mustf(t, err, "accept 2")
	pend, err := db.PendingRequests(ctx, "T1")
	mustf(t, err, "pending")
	if diff := cmp.Diff([]string{"slack:event:Ev1", "slack:event:Ev2"}, keys(pend), cmpOpts); diff != "" {
		t.Errorf("pending, oldest first (-want +got):\n%s", diff)
	}
	tenants, err := db.Tenants(ctx)
	mustf(t, err, "tenants")
	if diff := cmp.Diff([]string{"T1"}, tenants, cmpOpts); diff != "" {
		t.Errorf("tenants (-want +got):\n%s", diff)
	}

	mustf(t, db.UpdateRequest(ctx, "T1", "slack:event:Ev1", func(r *Request) error {
		r.Reply = "1700000000.1"
		r.Attempts++
		r.Key = "ignored"
		return nil
	}), "update")
	got, err = db.Request(ctx, "T1", "slack:event:Ev1")
	mustf(t, err, "request")
	if got.Reply != "1700000000.1" || got.Attempts != 1 || got.Key != "slack:event:Ev1" || !got.UpdatedAt.Equal(clk.Now()) {
		t.Errorf("after update: %+v", got)
	}
	boom := errors.New("boom")
	if err := db.UpdateRequest(ctx, "T1", "slack:event:Ev1", func(r *Request) error { r.Reply = "x"; return boom }); !errors.Is(err, boom) {
		t.Errorf("update with failing fn: %v, want %v", err, boom)
	}
	if err := db.UpdateRequest(ctx, "T1", "nope", func(*Request) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Errorf("update of missing request: %v, want ErrNotFound", err)
	}

	mustf(t, db.FinishRequest(ctx, "T1", "slack:event:Ev1", RequestDone, "C-1"), "finish")
	mustf(t, db.FinishRequest(ctx, "T1", "slack:event:Ev2", RequestFailed, ""), "finish failed")
	if err := db.FinishRequest(ctx, "T1", "slack:event:Ev2", "weird", ""); err == nil {
		t.Error("finish with a bad state: no error")
	}
	pend, err = db.PendingRequests(ctx, "T1")
	mustf(t, err, "pending")
	if len(pend) != 0 {
		t.Errorf("pending after finish = %v", keys(pend))
	}
	tenants, err = db.Tenants(ctx)
	mustf(t, err, "tenants")
	if len(tenants) != 0 {
		t.Errorf("tenants with pending requests after finish = %v", tenants)
	}
	got, _ = db.Request(ctx, "T1", "slack:event:Ev1")
	if got.State != RequestDone || got.CheckID != "C-1" {
		t.Errorf("finished request: state %q check %q", got.State, got.CheckID)
	}
	if _, err := db.AcceptRequest(ctx, &Request{Key: "k", Tenant: ""}); !errors.Is(err, ErrNoTenant) {
		t.Errorf("accept without tenant: %v, want ErrNoTenant", err)
	}
	// A redelivery after the answer still is one.
	if isNew, _ := db.AcceptRequest(ctx, &Request{Key: "slack:event:Ev1", Tenant: "T1"}); isNew {
		t.Error("redelivery of a finished request: isNew = true")
	}
}

func keys(rs []*Request) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Key)
	}
	return out
}

func TestSaveCheckAndShow(t *testing.T) {
	db, _ := newDB(t)
	c := check("T1", "C1", "U1", "The tower is 330 m tall.", t0, map[string]factcheck.Label{"The tower is 330 m tall": factcheck.Supported})
	mustf(t, db.SaveCheck(ctx, c), "save")
	if c.ID == "" || c.ID[:17] != "20261129T120000Z-" {
		t.Errorf("ID = %q, want the creation time first", c.ID)
	}
	got, err := db.Check(ctx, "T1", c.ID)
	mustf(t, err, "check")
	if diff := cmp.Diff(c, got, cmpOpts); diff != "" {
		t.Errorf("Check (-want +got):\n%s", diff)
	}
	if _, err := db.Check(ctx, "T1", "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing check: %v, want ErrNotFound", err)
	}
	mustf(t, db.AddFeedback(ctx, "T1", c.ID, Feedback{User: "U2", Claim: 0, Note: "source B is paywalled"}), "feedback")
	got, _ = db.Check(ctx, "T1", c.ID)
	want := []Feedback{{User: "U2", Claim: 0, Note: "source B is paywalled", At: t0}}
	if diff := cmp.Diff(want, got.Feedback, cmpOpts); diff != "" {
		t.Errorf("feedback (-want +got):\n%s", diff)
	}
	if err := db.AddFeedback(ctx, "T1", "nope", Feedback{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("feedback on a missing check: %v, want ErrNotFound", err)
	}
}

// A check saved twice for one request (a resumed request after a crash)
// replaces the first and is recorded on the request.
func TestSaveCheckOncePerRequest(t *testing.T) {
	db, clk := newDB(t)
	_, err := db.AcceptRequest(ctx, &Request{Key: "k1", Tenant: "T1", User: "U1", Text: "x"})
	mustf(t, err, "accept")
	c1 := check("T1", "C1", "U1", "x", clk.Now(), map[string]factcheck.Label{"a": factcheck.Supported})
	c1.RequestKey = "k1"
	mustf(t, db.SaveCheck(ctx, c1), "save 1")
	r, _ := db.Request(ctx, "T1", "k1")
	if r.CheckID != c1.ID || r.State != RequestPending {
		t.Errorf("request after save: check %q state %q, want %q pending", r.CheckID, r.State, c1.ID)
	}
	clk.Add(time.Minute)
	c2 := check("T1", "C1", "U1", "x", clk.Now(), map[string]factcheck.Label{"a": factcheck.Contradicted})
	c2.RequestKey = "k1"
	mustf(t, db.SaveCheck(ctx, c2), "save 2")
	if c2.ID != c1.ID {
		t.Errorf("second save got ID %q, want the first's %q", c2.ID, c1.ID)
	}
	h, err := db.History(ctx, "T1", HistoryQuery{})
	mustf(t, err, "history")
	if len(h) != 1 || h[0].Verdicts[0] != factcheck.Contradicted {
		t.Errorf("history = %+v, want the one replaced check", h)
	}
	h, _ = db.History(ctx, "T1", HistoryQuery{Verdict: factcheck.Supported})
	if len(h) != 0 {
		t.Errorf("stale verdict index entry: %v", ids(h))
	}
}

func TestHistory(t *testing.T) {
	db, clk := newDB(t)
	type spec struct {
		channel, user, text string
		claims              map[string]factcheck.Label
	}
	specs := []spec{
		{"C1", "U1", "The Eiffel Tower is 330 m tall", map[string]factcheck.Label{"The Eiffel Tower is 330 m tall": factcheck.Supported}},
		{"C1", "U2", "Vaccines cause autism", map[string]factcheck.Label{"Vaccines cause autism": factcheck.Contradicted}},
		{"C2", "U1", "Coffee is healthy; the moon is cheese", map[string]factcheck.Label{"Coffee is healthy": factcheck.Contested, "The moon is made of cheese": factcheck.Contradicted}},
		{"C2", "U3", "Bigfoot lives in Oregon", map[string]factcheck.Label{"Bigfoot lives in Oregon": factcheck.Unverifiable}},
		{"C1", "U1", "The Great Wall is visible from space", map[string]factcheck.Label{"The Great Wall is visible from space": factcheck.Contradicted}},
	}
	var all []string
	for _, s := range specs {
		clk.Add(time.Hour)
		c := check("T1", s.channel, s.user, s.text, clk.Now(), s.claims)
		mustf(t, db.SaveCheck(ctx, c), "save")
		all = append([]string{c.ID}, all...) // newest first
	}
	// all[0] is the last saved (Great Wall), all[4] the first (Eiffel).
	tests := []struct {
		name string
		q    HistoryQuery
		want []string
	}{
		{"all newest first", HistoryQuery{}, all},
		{"limit", HistoryQuery{Limit: 2}, all[:2]},
		{"channel", HistoryQuery{Channel: "C2"}, []string{all[1], all[2]}},
		{"user", HistoryQuery{User: "U1"}, []string{all[0], all[2], all[4]}},
		{"user and channel", HistoryQuery{User: "U1", Channel: "C1"}, []string{all[0], all[4]}},
		{"verdict", HistoryQuery{Verdict: factcheck.Contradicted}, []string{all[0], all[2], all[3]}},
		{"verdict and user", HistoryQuery{Verdict: factcheck.Contradicted, User: "U2"}, []string{all[3]}},
		{"since", HistoryQuery{Since: t0.Add(3 * time.Hour)}, all[:3]},
		{"search one word", HistoryQuery{Search: "moon"}, []string{all[2]}},
		{"search word prefix, any case", HistoryQuery{Search: "VACCINE"}, []string{all[3]}},
		{"search every word", HistoryQuery{Search: "the tower"}, []string{all[4]}},
		{"search inside a word does not match", HistoryQuery{Search: "ower"}, []string{}},
		{"search and verdict", HistoryQuery{Search: "the", Verdict: factcheck.Supported}, []string{all[4]}},
		{"unknown user", HistoryQuery{User: "U9"}, []string{}},
		{"user that is a prefix of another", HistoryQuery{User: "U"}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := db.History(ctx, "T1", tt.q)
			mustf(t, err, "history")
			if diff := cmp.Diff(tt.want, ids(got), cmpOpts); diff != "" {
				t.Errorf("History(%+v) (-want +got):\n%s", tt.q, diff)
			}
		})
	}
	got, _ := db.History(ctx, "T1", HistoryQuery{Limit: 1, Channel: "C2"})
	want := CheckSummary{
		ID: all[1], Channel: "C2", User: "U3", Text: "Bigfoot lives in Oregon", CreatedAt: t0.Add(4 * time.Hour),
		Verdicts: []factcheck.Label{factcheck.Unverifiable}, Claims: []string{"Bigfoot lives in Oregon"},
	}
	if diff := cmp.Diff([]CheckSummary{want}, got, cmpOpts); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
}

func TestVerdictCache(t *testing.T) {
	db, clk := newDB(t)
	v := verdict("The Eiffel Tower is 330 m tall.", factcheck.Supported, clk.Now())
	mustf(t, db.PutVerdict(ctx, "T1", v), "put")
	clk.Add(24 * time.Hour)
	for _, claim := range []string{"The Eiffel Tower is 330 m tall.", "the eiffel tower is 330 M TALL", "“The Eiffel  Tower is 330 m tall”"} {
		got, ok, err := db.Verdict(ctx, "T1", claim, 0)
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
	if _, ok, _ := db.Verdict(ctx, "T1", "The Eiffel Tower is 300 m tall.", 0); ok {
		t.Error("a different claim hit the cache")
	}
	if _, ok, _ := db.Verdict(ctx, "T2", "The Eiffel Tower is 330 m tall.", 0); ok {
		t.Error("another tenant hit the cache")
	}
	if _, ok, _ := db.Verdict(ctx, "T1", "The Eiffel Tower is 330 m tall.", 24*time.Hour); ok {
		t.Error("hit with maxAge equal to the age")
	}
	clk.Add(7 * 24 * time.Hour)
	if _, ok, _ := db.Verdict(ctx, "T1", "The Eiffel Tower is 330 m tall.", 0); ok {
		t.Error("hit after the default TTL")
	}
	// A failed verdict is not cached.
	failed := verdict("The sky is green", factcheck.Unverifiable, clk.Now())
	failed.Error = "model unavailable"
	mustf(t, db.PutVerdict(ctx, "T1", failed), "put failed")
	if _, ok, _ := db.Verdict(ctx, "T1", "The sky is green", 0); ok {
		t.Error("a failed verdict was cached")
	}
	// Re-putting a cached verdict keeps its time.
	old := verdict("Water boils at 100 C", factcheck.Supported, clk.Now().Add(-6*24*time.Hour))
	old.Cached = true
	mustf(t, db.PutVerdict(ctx, "T1", old), "put cached")
	if _, ok, _ := db.Verdict(ctx, "T1", "Water boils at 100 C", 5*24*time.Hour); ok {
		t.Error("re-put cached verdict became fresher")
	}
}

func TestExtractionCache(t *testing.T) {
	db, clk := newDB(t)
	x := &factcheck.Extraction{Claims: []factcheck.ExtractedClaim{{Claim: "A is B", Span: "A is B", Start: 0, End: 6}}, NotCheckable: []factcheck.NotCheckable{}}
	mustf(t, db.PutExtraction(ctx, "T1", "A is B!", x), "put")
	got, ok, err := db.Extraction(ctx, "T1", "a is b", time.Hour)
	mustf(t, err, "get")
	if !ok {
		t.Fatal("miss")
	}
	if diff := cmp.Diff(x, got, cmpOpts); diff != "" {
		t.Errorf("extraction (-want +got):\n%s", diff)
	}
	if _, ok, _ := db.Extraction(ctx, "T2", "A is B!", time.Hour); ok {
		t.Error("another tenant hit")
	}
	clk.Add(2 * time.Hour)
	if _, ok, _ := db.Extraction(ctx, "T1", "A is B!", time.Hour); ok {
		t.Error("stale hit")
	}
	// Very long inputs are keyed by hash.
	long := string(bytes.Repeat([]byte("word "), 2000))
	mustf(t, db.PutExtraction(ctx, "T1", long, x), "put long")
	if _, ok, _ := db.Extraction(ctx, "T1", long, time.Hour); !ok {
		t.Error("long input: miss")
	}
}

func TestPrune(t *testing.T) {
	db, clk := newDB(t)
	old := check("T1", "C1", "U1", "old text", clk.Now(), map[string]factcheck.Label{"old claim": factcheck.Supported})
	mustf(t, db.SaveCheck(ctx, old), "save")
	mustf(t, db.PutVerdict(ctx, "T1", old.Report.Claims[0]), "put verdict")
	mustf(t, db.PutExtraction(ctx, "T1", "old text", &factcheck.Extraction{}), "put extraction")
	for _, k := range []string{"done-old", "pending-old"} {
		_, err := db.AcceptRequest(ctx, &Request{Key: k, Tenant: "T1", Text: "t"})
		mustf(t, err, "accept")
	}
	mustf(t, db.FinishRequest(ctx, "T1", "done-old", RequestDone, old.ID), "finish")
	clk.Add(40 * 24 * time.Hour)
	recent := check("T1", "C1", "U1", "new text", clk.Now(), map[string]factcheck.Label{"new claim": factcheck.Contradicted})
	mustf(t, db.SaveCheck(ctx, recent), "save")
	mustf(t, db.PutVerdict(ctx, "T1", recent.Report.Claims[0]), "put verdict")
	other := check("T2", "C1", "U1", "old other", t0, map[string]factcheck.Label{"x": factcheck.Supported})
	mustf(t, db.SaveCheck(ctx, other), "save other tenant")

	st, err := db.Prune(ctx, clk.Now().Add(-30*24*time.Hour))
	mustf(t, err, "prune")
	if diff := cmp.Diff(PruneStats{Checks: 2, Requests: 1, Verdicts: 1, Extractions: 1}, st, cmpOpts); diff != "" {
		t.Errorf("prune stats (-want +got):\n%s", diff)
	}
	h, _ := db.History(ctx, "T1", HistoryQuery{})
	if diff := cmp.Diff([]string{recent.ID}, ids(h), cmpOpts); diff != "" {
		t.Errorf("history after prune (-want +got):\n%s", diff)
	}
	for _, q := range []HistoryQuery{{User: "U1"}, {Channel: "C1"}, {Verdict: factcheck.Supported}, {Search: "old"}} {
		h, _ := db.History(ctx, "T1", q)
		for _, s := range h {
			if s.ID == old.ID {
				t.Errorf("History(%+v) still finds the pruned check", q)
			}
		}
	}
	if _, err := db.Check(ctx, "T1", old.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("pruned check: %v, want ErrNotFound", err)
	}
	if _, err := db.Request(ctx, "T1", "pending-old"); err != nil {
		t.Errorf("pending request was pruned: %v", err)
	}
	if _, ok, _ := db.Verdict(ctx, "T1", "new claim", 0); !ok {
		t.Error("recent verdict pruned")
	}
	mustf(t, db.checkInvariants(), "verify")
}

func TestForget(t *testing.T) {
	db, clk := newDB(t)
	var mine []*Check
	for i, u := range []string{"U1", "U2", "U1"} {
		clk.Add(time.Minute)
		c := check("T1", "C1", u, "text "+string(rune('a'+i)), clk.Now(), map[string]factcheck.Label{"claim " + string(rune('a'+i)): factcheck.Supported})
		mustf(t, db.SaveCheck(ctx, c), "save")
		mustf(t, db.PutVerdict(ctx, "T1", c.Report.Claims[0]), "put verdict")
		_, err := db.AcceptRequest(ctx, &Request{Key: c.ID, Tenant: "T1", User: u, Text: c.Text})
		mustf(t, err, "accept")
		if u == "U1" {
			mine = append(mine, c)
		}
	}
	// Same user in another tenant is not touched.
	otherTenant := check("T2", "C1", "U1", "text", clk.Now(), nil)
	mustf(t, db.SaveCheck(ctx, otherTenant), "save")

	st, err := db.Forget(ctx, "T1", "U1")
	mustf(t, err, "forget")
	if diff := cmp.Diff(ForgetStats{Checks: 2, Requests: 2, Verdicts: 2}, st, cmpOpts); diff != "" {
		t.Errorf("forget stats (-want +got):\n%s", diff)
	}
	for _, c := range mine {
		if _, err := db.Check(ctx, "T1", c.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("forgotten check %s: %v", c.ID, err)
		}
		if _, ok, _ := db.Verdict(ctx, "T1", c.Report.Claims[0].Claim, 0); ok {
			t.Errorf("cached verdict of a forgotten claim remains")
		}
	}
	for _, q := range []HistoryQuery{{}, {User: "U1"}, {Channel: "C1"}, {Verdict: factcheck.Supported}, {Search: "text"}} {
		h, _ := db.History(ctx, "T1", q)
		for _, s := range h {
			if s.User == "U1" {
				t.Errorf("History(%+v) still finds %s", q, s.ID)
			}
		}
		if want := 1; q.User == "U1" && len(h) != 0 || q.User == "" && len(h) != want {
			t.Errorf("History(%+v) = %v, want U2's check only", q, ids(h))
		}
	}
	if h, _ := db.History(ctx, "T2", HistoryQuery{User: "U1"}); len(h) != 1 {
		t.Errorf("other tenant's check of the same user: %v", ids(h))
	}
	mustf(t, db.checkInvariants(), "verify")
}

func TestBackupAndEachCheck(t *testing.T) {
	db, clk := newDB(t)
	var want []*Check
	for i := range 600 { // more than one export batch
		clk.Add(time.Second)
		c := check("T1", "C1", "U1", "t", clk.Now(), map[string]factcheck.Label{"c": factcheck.Labels[i%4]})
		want = append(want, c)
	}
	mustf(t, db.SaveChecks(ctx, want), "save")
	path := filepath.Join(t.TempDir(), "backup.db")
	n, err := db.BackupFile(ctx, path)
	mustf(t, err, "backup")
	if fi, err := os.Stat(path); err != nil || fi.Size() != n {
		t.Fatalf("backup file: %v, size %v, want %d", err, fi, n)
	}
	if _, err := db.BackupFile(ctx, path); err == nil {
		t.Error("backup over an existing file: no error")
	}
	b, err := Open(path, Options{})
	mustf(t, err, "open backup")
	defer b.Close()
	var got []*Check
	mustf(t, b.EachCheck(ctx, "T1", func(c *Check) error { got = append(got, c); return nil }), "each")
	if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
		t.Errorf("checks in the backup, oldest first (-want +got):\n%s", diff)
	}
	mustf(t, b.checkInvariants(), "verify backup")
}
