package store

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
)

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
