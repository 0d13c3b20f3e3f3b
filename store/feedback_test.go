package store

import (
	"bytes"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
)

// rawCheck returns the stored bytes of a check record.
func rawCheck(t *testing.T, db *DB, tenant, id string) []byte {
	t.Helper()
	var out []byte
	err := db.run(ctx, ModeView, func(tx *txn) error {
		tb := &tenantTx{tx, tenant}
		out = bytes.Clone(tb.Bucket(bChecks).Get([]byte(id)))
		return nil
	})
	mustf(t, err, "read raw check")
	return out
}

// TestFeedbackDoesNotRewriteCheck: a feedback click writes a record of its
// own; the check record stays byte for byte as saved, and a check read with
// its feedback and saved again does not store the notes twice.
func TestFeedbackDoesNotRewriteCheck(t *testing.T) {
	db, _ := newDB(t)
	c := check("T1", "C1", "U1", "text", t0, map[string]factcheck.Label{"claim": factcheck.Supported})
	mustf(t, db.SaveCheck(ctx, c), "save")
	before := rawCheck(t, db, "T1", c.ID)
	mustf(t, db.AddFeedback(ctx, "T1", c.ID, Feedback{User: "U2", Note: "wrong"}), "feedback")
	if after := rawCheck(t, db, "T1", c.ID); !bytes.Equal(before, after) {
		t.Errorf("AddFeedback rewrote the check record:\nbefore %s\nafter  %s", before, after)
	}
	got, err := db.Check(ctx, "T1", c.ID)
	mustf(t, err, "check")
	mustf(t, db.SaveCheck(ctx, got), "save again")
	again, err := db.Check(ctx, "T1", c.ID)
	mustf(t, err, "check")
	if len(again.Feedback) != 1 {
		t.Errorf("feedback after saving the read check again: %+v, want one note", again.Feedback)
	}
	mustf(t, db.checkInvariants(), "invariants")
}

// TestFeedbackDeletedWithCheck: pruning a check removes its notes.
func TestFeedbackDeletedWithCheck(t *testing.T) {
	db, clk := newDB(t)
	c := check("T1", "C1", "U1", "text", t0, map[string]factcheck.Label{"claim": factcheck.Supported})
	mustf(t, db.SaveCheck(ctx, c), "save")
	mustf(t, db.AddFeedback(ctx, "T1", c.ID, Feedback{User: "U2", Note: "wrong"}), "feedback")
	clk.Add(48 * time.Hour)
	_, err := db.Prune(ctx, clk.Now())
	mustf(t, err, "prune")
	mustf(t, db.checkInvariants(), "invariants")
}
