package storetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// testHistory: every filter of store.HistoryQuery, alone and combined,
// newest first, and the summary of a check.
func testHistory(t *testing.T, b Backend, clk *clock) {
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
func testHistoryDefaultLimit(t *testing.T, b Backend, clk *clock) {
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

// testHistoryHidesOthersPrivateChecks: with HidePrivate, private checks
// show to their asker (Viewer) only, through every filter.
func testHistoryHidesOthersPrivateChecks(t *testing.T, b Backend, clk *clock) {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	public := check("T1", "C1", "U1", "public claim about rivers", at, map[string]factcheck.Label{"rivers": factcheck.Supported})
	mine := check("T1", "C1", "U1", "private claim about rivers", at.Add(time.Minute), map[string]factcheck.Label{"rivers 2": factcheck.Contradicted})
	mine.Private = true
	for _, c := range []*store.Check{public, mine} {
		mustf(t, b.SaveCheck(ctx, c), "save")
	}
	for _, tc := range []struct {
		name string
		q    store.HistoryQuery
		want []string
	}{
		{"operator sees all", store.HistoryQuery{}, []string{mine.ID, public.ID}},
		{"the asker sees their own", store.HistoryQuery{HidePrivate: true, Viewer: "U1"}, []string{mine.ID, public.ID}},
		{"others do not", store.HistoryQuery{HidePrivate: true, Viewer: "U2"}, []string{public.ID}},
		{"nobody in particular does not", store.HistoryQuery{HidePrivate: true}, []string{public.ID}},
		{"not through word search", store.HistoryQuery{HidePrivate: true, Viewer: "U2", Search: "private"}, nil},
		{"not through the verdict index", store.HistoryQuery{HidePrivate: true, Viewer: "U2", Verdict: factcheck.Contradicted}, nil},
		{"not through the user index", store.HistoryQuery{HidePrivate: true, Viewer: "U2", User: "U1"}, []string{public.ID}},
		{"not through the channel index", store.HistoryQuery{HidePrivate: true, Viewer: "U2", Channel: "C1"}, []string{public.ID}},
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
