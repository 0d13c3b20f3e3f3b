package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// acceptTwo accepts requests slack:event:Ev1 (at t0, with every field
// set) and, a second later, slack:event:Ev2 of tenant T1, and returns the
// first as AcceptRequest left it.
func acceptTwo(t *testing.T, b Backend, clk *storetest.Clock) *store.Request {
	t.Helper()
	r := &store.Request{Key: "slack:event:Ev1", Tenant: "T1", Platform: "slack", Kind: "mention", Channel: "C1", Thread: "1.1", Link: "https://x/p1", User: "U1", Text: "is it so?", Private: true, Visibility: store.VisibilityGroup, Fresh: true, Meta: map[string]string{"response_url": "https://x"}}
	isNew, err := b.AcceptRequest(ctx, r)
	mustf(t, err, "accept")
	if !isNew {
		t.Fatal("first accept: isNew = false")
	}
	clk.Add(time.Second)
	r2 := &store.Request{Key: "slack:event:Ev2", Tenant: "T1", Text: "second"}
	_, err = b.AcceptRequest(ctx, r2)
	mustf(t, err, "accept 2")
	return r
}

// testAcceptRequest: accepting is idempotent per key; pending requests
// come oldest first and their tenants are listed.
func testAcceptRequest(t *testing.T, b Backend, clk *storetest.Clock) {
	r := acceptTwo(t, b, clk)
	if r.State != store.RequestPending || !r.CreatedAt.Equal(t0) || !r.UpdatedAt.Equal(t0) {
		t.Errorf("accepted request: state %q created %v updated %v; want pending at %v", r.State, r.CreatedAt, r.UpdatedAt, t0)
	}
	// Redelivery: same key, other contents; nothing written.
	clk.Add(time.Second)
	again := &store.Request{Key: "slack:event:Ev1", Tenant: "T1", Text: "changed"}
	isNew, err := b.AcceptRequest(ctx, again)
	mustf(t, err, "accept again")
	if isNew {
		t.Error("redelivery: isNew = true")
	}
	got, err := b.Request(ctx, "T1", "slack:event:Ev1")
	mustf(t, err, "request")
	if diff := cmp.Diff(r, got, cmpOpts); diff != "" {
		t.Errorf("stored request (-want +got):\n%s", diff)
	}
	pend, err := b.PendingRequests(ctx, "T1")
	mustf(t, err, "pending")
	if diff := cmp.Diff([]string{"slack:event:Ev1", "slack:event:Ev2"}, keys(pend), cmpOpts); diff != "" {
		t.Errorf("pending, oldest first (-want +got):\n%s", diff)
	}
	tenants, err := b.Tenants(ctx)
	mustf(t, err, "tenants")
	if diff := cmp.Diff([]string{"T1"}, tenants, cmpOpts); diff != "" {
		t.Errorf("tenants (-want +got):\n%s", diff)
	}
	if _, err := b.Request(ctx, "T1", "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing request: %v, want ErrNotFound", err)
	}
	if _, err := b.AcceptRequest(ctx, &store.Request{Tenant: "T1"}); err == nil {
		t.Error("accept without a key: no error")
	}
	if _, err := b.AcceptRequest(ctx, &store.Request{Key: "k", Tenant: "T1", State: "weird"}); err == nil {
		t.Error("accept in an unknown state: no error")
	}
}

// testUpdateRequest: an update changes what fn sets but the key, and
// stores nothing if fn fails.
func testUpdateRequest(t *testing.T, b Backend, clk *storetest.Clock) {
	acceptTwo(t, b, clk)
	clk.Add(time.Second)
	mustf(t, b.UpdateRequest(ctx, "T1", "slack:event:Ev1", func(r *store.Request) error {
		r.Reply = "1700000000.1"
		r.Attempts++
		r.Key = "ignored"
		return nil
	}), "update")
	got, err := b.Request(ctx, "T1", "slack:event:Ev1")
	mustf(t, err, "request")
	if got.Reply != "1700000000.1" || got.Attempts != 1 || got.Key != "slack:event:Ev1" || !got.UpdatedAt.Equal(clk.Now()) || !got.CreatedAt.Equal(t0) {
		t.Errorf("after update: %+v", got)
	}
	boom := errors.New("boom")
	if err := b.UpdateRequest(ctx, "T1", "slack:event:Ev1", func(r *store.Request) error { r.Reply = "x"; return boom }); !errors.Is(err, boom) {
		t.Errorf("update with failing fn: %v, want %v", err, boom)
	}
	if err := b.UpdateRequest(ctx, "T1", "slack:event:Ev1", func(r *store.Request) error { r.State = "weird"; return nil }); err == nil {
		t.Error("update to an unknown state: no error")
	}
	if got, _ := b.Request(ctx, "T1", "slack:event:Ev1"); got.Reply != "1700000000.1" || got.State != store.RequestPending {
		t.Errorf("failed update was stored: %+v", got)
	}
	if err := b.UpdateRequest(ctx, "T1", "nope", func(*store.Request) error { return nil }); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("update of missing request: %v, want ErrNotFound", err)
	}
}

// testFinishRequest: a finished request, done or failed, leaves the
// pending list but stays a redelivery.
func testFinishRequest(t *testing.T, b Backend, clk *storetest.Clock) {
	acceptTwo(t, b, clk)
	mustf(t, b.FinishRequest(ctx, "T1", "slack:event:Ev1", store.RequestDone, "C-1"), "finish")
	mustf(t, b.FinishRequest(ctx, "T1", "slack:event:Ev2", store.RequestFailed, ""), "finish failed")
	if err := b.FinishRequest(ctx, "T1", "slack:event:Ev2", "weird", ""); err == nil {
		t.Error("finish with a bad state: no error")
	}
	if err := b.FinishRequest(ctx, "T1", "slack:event:Ev2", store.RequestPending, ""); err == nil {
		t.Error("finish as pending: no error")
	}
	if err := b.FinishRequest(ctx, "T1", "nope", store.RequestDone, ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("finish of a missing request: %v, want ErrNotFound", err)
	}
	pend, err := b.PendingRequests(ctx, "T1")
	mustf(t, err, "pending")
	if len(pend) != 0 {
		t.Errorf("pending after finish = %v", keys(pend))
	}
	tenants, err := b.Tenants(ctx)
	mustf(t, err, "tenants")
	if len(tenants) != 0 {
		t.Errorf("tenants with pending requests after finish = %v", tenants)
	}
	got, _ := b.Request(ctx, "T1", "slack:event:Ev1")
	if got.State != store.RequestDone || got.CheckID != "C-1" {
		t.Errorf("finished request: state %q check %q", got.State, got.CheckID)
	}
	got, _ = b.Request(ctx, "T1", "slack:event:Ev2")
	if got.State != store.RequestFailed || got.Text != "second" {
		t.Errorf("failed request: state %q text %q", got.State, got.Text)
	}
	// A redelivery after the answer still is one.
	if isNew, _ := b.AcceptRequest(ctx, &store.Request{Key: "slack:event:Ev1", Tenant: "T1"}); isNew {
		t.Error("redelivery of a finished request: isNew = true")
	}
}

// testFinishKeepsSavedCheck: a request resumed after a crash finds the
// check SaveCheck recorded, and finishing it with no check ID keeps that
// one.
func testFinishKeepsSavedCheck(t *testing.T, b Backend, clk *storetest.Clock) {
	_, err := b.AcceptRequest(ctx, &store.Request{Key: "k1", Tenant: "T1", User: "U1", Text: "x"})
	mustf(t, err, "accept")
	c := check("T1", "C1", "U1", "x", clk.Now(), map[string]factcheck.Label{"a": factcheck.Supported})
	c.RequestKey = "k1"
	mustf(t, b.SaveCheck(ctx, c), "save")
	pend, err := b.PendingRequests(ctx, "T1")
	mustf(t, err, "pending")
	if len(pend) != 1 || pend[0].CheckID != c.ID {
		t.Fatalf("pending after save = %+v, want k1 with check %s", pend, c.ID)
	}
	mustf(t, b.FinishRequest(ctx, "T1", "k1", store.RequestDone, ""), "finish")
	r, err := b.Request(ctx, "T1", "k1")
	mustf(t, err, "request")
	if r.State != store.RequestDone || r.CheckID != c.ID {
		t.Errorf("finished request: state %q check %q, want done %q", r.State, r.CheckID, c.ID)
	}
}

// testRefuseRequest: a refused request keeps only its dedupe record: a
// redelivery is still a duplicate, and nothing the person sent is kept.
func testRefuseRequest(t *testing.T, b Backend, clk *storetest.Clock) {
	r := acceptTwo(t, b, clk)
	clk.Add(time.Second)
	mustf(t, b.RefuseRequest(ctx, "T1", r.Key), "refuse")
	got, err := b.Request(ctx, "T1", r.Key)
	mustf(t, err, "request")
	want := &store.Request{
		Key: r.Key, Tenant: "T1", Platform: "slack", Kind: "mention",
		State: store.RequestFailed, Refused: true, CreatedAt: t0, UpdatedAt: clk.Now(),
	}
	if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
		t.Errorf("refused request (-want +got):\n%s", diff)
	}
	isNew, err := b.AcceptRequest(ctx, &store.Request{Key: r.Key, Tenant: "T1", Platform: "slack", Text: "again"})
	mustf(t, err, "accept again")
	if isNew {
		t.Error("redelivery of a refused request accepted as new")
	}
	pend, err := b.PendingRequests(ctx, "T1")
	mustf(t, err, "pending")
	if diff := cmp.Diff([]string{"slack:event:Ev2"}, keys(pend)); diff != "" {
		t.Errorf("pending after refuse (-want +got):\n%s", diff)
	}
	if err := b.RefuseRequest(ctx, "T1", "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("refuse of an unknown request: %v, want ErrNotFound", err)
	}
}
