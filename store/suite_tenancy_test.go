package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// tenancyFixture saves tenant A's request (slack:event:Ev1), its check
// (with feedback) and a request of tenant B, and returns A's check. Both
// tenants use the same channel, user, text and request key, so only the
// tenant can tell them apart.
func tenancyFixture(t *testing.T, b Backend, clk *storetest.Clock) *store.Check {
	t.Helper()
	const text = "The Eiffel Tower is 330 m tall"
	a := check("A", "C1", "U1", text, clk.Now(), map[string]factcheck.Label{text: factcheck.Supported})
	a.RequestKey = "slack:event:Ev1"
	_, err := b.AcceptRequest(ctx, &store.Request{Key: "slack:event:Ev1", Tenant: "A", Channel: "C1", User: "U1", Text: text})
	mustf(t, err, "accept A")
	mustf(t, b.SaveCheck(ctx, a), "save A")
	mustf(t, b.AddFeedback(ctx, "A", a.ID, store.Feedback{User: "U1", Note: "x"}), "feedback A")
	// B exists too, with one unrelated record.
	_, err = b.AcceptRequest(ctx, &store.Request{Key: "other", Tenant: "B", Text: "other"})
	mustf(t, err, "accept B")
	clk.Add(time.Hour)
	return a
}

// testTenancyHistory: no history query of tenant B finds A's check.
func testTenancyHistory(t *testing.T, b Backend, clk *storetest.Clock) {
	tenancyFixture(t, b, clk)
	for _, q := range []store.HistoryQuery{
		{}, {Channel: "C1"}, {User: "U1"}, {Verdict: factcheck.Supported}, {Since: t0.Add(-time.Hour)}, {Search: "eiffel"},
		{Channel: "C1", User: "U1", Verdict: factcheck.Supported, Search: "tower", Since: t0},
	} {
		if h, err := b.History(ctx, "B", q); err != nil || len(h) != 0 {
			t.Errorf("History(B, %+v) = %v, %v; want nothing", q, ids(h), err)
		}
		if h, err := b.History(ctx, "A", q); err != nil || len(h) != 1 {
			t.Errorf("History(A, %+v) = %v, %v; want A's check", q, ids(h), err)
		}
	}
}

// testTenancy: no read or write of tenant B finds or changes A's records.
func testTenancy(t *testing.T, b Backend, clk *storetest.Clock) {
	a := tenancyFixture(t, b, clk)
	tests := []struct {
		name string
		run  func(tenant string) (found bool, err error)
	}{
		{"Check", func(tn string) (bool, error) {
			_, err := b.Check(ctx, tn, a.ID)
			return err == nil, ignoreNotFound(err)
		}},
		{"Request", func(tn string) (bool, error) {
			_, err := b.Request(ctx, tn, "slack:event:Ev1")
			return err == nil, ignoreNotFound(err)
		}},
		{"PendingRequests", func(tn string) (bool, error) {
			rs, err := b.PendingRequests(ctx, tn)
			for _, r := range rs {
				if r.Key == "slack:event:Ev1" {
					return true, err
				}
			}
			return false, err
		}},
		{"AddFeedback", func(tn string) (bool, error) {
			err := b.AddFeedback(ctx, tn, a.ID, store.Feedback{Note: "y"})
			return err == nil, ignoreNotFound(err)
		}},
		{"UpdateRequest", func(tn string) (bool, error) {
			err := b.UpdateRequest(ctx, tn, "slack:event:Ev1", func(*store.Request) error { return nil })
			return err == nil, ignoreNotFound(err)
		}},
		{"FinishRequest", func(tn string) (bool, error) {
			err := b.FinishRequest(ctx, tn, "slack:event:Ev1", store.RequestDone, "")
			return err == nil, ignoreNotFound(err)
		}},
		{"AcceptRequest is new in B", func(tn string) (bool, error) {
			// A redelivery is only one within the tenant: the same key in B is
			// B's own first request.
			isNew, err := b.AcceptRequest(ctx, &store.Request{Key: "slack:event:Ev1", Tenant: tn, User: "probe"})
			return !isNew, err
		}},
		{"SaveCheck records on B's request only", func(tn string) (bool, error) {
			c := check(tn, "C1", "probe", "probe", clk.Now(), nil)
			c.RequestKey = "slack:event:Ev1"
			if err := b.SaveCheck(ctx, c); err != nil {
				return false, err
			}
			r, err := b.Request(ctx, "A", "slack:event:Ev1")
			return err != nil || r.CheckID != a.ID, err
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
	// A's records are all as they were.
	got, err := b.Check(ctx, "A", a.ID)
	mustf(t, err, "A's check after B's queries")
	if len(got.Feedback) != 1 {
		t.Errorf("A's check has feedback %+v, want only A's", got.Feedback)
	}
	r, err := b.Request(ctx, "A", "slack:event:Ev1")
	mustf(t, err, "A's request after B's queries")
	if r.State != store.RequestPending || r.CheckID != a.ID || r.User != "U1" {
		t.Errorf("A's request after B's queries: %+v", r)
	}
	tenants, err := b.Tenants(ctx)
	mustf(t, err, "tenants")
	if diff := cmp.Diff([]string{"A", "B"}, tenants); diff != "" {
		t.Errorf("Tenants, both with pending requests (-want +got):\n%s", diff)
	}
}

// testNoTenant: every record belongs to a tenant; a query or write
// without one fails with store.ErrNoTenant.
func testNoTenant(t *testing.T, b Backend, clk *storetest.Clock) {
	tests := []struct {
		name string
		run  func() error
	}{
		{"AcceptRequest", func() error {
			_, err := b.AcceptRequest(ctx, &store.Request{Key: "k"})
			return err
		}},
		{"UpdateRequest", func() error { return b.UpdateRequest(ctx, "", "k", func(*store.Request) error { return nil }) }},
		{"FinishRequest", func() error { return b.FinishRequest(ctx, "", "k", store.RequestDone, "") }},
		{"Request", func() error { _, err := b.Request(ctx, "", "k"); return err }},
		{"PendingRequests", func() error { _, err := b.PendingRequests(ctx, ""); return err }},
		{"ClaimRequest", func() error { _, err := b.ClaimRequest(ctx, "", "k", "o", time.Minute); return err }},
		{"ClaimPending", func() error { _, err := b.ClaimPending(ctx, "", "o", time.Minute); return err }},
		{"RenewLease", func() error { return b.RenewLease(ctx, "", "k", "o", time.Minute) }},
		{"SaveCheck", func() error { return b.SaveCheck(ctx, &store.Check{Text: "t"}) }},
		{"Check", func() error { _, err := b.Check(ctx, "", "id"); return err }},
		{"History", func() error { _, err := b.History(ctx, "", store.HistoryQuery{}); return err }},
		{"AddFeedback", func() error { return b.AddFeedback(ctx, "", "id", store.Feedback{}) }},
	}
	for _, tt := range tests {
		if err := tt.run(); !errors.Is(err, store.ErrNoTenant) {
			t.Errorf("%s without a tenant: %v, want ErrNoTenant", tt.name, err)
		}
	}
}

// testCanceledContext: every method gives up on a canceled context and
// writes nothing.
func testCanceledContext(t *testing.T, b Backend, clk *storetest.Clock) {
	_, err := b.AcceptRequest(ctx, &store.Request{Key: "k", Tenant: "T1"})
	mustf(t, err, "accept")
	c := check("T1", "C1", "U1", "t", clk.Now(), nil)
	mustf(t, b.SaveCheck(ctx, c), "save")
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	tests := []struct {
		name string
		run  func() error
	}{
		{"AcceptRequest", func() error {
			_, err := b.AcceptRequest(canceled, &store.Request{Key: "k2", Tenant: "T1"})
			return err
		}},
		{"UpdateRequest", func() error {
			return b.UpdateRequest(canceled, "T1", "k", func(r *store.Request) error { r.Attempts = 9; return nil })
		}},
		{"FinishRequest", func() error { return b.FinishRequest(canceled, "T1", "k", store.RequestDone, "") }},
		{"Request", func() error { _, err := b.Request(canceled, "T1", "k"); return err }},
		{"Tenants", func() error { _, err := b.Tenants(canceled); return err }},
		{"PendingRequests", func() error { _, err := b.PendingRequests(canceled, "T1"); return err }},
		{"SaveCheck", func() error { return b.SaveCheck(canceled, check("T1", "C1", "U1", "t2", clk.Now(), nil)) }},
		{"Check", func() error { _, err := b.Check(canceled, "T1", c.ID); return err }},
		{"History", func() error { _, err := b.History(canceled, "T1", store.HistoryQuery{}); return err }},
		{"AddFeedback", func() error { return b.AddFeedback(canceled, "T1", c.ID, store.Feedback{Note: "n"}) }},
	}
	for _, tt := range tests {
		if err := tt.run(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a canceled context: %v, want context.Canceled", tt.name, err)
		}
	}
	pend, err := b.PendingRequests(ctx, "T1")
	mustf(t, err, "pending")
	if len(pend) != 1 || pend[0].Attempts != 0 {
		t.Errorf("pending after canceled writes = %+v, want k unchanged", pend)
	}
	h, err := b.History(ctx, "T1", store.HistoryQuery{})
	mustf(t, err, "history")
	if diff := cmp.Diff([]string{c.ID}, ids(h)); diff != "" {
		t.Errorf("history after canceled writes (-want +got):\n%s", diff)
	}
	got, err := b.Check(ctx, "T1", c.ID)
	mustf(t, err, "check")
	if len(got.Feedback) != 0 {
		t.Errorf("feedback after a canceled write: %+v", got.Feedback)
	}
}

// testRecordsAreCopies: what a caller holds is its own: changing a record
// after saving it, or one that was returned, changes nothing stored.
func testRecordsAreCopies(t *testing.T, b Backend, clk *storetest.Clock) {
	r := &store.Request{Key: "k", Tenant: "T1", Text: "t", Meta: map[string]string{"a": "1"}}
	_, err := b.AcceptRequest(ctx, r)
	mustf(t, err, "accept")
	r.Meta["a"] = "changed"
	r.Text = "changed"
	var kept *store.Request
	mustf(t, b.UpdateRequest(ctx, "T1", "k", func(r *store.Request) error { kept = r; r.Attempts = 1; return nil }), "update")
	kept.Attempts = 5
	got, err := b.Request(ctx, "T1", "k")
	mustf(t, err, "request")
	got.Meta["a"] = "changed too"
	pend, err := b.PendingRequests(ctx, "T1")
	mustf(t, err, "pending")
	pend[0].Meta["b"] = "2"
	got, err = b.Request(ctx, "T1", "k")
	mustf(t, err, "request")
	if got.Text != "t" || got.Attempts != 1 || !cmp.Equal(got.Meta, map[string]string{"a": "1"}) {
		t.Errorf("stored request changed through a caller's copy: %+v", got)
	}

	c := check("T1", "C1", "U1", "t", clk.Now(), map[string]factcheck.Label{"claim": factcheck.Supported})
	mustf(t, b.SaveCheck(ctx, c), "save")
	c.Report.Claims[0].Verdict = factcheck.Contradicted
	shown, err := b.Check(ctx, "T1", c.ID)
	mustf(t, err, "check")
	shown.Report.Claims[0].Claim = "changed"
	h, err := b.History(ctx, "T1", store.HistoryQuery{})
	mustf(t, err, "history")
	h[0].Verdicts[0] = factcheck.Contested
	shown, err = b.Check(ctx, "T1", c.ID)
	mustf(t, err, "check")
	if v := shown.Report.Claims[0]; v.Verdict != factcheck.Supported || v.Claim != "claim" {
		t.Errorf("stored check changed through a caller's copy: %+v", v)
	}
	if h, _ := b.History(ctx, "T1", store.HistoryQuery{}); h[0].Verdicts[0] != factcheck.Supported {
		t.Errorf("history changed through a caller's copy: %+v", h[0])
	}
}
