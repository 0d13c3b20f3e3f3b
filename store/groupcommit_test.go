package store

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// TestGroupCommit queues writes behind a held writer lock so that they form
// one group, including a duplicate accept and a failing update: each gets
// its own answer and the failure does not undo the others.
func TestGroupCommit(t *testing.T) {
	db, _ := newDB(t)
	ctx := context.Background()
	if _, err := db.AcceptRequest(ctx, &Request{Key: "old", Tenant: "T1", Text: "x"}); err != nil {
		t.Fatal(err)
	}
	hold, held := make(chan struct{}), make(chan struct{})
	go db.drv.Update(ctx, func(Tx) error { close(held); <-hold; return nil })
	<-held

	const n = 10
	var wg sync.WaitGroup
	isNew := make([]bool, n+2)
	errs := make([]error, n+4)
	for i := range n + 2 {
		key := fmt.Sprintf("k%d", i)
		if i >= n {
			key = "dup"
		}
		wg.Go(func() { isNew[i], errs[i] = db.AcceptRequest(ctx, &Request{Key: key, Tenant: "T1", Text: "t"}) })
	}
	wg.Go(func() {
		errs[n+2] = db.UpdateRequest(ctx, "T1", "missing", func(r *Request) error { r.Attempts++; return nil })
	})
	wg.Go(func() {
		errs[n+3] = db.UpdateRequest(ctx, "T1", "old", func(r *Request) error { r.Attempts = 2; return nil })
	})
	for { // all queued behind the held lock (hang guard: the test timeout)
		if db.requests.Pending() == n+4 {
			break
		}
		runtime.Gosched()
	}
	close(hold)
	wg.Wait()

	for i, err := range errs {
		if i == n+2 {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("update of a missing request: err = %v, want ErrNotFound", err)
			}
			continue
		}
		if err != nil {
			t.Errorf("write %d: %v", i, err)
		}
	}
	for i := range n {
		if !isNew[i] {
			t.Errorf("k%d: isNew false, want true", i)
		}
	}
	if isNew[n] == isNew[n+1] {
		t.Errorf("duplicate accepts in one group: isNew = %v, %v; want exactly one true", isNew[n], isNew[n+1])
	}
	pend, err := db.PendingRequests(ctx, "T1")
	if err != nil {
		t.Fatal(err)
	}
	if len(pend) != n+2 { // old, k0…k9, dup
		t.Errorf("%d pending requests, want %d", len(pend), n+2)
	}
	old, err := db.Request(ctx, "T1", "old")
	if err != nil || old.Attempts != 2 {
		t.Errorf("old = %+v, %v; want Attempts 2", old, err)
	}
}

// TestGroupCommitClosed: writes to a closed file fail instead of waiting.
func TestGroupCommitClosed(t *testing.T) {
	db, _ := newDB(t)
	db.Close()
	if _, err := db.AcceptRequest(context.Background(), &Request{Key: "k", Tenant: "T1"}); err == nil {
		t.Error("AcceptRequest on a closed database succeeded")
	}
}
