package postgres

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// TestSameHistoryAsBbolt: the same checks saved in bbolt and in
// PostgreSQL give the same history for every query: filters, word search
// (with the words bbolt's Normalize keeps whole, such as "1,000", "3.5",
// "-5", "50%" and symbols), audiences and limits.
func TestSameHistoryAsBbolt(t *testing.T) {
	clk := storetest.NewClock(t0)
	pg := openTest(t, store.Options{Now: clk.Now})
	bb, err := store.Open(filepath.Join(t.TempDir(), "factbot.db"), store.Options{Now: clk.Now})
	mustf(t, err, "open bbolt")
	defer bb.Close()

	texts := []string{
		"The tower is 1,000 feet tall", "Inflation was 3.5% in 2024", "It was -5 degrees in Oslo",
		"Turnout reached 50% of voters", "C++ and C# are languages", "x<y and a|b hold; e=mc^2",
		"Ünïcödé façade ﬁnance", "Rock 'n' roll was born in 1954", "北京是中国的首都", "Ελλάδα είναι χώρα",
		"don't stop believing", `a back\slash and a 'quote'`, "tabs\tand\nnewlines", "emoji 🚀 rocket",
	}
	rng := rand.New(rand.NewPCG(7, 8))
	labels := []factcheck.Label{factcheck.Supported, factcheck.Contradicted, factcheck.Contested, factcheck.Unverifiable}
	vis := []store.Visibility{store.VisibilityPublic, store.VisibilityPrivate, store.VisibilityDM, store.VisibilityUnknown}
	for i := range 120 {
		clk.Add(time.Duration(rng.IntN(90)) * time.Second)
		text := texts[rng.IntN(len(texts))] + fmt.Sprintf(" item%d", i%17)
		c := &store.Check{
			Tenant: "T1", Channel: fmt.Sprintf("C%d", rng.IntN(4)), User: fmt.Sprintf("U%d", rng.IntN(5)), Text: text,
			CreatedAt: clk.Now(), Private: rng.IntN(5) == 0, Visibility: vis[rng.IntN(len(vis))],
			Report: &factcheck.Report{Claims: []*factcheck.Verdict{
				verdict(texts[rng.IntN(len(texts))], labels[rng.IntN(len(labels))], clk.Now()),
			}},
		}
		mustf(t, bb.SaveCheck(ctx, c), "bbolt save")
		cp := *c
		mustf(t, pg.SaveCheck(ctx, &cp), "postgres save")
	}
	searches := []string{"", "1,000", "1", "3.5", "3", "-5", "5", "50%", "50", "c++", "c", "x<y", "a|b", "mc^2", "e=mc",
		"unicode", "ünïcödé", "FAÇADE", "finance", "fi", "rock", "n", "北京", "北", "ελλάδα", "don", "t", "slash", "back",
		"quote", "'quote'", `\`, "tabs and", "🚀", "item1", "item1 tower", "tower item3", "zzz", "the", "is in"}
	auds := []*store.Audience{nil, {User: "U1"}, {Channel: "C2"}, {User: "U2", Channel: "C1"}, {TenantWide: true},
		{User: "U3", TenantWide: true}, {User: "U0", Channel: "C3", TenantWide: true}, {}}
	n, found := 0, 0
	for _, s := range searches {
		for _, a := range auds {
			qs := []store.HistoryQuery{
				{Search: s, Audience: a, Limit: 1000},
				{Search: s, Audience: a, Limit: 3},
				{Search: s, Audience: a, User: "U1", Verdict: labels[n%4], Limit: 1000},
				{Search: s, Audience: a, Channel: "C0", Since: t0.Add(30 * time.Minute), Limit: 1000},
				{Search: s, Audience: a, Until: t0.Add(time.Hour), Limit: 1000},
				{Search: s, Audience: a, User: "U2", Before: "20261129T124000Z", Until: t0.Add(50 * time.Minute), Limit: 5},
			}
			for _, q := range qs {
				n++
				want, err := bb.History(ctx, "T1", q)
				mustf(t, err, "bbolt history")
				got, err := pg.History(ctx, "T1", q)
				mustf(t, err, "postgres history")
				if len(want) > 0 {
					found++
				}
				if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
					t.Errorf("History(%+v) (-bbolt +postgres):\n%s", q, diff)
				}
			}
		}
	}
	// The comparison means something only if many queries find checks.
	if found < n/3 {
		t.Errorf("only %d of %d queries found checks", found, n)
	}
	t.Logf("%d of %d queries found checks", found, n)
}

// TestReplicasAcceptOnce: two stores on one database (two replicas)
// receiving the same events at once accept each exactly once.
func TestReplicasAcceptOnce(t *testing.T) {
	cfg := newDatabase(t)
	var dbs [2]*DB
	for i := range dbs {
		db, err := OpenConfig(ctx, cfg.Copy(), store.Options{})
		mustf(t, err, "open %d", i)
		defer db.Close()
		dbs[i] = db
	}
	const events = 200
	accepted := make([][2]bool, events)
	var wg sync.WaitGroup
	for i := range events {
		for r, db := range dbs {
			wg.Go(func() {
				isNew, err := db.AcceptRequest(ctx, &store.Request{Key: fmt.Sprintf("slack:event:Ev%d", i), Tenant: "T1", Text: "t"})
				if err != nil {
					t.Errorf("replica %d, event %d: %v", r, i, err)
				}
				accepted[i][r] = isNew
			})
		}
	}
	wg.Wait()
	for i, a := range accepted {
		if a[0] == a[1] {
			t.Errorf("event %d accepted by replicas %v, want exactly one", i, a)
		}
	}
	pend, err := dbs[0].PendingRequests(ctx, "T1")
	mustf(t, err, "pending")
	if len(pend) != events {
		t.Errorf("%d pending requests, want %d", len(pend), events)
	}
}
