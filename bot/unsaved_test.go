package bot_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/pgtest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/postgres"
)

// fullDisk is the store as the core sees it on a full disk: while full,
// every write fails with ENOSPC, as bbolt's commit does; reads work.
type fullDisk struct {
	bot.Store
	full atomic.Bool
}

func (f *fullDisk) err(op string) error {
	if f.full.Load() {
		return fmt.Errorf("%s: write factbot.db: %w", op, syscall.ENOSPC)
	}
	return nil
}

func (f *fullDisk) AcceptRequest(ctx context.Context, r *store.Request) (bool, error) {
	if err := f.err("accept request"); err != nil {
		return false, err
	}
	return f.Store.AcceptRequest(ctx, r)
}

func (f *fullDisk) UpdateRequest(ctx context.Context, tenant, key string, fn func(*store.Request) error) error {
	if err := f.err("update request"); err != nil {
		return err
	}
	return f.Store.UpdateRequest(ctx, tenant, key, fn)
}

func (f *fullDisk) FinishRequest(ctx context.Context, tenant, key, state, checkID string) error {
	if err := f.err("finish request"); err != nil {
		return err
	}
	return f.Store.FinishRequest(ctx, tenant, key, state, checkID)
}

func (f *fullDisk) SaveCheck(ctx context.Context, c *store.Check) error {
	if err := f.err("save check"); err != nil {
		return err
	}
	return f.Store.SaveCheck(ctx, c)
}

// notSaved waits for the final answer that says the check is not saved
// yet, and checks that it carries the report but no check id.
func notSaved(t *testing.T, p *bottest.Platform) bottest.Post {
	t.Helper()
	x := waitFinal(t, p)
	if !strings.Contains(x.Msg.Notice, "could not save this check yet") || x.Msg.CheckID != "" || len(x.Msg.Claims) == 0 {
		t.Fatalf("answer while the store fails = %+v, want the report with a notice that it is not saved, and no check id", x.Msg)
	}
	return x
}

// saved waits for the final answer of the saved check.
func saved(t *testing.T, p *bottest.Platform) bottest.Post {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case x := <-p.Sent:
			if x.Msg != nil && x.Msg.Final && x.Msg.CheckID != "" {
				return x
			}
		case <-timeout:
			t.Fatal("the check was never saved and answered")
		}
	}
}

// wantDone checks that the request is done with the one check it saved.
func wantDone(t *testing.T, st interface {
	bot.Store
	Request(ctx context.Context, tenant, key string) (*store.Request, error)
}, key, checkID string) {
	t.Helper()
	ctx := context.Background()
	r, err := st.Request(ctx, "T1", key)
	for deadline := time.Now().Add(10 * time.Second); err == nil && r.State == store.RequestPending && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // finished just after the answer
		r, err = st.Request(ctx, "T1", key)
	}
	if err != nil || r.State != store.RequestDone || r.CheckID != checkID {
		t.Errorf("request = %+v, %v; want done with check %s", r, err, checkID)
	}
	h, err := st.History(ctx, "T1", store.HistoryQuery{Limit: 10})
	if err != nil || len(h) != 1 || h[0].ID != checkID {
		t.Errorf("history = %+v, %v; want exactly the check %s", h, err, checkID)
	}
}

// TestFullDiskLosesNothing: on a full disk, a request answered before its
// check can be saved stays pending; the asker is told; when space is
// freed the kept check is saved (without running it again) and the answer
// gets its id; a restart while the disk is full runs it again and saves it.
func TestFullDiskLosesNothing(t *testing.T) {
	fast := bot.Options{SaveBackoff: []time.Duration{time.Millisecond, 2 * time.Millisecond}, Lease: 200 * time.Millisecond}
	start := func(t *testing.T) (*store.DB, *fullDisk, *bottest.Checker, *bottest.Platform, *bot.Service) {
		db, err := store.Open(filepath.Join(t.TempDir(), "factbot.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		fd := &fullDisk{Store: db}
		ck := &bottest.Checker{Block: make(chan struct{}), Started: make(chan factcheck.Input, 10)}
		p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
		s := newService(t, fd, ck, p, fast)
		if _, err := s.Submit(context.Background(), req("slack:event:Ev1", "Paris is in France")); err != nil {
			t.Fatal(err)
		}
		<-ck.Started
		fd.full.Store(true) // the disk fills while the check runs
		close(ck.Block)
		notSaved(t, p)
		if r, err := db.Request(context.Background(), "T1", "slack:event:Ev1"); err != nil || r.State != store.RequestPending {
			t.Fatalf("request after a failed save = %+v, %v; want pending", r, err)
		}
		return db, fd, ck, p, s
	}

	t.Run("space freed", func(t *testing.T) {
		db, fd, ck, p, _ := start(t)
		time.Sleep(3 * fast.Lease) // retried meanwhile, still full
		fd.full.Store(false)
		x := saved(t, p)
		if x.Op != "update" || x.Reply != "reply-1" {
			t.Errorf("saved answer = %s of %q, want an update of the first reply", x.Op, x.Reply)
		}
		if n := len(ck.Calls()); n != 1 {
			t.Errorf("the check ran %d times, want once (the kept check is saved)", n)
		}
		wantDone(t, db, "slack:event:Ev1", x.Msg.CheckID)
	})

	t.Run("restart", func(t *testing.T) {
		db, fd, _, _, s := start(t)
		s.Close()
		fd.full.Store(false)
		p2 := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
		s2 := newService(t, db, &bottest.Checker{}, p2, fast)
		x := saved(t, p2)
		s2.Close()
		wantDone(t, db, "slack:event:Ev1", x.Msg.CheckID)
	})
}

// TestPostgresCutMidCheck: PostgreSQL becomes unreachable while a check
// runs. The asker gets the report and is told it is not saved; the request
// stays pending; once PostgreSQL is back, the kept check is saved and
// the answer gets its id.
func TestPostgresCutMidCheck(t *testing.T) {
	dsn, proxy := pgtest.CutDSN(t)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.ConnectTimeout = time.Second
	db, err := postgres.OpenConfig(context.Background(), cfg, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ck := &bottest.Checker{Block: make(chan struct{}), Started: make(chan factcheck.Input, 10)}
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	svc := newService(t, db, ck, p, bot.Options{SaveBackoff: []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}, Lease: 2 * time.Second})
	if _, err := svc.Submit(context.Background(), req("slack:event:Ev1", "Paris is in France")); err != nil {
		t.Fatal(err)
	}
	<-ck.Started
	proxy.Cut()
	close(ck.Block)
	notSaved(t, p)
	proxy.Restore()
	x := saved(t, p)
	if n := len(ck.Calls()); n != 1 {
		t.Errorf("the check ran %d times, want once (the kept check is saved)", n)
	}
	wantDone(t, db, "slack:event:Ev1", x.Msg.CheckID)
}
