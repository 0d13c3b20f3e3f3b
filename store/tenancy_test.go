package store

import (
	"errors"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
)

// Records of tenant A never appear in any query of tenant B. Both tenants
// use the same channel, user, claim, text and request key, so only the
// tenant can tell them apart.
func TestTenancy(t *testing.T) {
	db, clk := newDB(t)
	const text = "The Eiffel Tower is 330 m tall"
	a := check("A", "C1", "U1", text, clk.Now(), map[string]factcheck.Label{text: factcheck.Supported})
	a.RequestKey = "slack:event:Ev1"
	_, err := db.AcceptRequest(ctx, &Request{Key: "slack:event:Ev1", Tenant: "A", Channel: "C1", User: "U1", Text: text})
	mustf(t, err, "accept A")
	mustf(t, db.SaveCheck(ctx, a), "save A")
	mustf(t, db.PutVerdict(ctx, "A", a.Report.Claims[0]), "verdict A")
	mustf(t, db.PutExtraction(ctx, "A", text, &factcheck.Extraction{}), "extraction A")
	mustf(t, db.AddFeedback(ctx, "A", a.ID, Feedback{User: "U1", Note: "x"}), "feedback A")
	// B exists too, with one unrelated record.
	_, err = db.AcceptRequest(ctx, &Request{Key: "other", Tenant: "B", Text: "other"})
	mustf(t, err, "accept B")
	clk.Add(time.Hour)

	for _, q := range []HistoryQuery{
		{}, {Channel: "C1"}, {User: "U1"}, {Verdict: factcheck.Supported}, {Since: t0.Add(-time.Hour)}, {Search: "eiffel"},
		{Channel: "C1", User: "U1", Verdict: factcheck.Supported, Search: "tower", Since: t0},
	} {
		if h, err := db.History(ctx, "B", q); err != nil || len(h) != 0 {
			t.Errorf("History(B, %+v) = %v, %v; want nothing", q, ids(h), err)
		}
		if h, err := db.History(ctx, "A", q); err != nil || len(h) != 1 {
			t.Errorf("History(A, %+v) = %v, %v; want A's check", q, ids(h), err)
		}
	}
	tests := []struct {
		name string
		run  func(tenant string) (found bool, err error)
	}{
		{"Check", func(tn string) (bool, error) {
			_, err := db.Check(ctx, tn, a.ID)
			return err == nil, ignoreNotFound(err)
		}},
		{"Request", func(tn string) (bool, error) {
			_, err := db.Request(ctx, tn, "slack:event:Ev1")
			return err == nil, ignoreNotFound(err)
		}},
		{"PendingRequests", func(tn string) (bool, error) {
			rs, err := db.PendingRequests(ctx, tn)
			for _, r := range rs {
				if r.Key == "slack:event:Ev1" {
					return true, err
				}
			}
			return false, err
		}},
		{"Verdict", func(tn string) (bool, error) { _, ok, err := db.Verdict(ctx, tn, text, 0); return ok, err }},
		{"Extraction", func(tn string) (bool, error) { _, ok, err := db.Extraction(ctx, tn, text, 0); return ok, err }},
		{"EachCheck", func(tn string) (bool, error) {
			n := 0
			err := db.EachCheck(ctx, tn, func(*Check) error { n++; return nil })
			return n > 0, err
		}},
		{"AddFeedback", func(tn string) (bool, error) {
			err := db.AddFeedback(ctx, tn, a.ID, Feedback{Note: "y"})
			return err == nil, ignoreNotFound(err)
		}},
		{"UpdateRequest", func(tn string) (bool, error) {
			err := db.UpdateRequest(ctx, tn, "slack:event:Ev1", func(*Request) error { return nil })
			return err == nil, ignoreNotFound(err)
		}},
		{"AcceptRequest is new in B", func(tn string) (bool, error) {
			// A redelivery is only one within the tenant: the same key in B is
			// B's own first request, and is rolled back below by Forget.
			isNew, err := db.AcceptRequest(ctx, &Request{Key: "slack:event:Ev1", Tenant: tn, User: "probe"})
			return !isNew, err
		}},
		{"Forget", func(tn string) (bool, error) {
			st, err := db.Forget(ctx, tn, "U1")
			if tn == "B" {
				db.Forget(ctx, tn, "probe")
			}
			return st.Checks > 0, err
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
	tenants, _ := db.Tenants(ctx)
	if len(tenants) != 2 {
		t.Errorf("Tenants = %v, want A and B (both have pending requests)", tenants)
	}
	if _, err := db.History(ctx, "", HistoryQuery{}); !errors.Is(err, ErrNoTenant) {
		t.Errorf("History without tenant: %v, want ErrNoTenant", err)
	}
	mustf(t, db.checkInvariants(), "verify")
}

func ignoreNotFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}
