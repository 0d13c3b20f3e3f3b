package bot_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// A check answered privately stays out of everyone else's history, on the
// in-memory fake and on the real store.
func TestPrivateChecksStayOutOfOthersHistory(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "factbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for name, st := range map[string]bot.Store{"fake": storetest.NewMemory(), "bbolt": db} {
		t.Run(name, func(t *testing.T) {
			p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
			s := newService(t, st, &bottest.Checker{}, p, bot.Options{})
			ctx := context.Background()
			secret := req("private-1", "My private claim")
			secret.Private = true
			s.Submit(ctx, secret)
			private := waitFinal(t, p).Msg.CheckID
			s.Submit(ctx, req("public-1", "A public claim"))
			public := waitFinal(t, p).Msg.CheckID

			ids := func(viewer string) []string {
				h, err := s.History(ctx, "T1", viewer, bot.HistoryArgs{})
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, c := range h.Lines {
					out = append(out, c.ID)
				}
				return out
			}
			if got := ids("U1"); len(got) != 2 {
				t.Errorf("the asker's history = %v, want both checks", got)
			}
			if got := ids("U2"); len(got) != 1 || got[0] != public {
				t.Errorf("another user's history = %v, want only %s (not the private %s)", got, public, private)
			}
			if got := ids(""); len(got) != 1 {
				t.Errorf("history with no viewer = %v, want only the public check", got)
			}
		})
	}
}
