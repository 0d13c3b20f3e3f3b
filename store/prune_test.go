package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

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
