package discord_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/discord"
)

// tracker follows a running adapter for a test: it counts, from the
// adapter's debug log, how often the adapter finished handling each event
// key, and bounds every wait at 20 seconds. harness and stack embed it.
type tracker struct {
	t testing.TB

	mu      sync.Mutex
	handled map[string]int
	changed chan struct{}
}

func newTracker(t testing.TB) *tracker {
	return &tracker{t: t, handled: map[string]int{}, changed: make(chan struct{})}
}

// logger returns the logger to give the adapter: it records the "event
// handled" lines and drops everything else.
func (tr *tracker) logger() *slog.Logger { return slog.New(eventLog{tr}) }

// eventLog is a slog.Handler feeding a tracker.
type eventLog struct{ tr *tracker }

func (eventLog) Enabled(context.Context, slog.Level) bool { return true }
func (h eventLog) WithAttrs([]slog.Attr) slog.Handler     { return h }
func (h eventLog) WithGroup(string) slog.Handler          { return h }

func (h eventLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "event handled" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key != "key" {
			return true
		}
		tr := h.tr
		tr.mu.Lock()
		tr.handled[a.Value.String()]++
		close(tr.changed)
		tr.changed = make(chan struct{})
		tr.mu.Unlock()
		return false
	})
	return nil
}

// run registers a with svc and starts both. The caller closes them.
func run(t testing.TB, svc *bot.Service, a *discord.Adapter) {
	t.Helper()
	svc.Register(a)
	ctx := context.Background()
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
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
		tr.mu.Lock()
		got, ch := tr.handled[key], tr.changed
		tr.mu.Unlock()
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
