package store_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// The lease rules (see store.ErrLeaseLost): two owners never hold one
// request; an expired lease is taken over; a finished request is never
// claimed.

const leaseD = 10 * time.Second

// claim is ClaimRequest that fails the test on an error and reports
// whether owner got the request.
func claim(t *testing.T, b Backend, key, owner string) bool {
	t.Helper()
	r, err := b.ClaimRequest(ctx, "T1", key, owner, leaseD)
	mustf(t, err, "%s claims %s", owner, key)
	if r != nil && r.Key != key {
		t.Fatalf("%s claims %s: got request %s", owner, key, r.Key)
	}
	return r != nil
}

// claimPending is ClaimPending's keys.
func claimPending(t *testing.T, b Backend, owner string) []string {
	t.Helper()
	rs, err := b.ClaimPending(ctx, "T1", owner, leaseD)
	mustf(t, err, "%s claims pending", owner)
	return keys(rs)
}

// testLeaseOneOwner: while A holds a request's lease, B claims nothing
// and cannot renew it; A can claim it again and renew it; updating the
// request leaves the lease alone.
func testLeaseOneOwner(t *testing.T, b Backend, clk *storetest.Clock) {
	acceptTwo(t, b, clk)
	if !claim(t, b, "slack:event:Ev1", "A") {
		t.Fatal("A could not claim a free request")
	}
	if claim(t, b, "slack:event:Ev1", "B") {
		t.Error("B claimed a request A holds")
	}
	if diff := cmp.Diff([]string{"slack:event:Ev2"}, claimPending(t, b, "B")); diff != "" {
		t.Errorf("B's ClaimPending (-want +got):\n%s", diff)
	}
	if err := b.RenewLease(ctx, "T1", "slack:event:Ev1", "B", leaseD); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("B renews A's lease: %v, want ErrLeaseLost", err)
	}
	mustf(t, b.UpdateRequest(ctx, "T1", "slack:event:Ev1", func(r *store.Request) error { r.Attempts++; return nil }), "update")
	if claim(t, b, "slack:event:Ev1", "B") {
		t.Error("B claimed A's request after an update")
	}
	if !claim(t, b, "slack:event:Ev1", "A") {
		t.Error("A could not claim its own request again")
	}
	mustf(t, b.RenewLease(ctx, "T1", "slack:event:Ev1", "A", leaseD), "A renews")
	if diff := cmp.Diff([]string{"slack:event:Ev1"}, claimPending(t, b, "A")); diff != "" {
		t.Errorf("A's ClaimPending (-want +got):\n%s", diff)
	}
	if _, err := b.ClaimRequest(ctx, "T1", "nope", "A", leaseD); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("claim of an unknown request: %v, want ErrNotFound", err)
	}
}

// testLeaseExpiry: a renewed lease holds; an expired one is taken over,
// after which the old owner has lost it.
func testLeaseExpiry(t *testing.T, b Backend, clk *storetest.Clock) {
	acceptTwo(t, b, clk)
	if !claim(t, b, "slack:event:Ev1", "A") {
		t.Fatal("A could not claim a free request")
	}
	clk.Add(leaseD / 2)
	mustf(t, b.RenewLease(ctx, "T1", "slack:event:Ev1", "A", leaseD), "A renews")
	clk.Add(leaseD - time.Second) // past the first lease, within the renewed one
	if claim(t, b, "slack:event:Ev1", "B") {
		t.Error("B claimed a renewed lease before it ran out")
	}
	clk.Add(time.Second)
	if diff := cmp.Diff([]string{"slack:event:Ev1", "slack:event:Ev2"}, claimPending(t, b, "B")); diff != "" {
		t.Errorf("B's ClaimPending after A's lease ran out (-want +got):\n%s", diff)
	}
	if err := b.RenewLease(ctx, "T1", "slack:event:Ev1", "A", leaseD); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("A renews a lease B took over: %v, want ErrLeaseLost", err)
	}
	if claim(t, b, "slack:event:Ev1", "A") {
		t.Error("A claimed back a request B holds")
	}
}

// testLeaseRelease: a released lease is free at once; releasing a lease
// one does not hold changes nothing.
func testLeaseRelease(t *testing.T, b Backend, clk *storetest.Clock) {
	acceptTwo(t, b, clk)
	if !claim(t, b, "slack:event:Ev1", "A") {
		t.Fatal("A could not claim a free request")
	}
	mustf(t, b.RenewLease(ctx, "T1", "slack:event:Ev1", "B", 0), "B releases A's lease")
	if claim(t, b, "slack:event:Ev1", "B") {
		t.Error("B claimed A's lease after releasing what it did not hold")
	}
	mustf(t, b.RenewLease(ctx, "T1", "slack:event:Ev1", "A", 0), "A releases")
	if !claim(t, b, "slack:event:Ev1", "B") {
		t.Error("B could not claim a released lease")
	}
}

// testLeaseFinished: a finished (or refused) request is never claimed,
// and its lease cannot be renewed.
func testLeaseFinished(t *testing.T, b Backend, clk *storetest.Clock) {
	acceptTwo(t, b, clk)
	if !claim(t, b, "slack:event:Ev1", "A") {
		t.Fatal("A could not claim a free request")
	}
	mustf(t, b.FinishRequest(ctx, "T1", "slack:event:Ev1", store.RequestDone, ""), "finish")
	mustf(t, b.RefuseRequest(ctx, "T1", "slack:event:Ev2"), "refuse")
	if err := b.RenewLease(ctx, "T1", "slack:event:Ev1", "A", leaseD); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("renewing a finished request's lease: %v, want ErrLeaseLost", err)
	}
	clk.Add(2 * leaseD)
	for _, owner := range []string{"A", "B"} {
		for _, key := range []string{"slack:event:Ev1", "slack:event:Ev2"} {
			if claim(t, b, key, owner) {
				t.Errorf("%s claimed the finished request %s", owner, key)
			}
		}
		if got := claimPending(t, b, owner); len(got) != 0 {
			t.Errorf("%s's ClaimPending claimed finished requests %v", owner, got)
		}
	}
}

// testLeaseConcurrentClaims: of owners claiming one request at once, one
// gets it.
func testLeaseConcurrentClaims(t *testing.T, b Backend, clk *storetest.Clock) {
	acceptTwo(t, b, clk)
	const n = 8
	var wg sync.WaitGroup
	won := make(chan string, 2*n)
	errs := make(chan error, 2*n)
	for i := range n {
		owner := fmt.Sprintf("O%d", i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var got bool
			if i%2 == 0 {
				r, err := b.ClaimRequest(ctx, "T1", "slack:event:Ev1", owner, leaseD)
				errs <- err
				got = r != nil
			} else {
				rs, err := b.ClaimPending(ctx, "T1", owner, leaseD)
				errs <- err
				for _, r := range rs {
					got = got || r.Key == "slack:event:Ev1"
				}
			}
			if got {
				won <- owner
			}
		}()
	}
	wg.Wait()
	close(won)
	close(errs)
	for err := range errs {
		mustf(t, err, "claim")
	}
	var winners []string
	for o := range won {
		winners = append(winners, o)
	}
	if len(winners) != 1 {
		t.Errorf("owners holding one request: %v, want exactly one", winners)
	}
}
