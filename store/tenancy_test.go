package store

import (
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
)

// Cached verdicts and extractions, exports and Forget of tenant A never
// reach tenant B. Both tenants use the same channel, user, claim, text and
// request key, so only the tenant can tell them apart. (The records the
// chat core uses are covered by the conformance suite, Run.)
func TestTenancy(t *testing.T) {
	db, clk := newDB(t)
	const text = "The Eiffel Tower is 330 m tall"
	a := check("A", "C1", "U1", text, clk.Now(), map[string]factcheck.Label{text: factcheck.Supported})
	a.RequestKey = "slack:event:Ev1"
	_, err := db.AcceptRequest(ctx, &Request{Key: "slack:event:Ev1", Tenant: "A", Channel: "C1", User: "U1", Text: text})
	mustf(t, err, "accept A")
	mustf(t, db.SaveCheck(ctx, a), "save A")
	mustf(t, db.PutVerdict(ctx, "A", a.Report.Claims[0], nil), "verdict A")
	mustf(t, db.PutExtraction(ctx, "A", text, &factcheck.Extraction{}, nil), "extraction A")
	mustf(t, db.AddFeedback(ctx, "A", a.ID, Feedback{User: "U1", Note: "x"}), "feedback A")
	// B exists too, with one unrelated record.
	_, err = db.AcceptRequest(ctx, &Request{Key: "other", Tenant: "B", Text: "other"})
	mustf(t, err, "accept B")
	clk.Add(time.Hour)

	tests := []struct {
		name string
		run  func(tenant string) (found bool, err error)
	}{
		{"Verdict", func(tn string) (bool, error) { _, ok, err := db.Verdict(ctx, tn, text, 0, nil); return ok, err }},
		{"Extraction", func(tn string) (bool, error) { _, ok, err := db.Extraction(ctx, tn, text, 0, nil); return ok, err }},
		{"EachCheck", func(tn string) (bool, error) {
			n := 0
			err := db.EachCheck(ctx, tn, func(*Check) error { n++; return nil })
			return n > 0, err
		}},
		{"Forget", func(tn string) (bool, error) {
			st, err := db.Forget(ctx, tn, "U1")
			return st.Checks > 0 || st.Requests > 0 || st.Verdicts > 0 || st.Extractions > 0, err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found, err := tt.run("B")
			if err != nil || found {
				t.Errorf("%s in tenant B: found A's record = %v, err %v", tt.name, found, err)
			}
		})
	}
	// A's records are all still there (Forget ran in B only).
	if _, err := db.Check(ctx, "A", a.ID); err != nil {
		t.Errorf("A's check after B's queries: %v", err)
	}
	if _, err := db.Request(ctx, "A", "slack:event:Ev1"); err != nil {
		t.Errorf("A's request after B's queries: %v", err)
	}
	if _, ok, err := db.Verdict(ctx, "A", text, 0, nil); err != nil || !ok {
		t.Errorf("A's cached verdict after B's queries: %v, %v", ok, err)
	}
	mustf(t, db.checkInvariants(), "invariants")
}
