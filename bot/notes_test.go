package bot_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// notes returns the notes p delivered (failed calls left out).
func notes(p *bottest.Platform) []string {
	var out []string
	for _, x := range p.Posts() {
		if x.Op == "notify" && x.Err == nil {
			out = append(out, x.Text)
		}
	}
	return out
}

// waitRequest waits until the stored request key satisfies ok.
func waitRequest(t *testing.T, st *storetest.Memory, key string, ok func(*store.Request) bool) *store.Request {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second) // hang guard only
	for {
		r, err := st.Request(context.Background(), "T1", key)
		if err == nil && ok(r) {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("request %s = %+v, %v", key, r, err)
		}
		time.Sleep(time.Millisecond)
	}
}

// A refusal whose note cannot be sent stays pending, with its note and
// without its text, and is told again from the store (never run); once
// told, only the refusal is kept.
func TestRefusalNoteToldAgainFromStore(t *testing.T) {
	st := storetest.NewMemory()
	p := &bottest.Platform{NotifyErrs: []error{errors.New("slack: no turn")}}
	ck := &bottest.Checker{}
	s := newService(t, st, ck, p, bot.Options{MaxInput: 10})
	ctx := context.Background()
	res, err := s.Submit(ctx, req("long", "far too long to check"))
	if err != nil || res.Status != bot.Refused {
		t.Fatalf("Submit = %+v, %v; want refused", res, err)
	}
	pending := waitRequest(t, st, "long", func(r *store.Request) bool { return r.Attempts == 1 })
	if pending.State != store.RequestPending || pending.Notice != res.Notice || pending.Text != "" {
		t.Errorf("after a failed note: %+v; want pending with its notice and no text", pending)
	}
	if err := s.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	done := waitRequest(t, st, "long", func(r *store.Request) bool { return r.State != store.RequestPending })
	if !done.Refused || done.State != store.RequestFailed || done.Notice != "" || done.User != "" {
		t.Errorf("after the note: %+v; want a bare refusal", done)
	}
	if diff := cmp.Diff([]string{res.Notice}, notes(p)); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if n := len(ck.Calls()); n != 0 {
		t.Errorf("checked %d times, want a refusal never run", n)
	}
}

// A note that can never be sent is given up after MaxNoteAttempts.
func TestRefusalNoteGivenUp(t *testing.T) {
	st := storetest.NewMemory()
	var errs []error
	for range bot.MaxNoteAttempts {
		errs = append(errs, errors.New("slack: down"))
	}
	p := &bottest.Platform{NotifyErrs: errs}
	s := newService(t, st, &bottest.Checker{}, p, bot.Options{MaxInput: 10})
	ctx := context.Background()
	if _, err := s.Submit(ctx, req("long", "far too long to check")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { // what the pick-up does every half lease
		s.Resume(ctx)
		r, err := st.Request(ctx, "T1", "long")
		return err == nil && r.Refused
	})
	tries := 0
	for _, x := range p.Posts() {
		if x.Op == "notify" {
			tries++
		}
	}
	if tries != bot.MaxNoteAttempts {
		t.Errorf("the note was tried %d times, want %d", tries, bot.MaxNoteAttempts)
	}
	r := waitRequest(t, st, "long", func(r *store.Request) bool { return r.State != store.RequestPending })
	if !r.Refused {
		t.Errorf("given up: %+v, want a bare refusal", r)
	}
	if got := notes(p); len(got) != 0 {
		t.Errorf("notes = %v, want none delivered", got)
	}
}

// waitFor polls ok until it holds.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second) // hang guard only
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(time.Millisecond)
	}
}

// The same refusal to one person in one channel, while its note is being
// sent, is told by that note: one note, every request finished.
func TestRefusalNotesCollapsed(t *testing.T) {
	st := storetest.NewMemory()
	p := &bottest.Platform{HoldNotify: make(chan struct{})}
	s := newService(t, st, &bottest.Checker{}, p, bot.Options{MaxInput: 10})
	ctx := context.Background()
	keys := []string{"a", "b", "c"}
	for _, k := range keys {
		if res, err := s.Submit(ctx, req(k, "far too long to check")); err != nil || res.Status != bot.Refused {
			t.Fatalf("Submit %s = %+v, %v", k, res, err)
		}
	}
	// a's note is held; b and c join it.
	collapsed := s.Metrics().Notes.WithLabelValues("test", "collapsed")
	waitFor(t, func() bool { return counted(collapsed) == 2 })
	close(p.HoldNotify)
	for _, k := range keys {
		waitRequest(t, st, k, func(r *store.Request) bool { return r.Refused })
	}
	if got := notes(p); len(got) != 1 {
		t.Errorf("notes = %q, want one", got)
	}
}

// counted is c's count.
func counted(c prometheus.Counter) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		return -1
	}
	return m.GetCounter().GetValue()
}

// A reply that could not be updated is not answered beside it: the
// request stays pending and the next attempt updates it; a reply the
// platform says is gone is answered with a new post.
func TestAnswerNotSplit(t *testing.T) {
	for _, tt := range []struct {
		name      string
		err       error
		wantPosts int // placeholder, then a new final post
		wantTries int
	}{
		{"timeout", context.DeadlineExceeded, 1, 2},
		{"gone", bot.ErrReplyGone, 2, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := storetest.NewMemory()
			p := &bottest.Platform{FinalErrs: []error{tt.err}}
			s := newService(t, st, &bottest.Checker{}, p, bot.Options{})
			ctx := context.Background()
			if _, err := s.Submit(ctx, req("k", "The sky is blue")); err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool {
				s.Resume(ctx)
				r, err := st.Request(ctx, "T1", "k")
				return err == nil && r.State == store.RequestDone
			})
			var posts, finals int
			for _, x := range p.Posts() {
				if x.Op == "post" {
					posts++
				}
				if x.Msg != nil && x.Msg.Final && x.Err == nil {
					finals++
				}
			}
			r, _ := st.Request(ctx, "T1", "k")
			if posts != tt.wantPosts || finals != 1 || r.Attempts != tt.wantTries {
				t.Errorf("posts %d, finals delivered %d, attempts %d; want %d, 1, %d", posts, finals, r.Attempts, tt.wantPosts, tt.wantTries)
			}
		})
	}
}

// The busy note says how many wait and, once checks have been timed,
// about how long they take.
func TestBusyNoteSaysHowLong(t *testing.T) {
	st := storetest.NewMemory()
	p := &bottest.Platform{}
	first, second := make(chan struct{}), make(chan struct{})
	started := make(chan string, 10)
	ck := &bottest.Checker{Func: func(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
		started <- in.Text
		hold := map[string]chan struct{}{"one": first, "two": first, "three": second, "four": second}[in.Text]
		select {
		case <-hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return bottest.Report(in, factcheck.Supported), nil
	}}
	s := newService(t, st, ck, p, bot.Options{Workers: 1, MaxQueue: 1, NoUserLimit: true})
	ctx := context.Background()
	submit := func(key, text string) bot.Result {
		t.Helper()
		res, err := s.Submit(ctx, req(key, text))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	submit("k1", "one")
	<-started // running; the next waits in the queue
	submit("k2", "two")
	res := submit("k3", "three")
	if want := "(1 in the queue). Please try again in a few minutes."; res.Status != bot.Refused || !strings.HasSuffix(res.Notice, want) {
		t.Errorf("before any check was timed: %+v, want refused ending %q", res, want)
	}
	close(first)
	<-started
	waitRequest(t, st, "k2", func(r *store.Request) bool { return r.State == store.RequestDone })
	submit("k4", "three")
	<-started
	submit("k5", "four")
	res = submit("k6", "four")
	if want := "(1 in the queue, about a minute of work). Please try again in a minute."; res.Status != bot.Refused || !strings.HasSuffix(res.Notice, want) {
		t.Errorf("once checks were timed: %+v, want refused ending %q", res, want)
	}
	close(second)
}
