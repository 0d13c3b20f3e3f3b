package discord

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot"
)

// tracker follows a running adapter for a test: it counts how often the
// adapter finished handling each key and bounds every wait at 20 seconds.
// harness and stack embed it.
type tracker struct {
	t testing.TB

	handledMu sync.Mutex
	handled   map[string]int
	changed   chan struct{}
}

// run registers a with svc, starts both and returns a tracker counting
// what a handles. The caller closes them.
func run(t testing.TB, svc *bot.Service, a *Adapter) *tracker {
	t.Helper()
	tr := &tracker{t: t, handled: map[string]int{}, changed: make(chan struct{})}
	a.handled = func(key string) {
		tr.handledMu.Lock()
		tr.handled[key]++
		close(tr.changed)
		tr.changed = make(chan struct{})
		tr.handledMu.Unlock()
	}
	svc.Register(a)
	ctx := context.Background()
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return tr
}

func (tr *tracker) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	tr.t.Cleanup(cancel)
	return ctx
}

// waitHandled waits until the adapter finished handling key n times.
func (tr *tracker) waitHandled(key string, n int) {
	tr.t.Helper()
	ctx := tr.ctx()
	for {
		tr.handledMu.Lock()
		got, ch := tr.handled[key], tr.changed
		tr.handledMu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			tr.t.Fatalf("%s handled %d times, want %d", key, got, n)
		}
	}
}

// poll calls done every 2ms until it reports true; if that takes too long
// it fails the test with what failure returns.
func (tr *tracker) poll(done func(ctx context.Context) bool, failure func() string) {
	tr.t.Helper()
	ctx := tr.ctx()
	for !done(ctx) {
		select {
		case <-ctx.Done():
			tr.t.Fatal(failure())
		case <-time.After(2 * time.Millisecond):
		}
	}
}
