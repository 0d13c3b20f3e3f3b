package bot_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// TestRealStoreKillAndRestart runs the core on the bbolt store: a request
// pending when the service is closed mid-check is completed, once, by a new
// service on the same file.
func TestRealStoreKillAndRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := db
	p1 := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	ck1 := &bottest.Checker{Block: make(chan struct{}), Started: make(chan factcheck.Input, 1)}
	s1 := newService(t, st, ck1, p1, bot.Options{})
	ctx := context.Background()
	for range 3 { // redeliveries
		if _, err := s1.Submit(ctx, req("slack:event:Ev1", "Paris is in France")); err != nil {
			t.Fatal(err)
		}
	}
	<-ck1.Started
	s1.Close()
	db.Close()

	db2, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	st2 := db2
	p2 := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	s2 := newService(t, st2, &bottest.Checker{}, p2, bot.Options{})
	final := waitFinal(t, p2)
	s2.Close()
	if final.Op != "update" || final.Reply != "reply-1" {
		t.Errorf("final = %s of %q, want update of the first placeholder reply-1", final.Op, final.Reply)
	}
	for _, x := range p2.Posts() {
		if x.Op == "post" {
			t.Errorf("resume posted a new message")
		}
	}
	r, err := db2.Request(ctx, "T1", "slack:event:Ev1")
	if err != nil || r.State != store.RequestDone || r.CheckID != final.Msg.CheckID {
		t.Errorf("request = %+v, %v; want done with the check id", r, err)
	}
	h, err := st2.History(ctx, "T1", store.HistoryQuery{Limit: 10})
	if err != nil || len(h) != 1 {
		t.Errorf("history = %+v, %v; want exactly one check", h, err)
	}
	if _, err := s2.Feedback(ctx, "T1", "C1", final.Msg.CheckID, bot.Person{}, store.Feedback{User: "U9", Claim: 0}); err != nil {
		t.Errorf("feedback: %v", err)
	}
	if _, err := st2.Check(ctx, "T1", "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Check(missing) = %v, want store.ErrNotFound", err)
	}
	// Nothing is left to resume.
	if pend, _ := st2.PendingRequests(ctx, "T1"); len(pend) != 0 {
		t.Errorf("pending = %d, want 0", len(pend))
	}
}
