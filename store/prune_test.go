package store

import (
	"context"
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

// TestPruneRefused: the dedupe records of refused requests go once they are
// RefusedTTL old, whatever Prune's cutoff; other finished requests of the
// same age stay until the cutoff passes them.
func TestPruneRefused(t *testing.T) {
	db, clk := newDB(t)
	for _, k := range []string{"refused", "failed", "refused-recent"} {
		if k == "refused-recent" {
			clk.Add(RefusedTTL)
		}
		_, err := db.AcceptRequest(ctx, &Request{Key: k, Tenant: "T1", User: "U1", Text: "t"})
		mustf(t, err, "accept")
		if k == "failed" {
			mustf(t, db.FinishRequest(ctx, "T1", k, RequestFailed, ""), "finish")
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
	mustf(t, db.checkInvariants(), "invariants")
}

// TestPruneEvery: PruneEvery prunes on each tick with the cutoff
// retention before now, and stops when its context ends.
func TestPruneEvery(t *testing.T) {
	db, clk := newDB(t)
	old := check("T1", "C1", "U1", "old", clk.Now(), nil)
	mustf(t, db.SaveCheck(ctx, old), "save")
	clk.Add(48 * time.Hour)
	recent := check("T1", "C1", "U1", "recent", clk.Now(), nil)
	mustf(t, db.SaveCheck(ctx, recent), "save")
	runCtx, cancel := context.WithCancel(ctx)
	reports := make(chan PruneStats)
	done := make(chan struct{})
	go func() {
		defer close(done)
		db.PruneEvery(runCtx, time.Millisecond, 24*time.Hour, func(st PruneStats, err error) {
			if err != nil && runCtx.Err() == nil {
				t.Errorf("prune: %v", err)
			}
			select {
			case reports <- st:
			case <-runCtx.Done():
			}
		})
	}()
	if st := <-reports; st.Checks != 1 {
		t.Errorf("first run pruned %d checks, want 1", st.Checks)
	}
	if st := <-reports; st.Checks != 0 {
		t.Errorf("second run pruned %d checks, want 0", st.Checks)
	}
	cancel()
	<-done
	h, _ := db.History(ctx, "T1", HistoryQuery{})
	if diff := cmp.Diff([]string{recent.ID}, ids(h)); diff != "" {
		t.Errorf("history after PruneEvery (-want +got):\n%s", diff)
	}
}
