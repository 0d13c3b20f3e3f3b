package store_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// testHistory: every filter of store.HistoryQuery, alone and combined,
// newest first, and the summary of a check.
func testHistory(t *testing.T, b Backend, clk *storetest.Clock) {
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
		mustf(t, b.SaveCheck(ctx, c), "save")
		all = append([]string{c.ID}, all...) // newest first
	}
	// all[0] is the last saved (Great Wall), all[4] the first (Eiffel).
	tests := []struct {
		name string
		q    store.HistoryQuery
		want []string
	}{
		{"all newest first", store.HistoryQuery{}, all},
		{"limit", store.HistoryQuery{Limit: 2}, all[:2]},
		{"channel", store.HistoryQuery{Channel: "C2"}, []string{all[1], all[2]}},
		{"user", store.HistoryQuery{User: "U1"}, []string{all[0], all[2], all[4]}},
		{"user and channel", store.HistoryQuery{User: "U1", Channel: "C1"}, []string{all[0], all[4]}},
		{"verdict", store.HistoryQuery{Verdict: factcheck.Contradicted}, []string{all[0], all[2], all[3]}},
		{"verdict and user", store.HistoryQuery{Verdict: factcheck.Contradicted, User: "U2"}, []string{all[3]}},
		{"since", store.HistoryQuery{Since: t0.Add(3 * time.Hour)}, all[:3]},
		{"since and limit", store.HistoryQuery{Since: t0.Add(3 * time.Hour), Limit: 1}, all[:1]},
		{"until", store.HistoryQuery{Until: t0.Add(3 * time.Hour)}, all[3:]},
		{"since and until", store.HistoryQuery{Since: t0.Add(2 * time.Hour), Until: t0.Add(4 * time.Hour)}, all[2:4]},
		{"before: the next page", store.HistoryQuery{Before: all[1], Limit: 2}, all[2:4]},
		{"before in an index", store.HistoryQuery{User: "U1", Before: all[0]}, []string{all[2], all[4]}},
		{"before and until, the lower wins", store.HistoryQuery{Before: all[3], Until: t0.Add(4 * time.Hour)}, all[4:]},
		{"before and search", store.HistoryQuery{Search: "the", Before: all[0]}, []string{all[2], all[4]}},
		{"search one word", store.HistoryQuery{Search: "moon"}, []string{all[2]}},
		{"search word prefix, any case", store.HistoryQuery{Search: "VACCINE"}, []string{all[3]}},
		{"search every word", store.HistoryQuery{Search: "the tower"}, []string{all[4]}},
		{"search inside a word does not match", store.HistoryQuery{Search: "ower"}, []string{}},
		{"search in the input, not only claims", store.HistoryQuery{Search: "healthy; cheese"}, []string{all[2]}},
		{"search and verdict", store.HistoryQuery{Search: "the", Verdict: factcheck.Supported}, []string{all[4]}},
		{"unknown user", store.HistoryQuery{User: "U9"}, []string{}},
		{"user that is a prefix of another", store.HistoryQuery{User: "U"}, []string{}},
		{"unknown tenant", store.HistoryQuery{}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tenant := "T1"
			if tt.name == "unknown tenant" {
				tenant = "T9"
			}
			got, err := b.History(ctx, tenant, tt.q)
			mustf(t, err, "history")
			if got == nil {
				t.Error("History returned nil, want an empty list")
			}
			if diff := cmp.Diff(tt.want, ids(got), cmpOpts); diff != "" {
				t.Errorf("History(%+v) (-want +got):\n%s", tt.q, diff)
			}
		})
	}
	got, _ := b.History(ctx, "T1", store.HistoryQuery{Limit: 1, Channel: "C2"})
	want := store.CheckSummary{
		ID: all[1], Channel: "C2", User: "U3", Text: "Bigfoot lives in Oregon", CreatedAt: t0.Add(4 * time.Hour),
		Verdicts: []factcheck.Label{factcheck.Unverifiable}, Claims: []string{"Bigfoot lives in Oregon"},
	}
	if diff := cmp.Diff([]store.CheckSummary{want}, got, cmpOpts); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
}

// testHistoryDefaultLimit: a query without a limit returns the newest
// store.DefaultLimit checks.
func testHistoryDefaultLimit(t *testing.T, b Backend, clk *storetest.Clock) {
	var all []string
	for range store.DefaultLimit + 1 {
		clk.Add(time.Second)
		c := check("T1", "C1", "U1", "a claim", clk.Now(), map[string]factcheck.Label{"a claim": factcheck.Supported})
		mustf(t, b.SaveCheck(ctx, c), "save")
		all = append([]string{c.ID}, all...)
	}
	got, err := b.History(ctx, "T1", store.HistoryQuery{})
	mustf(t, err, "history")
	if diff := cmp.Diff(all[:store.DefaultLimit], ids(got)); diff != "" {
		t.Errorf("History without a limit (-want +got):\n%s", diff)
	}
}

// testHistoryHidesOthersPrivateChecks: private checks show to their asker
// only, through every filter, even in the channel they were made in.
func testHistoryHidesOthersPrivateChecks(t *testing.T, b Backend, clk *storetest.Clock) {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	public := check("T1", "C1", "U1", "public claim about rivers", at, map[string]factcheck.Label{"rivers": factcheck.Supported})
	mine := check("T1", "C1", "U1", "private claim about rivers", at.Add(time.Minute), map[string]factcheck.Label{"rivers 2": factcheck.Contradicted})
	mine.Private = true
	for _, c := range []*store.Check{public, mine} {
		c.Visibility = store.VisibilityPublic
		mustf(t, b.SaveCheck(ctx, c), "save")
	}
	inC1 := func(user string) *store.Audience { return &store.Audience{User: user, Channel: "C1", TenantWide: true} }
	for _, tc := range []struct {
		name string
		q    store.HistoryQuery
		want []string
	}{
		{"operator sees all", store.HistoryQuery{}, []string{mine.ID, public.ID}},
		{"the asker sees their own", store.HistoryQuery{Audience: inC1("U1")}, []string{mine.ID, public.ID}},
		{"others do not", store.HistoryQuery{Audience: inC1("U2")}, []string{public.ID}},
		{"nobody in particular does not", store.HistoryQuery{Audience: inC1("")}, []string{public.ID}},
		{"not through word search", store.HistoryQuery{Audience: inC1("U2"), Search: "private"}, nil},
		{"not through the verdict index", store.HistoryQuery{Audience: inC1("U2"), Verdict: factcheck.Contradicted}, nil},
		{"not through the user index", store.HistoryQuery{Audience: inC1("U2"), User: "U1"}, []string{public.ID}},
		{"not through the channel index", store.HistoryQuery{Audience: inC1("U2"), Channel: "C1"}, []string{public.ID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sums, err := b.History(ctx, "T1", tc.q)
			mustf(t, err, "history")
			var got []string
			for _, s := range sums {
				got = append(got, s.ID)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("history ids (-want +got):\n%s", diff)
			}
		})
	}
	got, _ := b.History(ctx, "T1", store.HistoryQuery{Limit: 1})
	if len(got) != 1 || !got[0].Private {
		t.Errorf("summary of a private check = %+v, want Private set", got)
	}
}

// testHistoryAudience: History shows a check to an audience exactly when
// (*store.Check).VisibleTo says so: the asker sees every check of theirs;
// anyone else sees the non-private checks of the channel they ask in, and a
// tenant-wide listing adds the checks of public channels only — never
// those of private channels, group DMs, DMs, or of an unknown place.
func testHistoryAudience(t *testing.T, b Backend, clk *storetest.Clock) {
	type place struct {
		channel string
		vis     store.Visibility
	}
	places := []place{
		{"CPUB", store.VisibilityPublic},
		{"GPRIV", store.VisibilityPrivate},
		{"MPDM", store.VisibilityGroup},
		{"DM1", store.VisibilityDM},
		{"COLD", store.VisibilityUnknown},
	}
	byPlace := map[string]*store.Check{}
	var all []*store.Check
	for _, p := range places {
		clk.Add(time.Minute)
		c := check("T1", p.channel, "U1", "rivers flow in "+p.channel, clk.Now(), map[string]factcheck.Label{"rivers flow in " + p.channel: factcheck.Supported})
		c.Visibility = p.vis
		mustf(t, b.SaveCheck(ctx, c), "save")
		byPlace[p.channel] = c
		all = append([]*store.Check{c}, all...)
	}
	clk.Add(time.Minute)
	hidden := check("T1", "CPUB", "U1", "rivers flow privately", clk.Now(), map[string]factcheck.Label{"rivers flow privately": factcheck.Supported})
	hidden.Visibility, hidden.Private = store.VisibilityPublic, true
	mustf(t, b.SaveCheck(ctx, hidden), "save")
	all = append([]*store.Check{hidden}, all...)

	want := func(cs ...*store.Check) []string {
		out := []string{}
		for _, c := range all { // newest first
			for _, w := range cs {
				if w == c {
					out = append(out, c.ID)
				}
			}
		}
		return out
	}
	tests := []struct {
		name string
		a    *store.Audience
		want []string
	}{
		{"operator", nil, want(all...)},
		{"asker tenant-wide", &store.Audience{User: "U1", TenantWide: true}, want(all...)},
		{"asker in a DM", &store.Audience{User: "U1", Channel: "DM9"}, want(all...)},
		{"other tenant-wide: public channels only", &store.Audience{User: "U2", Channel: "C9", TenantWide: true}, want(byPlace["CPUB"])},
		{"other in the public channel", &store.Audience{User: "U2", Channel: "CPUB"}, want(byPlace["CPUB"])},
		{"other in the private channel", &store.Audience{User: "U2", Channel: "GPRIV"}, want(byPlace["GPRIV"])},
		{"other in the private channel, tenant-wide", &store.Audience{User: "U2", Channel: "GPRIV", TenantWide: true}, want(byPlace["CPUB"], byPlace["GPRIV"])},
		{"other in the group DM", &store.Audience{User: "U2", Channel: "MPDM"}, want(byPlace["MPDM"])},
		{"other in the DM", &store.Audience{User: "U2", Channel: "DM1"}, want(byPlace["DM1"])},
		{"other in the unknown place", &store.Audience{User: "U2", Channel: "COLD"}, want(byPlace["COLD"])},
		{"other elsewhere, not tenant-wide", &store.Audience{User: "U2", Channel: "C9"}, want()},
		{"nobody", &store.Audience{}, want()},
		{"nobody tenant-wide", &store.Audience{TenantWide: true}, want(byPlace["CPUB"])},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, q := range []store.HistoryQuery{
				{Audience: tt.a},
				{Audience: tt.a, Search: "rivers"},
				{Audience: tt.a, User: "U1"},
				{Audience: tt.a, Verdict: factcheck.Supported},
			} {
				got, err := b.History(ctx, "T1", q)
				mustf(t, err, "history")
				if diff := cmp.Diff(tt.want, ids(got)); diff != "" {
					t.Errorf("History(%+v) (-want +got):\n%s", q, diff)
				}
				for _, s := range got {
					if s.Visibility != byID(all, s.ID).Visibility {
						t.Errorf("summary %s: visibility %q, want %q", s.ID, s.Visibility, byID(all, s.ID).Visibility)
					}
				}
			}
			// VisibleTo on the stored check is the same rule.
			var vis []string
			for _, c := range all {
				got, err := b.Check(ctx, "T1", c.ID)
				mustf(t, err, "check")
				if got.VisibleTo(tt.a) {
					vis = append(vis, c.ID)
				}
			}
			if diff := cmp.Diff(tt.want, vis, cmpOpts); diff != "" {
				t.Errorf("VisibleTo (-want +got):\n%s", diff)
			}
		})
	}
}

func byID(cs []*store.Check, id string) *store.Check {
	for _, c := range cs {
		if c.ID == id {
			return c
		}
	}
	return nil
}
