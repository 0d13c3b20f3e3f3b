package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// TestTakeOverExpiredLease: a request held by a replica that died is left
// alone while its lease runs, then taken over and answered once.
func TestTakeOverExpiredLease(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	st := storetest.NewMemoryAt(clk.Now)
	ctx := context.Background()
	r := req("r1", "Paris is in France")
	r.Platform = "test"
	if _, err := st.AcceptRequest(ctx, r); err != nil {
		t.Fatal(err)
	}
	if got, err := st.ClaimRequest(ctx, "T1", "r1", "dead", time.Minute); err != nil || got == nil {
		t.Fatalf("the dead replica's claim: %v, %v", got, err)
	}
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	ck := &bottest.Checker{}
	s := newService(t, st, ck, p, bot.Options{Owner: "alive", Lease: time.Minute})
	if err := s.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	// The dead replica still holds it: its own claim renews.
	if got, err := st.ClaimRequest(ctx, "T1", "r1", "dead", time.Minute); err != nil || got == nil {
		t.Fatalf("the lease was taken before it ran out: %v, %v", got, err)
	}
	clk.Add(2 * time.Minute)
	if err := s.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	waitFinal(t, p)
	s.Close()
	if n := len(ck.Calls()); n != 1 {
		t.Errorf("checked %d times, want 1", n)
	}
	if got, _ := st.Request(ctx, "T1", "r1"); got.State != store.RequestDone {
		t.Errorf("state %q, want done", got.State)
	}
}

// TestLeaseLostStopsTheCheck: a replica whose lease was taken over stops
// its check and answers nothing; the request stays pending for the new
// holder.
func TestLeaseLostStopsTheCheck(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	st := storetest.NewMemoryAt(clk.Now)
	started, stopped := make(chan struct{}), make(chan error, 1)
	ck := &bottest.Checker{Func: func(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
		close(started)
		<-ctx.Done()
		stopped <- ctx.Err()
		return nil, ctx.Err()
	}}
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	// A short lease: renewals come every few milliseconds (the store's
	// clock stands still, so only the takeover below ends the lease).
	s := newService(t, st, ck, p, bot.Options{Owner: "A", Lease: 30 * time.Millisecond})
	if _, err := s.Submit(context.Background(), req("r1", "Paris is in France")); err != nil {
		t.Fatal(err)
	}
	<-started
	clk.Add(time.Hour)
	if got, err := st.ClaimRequest(context.Background(), "T1", "r1", "B", time.Hour); err != nil || got == nil {
		t.Fatalf("B's takeover of an expired lease: %v, %v", got, err)
	}
	<-stopped
	s.Close()
	for _, x := range p.Posts() {
		if x.Msg != nil && x.Msg.Final {
			t.Errorf("A answered after losing the lease: %+v", x)
		}
	}
	if got, _ := st.Request(context.Background(), "T1", "r1"); got.State != store.RequestPending {
		t.Errorf("state %q, want pending (B's)", got.State)
	}
}

// slowRefusals is a store whose RefuseRequest waits for the test.
type slowRefusals struct {
	*storetest.Memory
	refusing chan struct{} // closed to let RefuseRequest go on
}

func (s *slowRefusals) RefuseRequest(ctx context.Context, tenant, key string) error {
	<-s.refusing
	return s.Memory.RefuseRequest(ctx, tenant, key)
}

// TestRefusedRequestIsNotPickedUp: between the refusal and its record, the
// refused request is held: neither another replica nor this service's
// pick-up runs it.
func TestRefusedRequestIsNotPickedUp(t *testing.T) {
	st := &slowRefusals{Memory: storetest.NewMemory(), refusing: make(chan struct{})}
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	ck := &bottest.Checker{}
	s := newService(t, st, ck, p, bot.Options{Owner: "A", UserLimit: bot.Limit{N: 1, Window: time.Hour}})
	ctx := context.Background()
	if res, err := s.Submit(ctx, req("ok", "Paris is in France")); err != nil || res.Status != bot.Accepted {
		t.Fatalf("first Submit = %+v, %v", res, err)
	}
	waitFinal(t, p)
	res, err := s.Submit(ctx, req("over", "Rome is in Italy"))
	if err != nil || res.Status != bot.Refused {
		t.Fatalf("second Submit = %+v, %v; want refused", res, err)
	}
	if got, err := st.ClaimRequest(ctx, "T1", "over", "B", time.Minute); err != nil || got != nil {
		t.Errorf("another replica claimed a request being refused: %v, %v", got, err)
	}
	if err := s.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	close(st.refusing)
	s.Close()
	if n := len(ck.Calls()); n != 1 {
		t.Errorf("checked %d times, want 1 (the refused request never runs)", n)
	}
	if got, _ := st.Request(ctx, "T1", "over"); got.State != store.RequestFailed || !got.Refused {
		t.Errorf("refused request: state %q refused %v; want failed, refused", got.State, got.Refused)
	}
}
