package store

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
)

func TestForget(t *testing.T) {
	db, clk := newDB(t)
	var mine []*Check
	for i, u := range []string{"U1", "U2", "U1"} {
		clk.Add(time.Minute)
		c := check("T1", "C1", u, "text "+string(rune('a'+i)), clk.Now(), map[string]factcheck.Label{"claim " + string(rune('a'+i)): factcheck.Supported})
		mustf(t, db.SaveCheck(ctx, c), "save")
		mustf(t, db.PutVerdict(ctx, "T1", c.Report.Claims[0], nil), "put verdict")
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
		if _, ok, _ := db.Verdict(ctx, "T1", c.Report.Claims[0].Claim, 0, nil); ok {
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
