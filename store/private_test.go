package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
)

func TestHistoryHidesOthersPrivateChecks(t *testing.T) {
	db, _ := newDB(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	public := check("T1", "C1", "U1", "public claim about rivers", at, map[string]factcheck.Label{"rivers": factcheck.Supported})
	mine := check("T1", "C1", "U1", "private claim about rivers", at.Add(time.Minute), map[string]factcheck.Label{"rivers 2": factcheck.Contradicted})
	mine.Private = true
	for _, c := range []*Check{public, mine} {
		if err := db.SaveCheck(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		q    HistoryQuery
		want []string
	}{
		{"operator sees all", HistoryQuery{}, []string{mine.ID, public.ID}},
		{"the asker sees their own", HistoryQuery{HidePrivate: true, Viewer: "U1"}, []string{mine.ID, public.ID}},
		{"others do not", HistoryQuery{HidePrivate: true, Viewer: "U2"}, []string{public.ID}},
		{"nobody in particular does not", HistoryQuery{HidePrivate: true}, []string{public.ID}},
		{"not through word search", HistoryQuery{HidePrivate: true, Viewer: "U2", Search: "private"}, nil},
		{"not through the verdict index", HistoryQuery{HidePrivate: true, Viewer: "U2", Verdict: factcheck.Contradicted}, nil},
		{"not through the user index", HistoryQuery{HidePrivate: true, Viewer: "U2", User: "U1"}, []string{public.ID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sums, err := db.History(ctx, "T1", tc.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range sums {
				got = append(got, s.ID)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("history ids (-want +got):\n%s", diff)
			}
		})
	}
}
