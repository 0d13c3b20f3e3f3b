package bot_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// TestChecksStayWhereTheyWereAsked: in chat, history and the buttons show a
// person their own checks, checks made in the channel they ask in, and
// checks made in public channels; never a check answered privately, nor one
// from a private channel, group DM or DM they are not asking in. On the
// in-memory store and on bbolt.
func TestChecksStayWhereTheyWereAsked(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "factbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	asked := []struct {
		key, channel string
		vis          store.Visibility
		private      bool
	}{
		{"public", "CPUB", store.VisibilityPublic, false},
		{"private-answer", "CPUB", store.VisibilityPublic, true},
		{"private-channel", "CPRIV", store.VisibilityPrivate, false},
		{"group-dm", "GMPIM", store.VisibilityGroup, false},
		{"dm", "DU1", store.VisibilityDM, false},
		{"unknown", "CUNK", store.VisibilityUnknown, false},
	}
	tests := []struct {
		viewer, channel string
		want            []string // keys of the checks listed
	}{
		{"U1", "CPUB", []string{"public", "private-answer", "private-channel", "group-dm", "dm", "unknown"}}, // the asker
		{"U2", "CPUB", []string{"public"}},
		{"U3", "CPRIV", []string{"public", "private-channel"}},
		{"U4", "GMPIM", []string{"public", "group-dm"}},
		{"U5", "DU5", []string{"public"}},
		{"U6", "CUNK", []string{"public", "unknown"}},
	}
	for name, st := range map[string]bot.Store{"memory": storetest.NewMemory(), "bbolt": db} {
		t.Run(name, func(t *testing.T) {
			p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
			s := newService(t, st, &bottest.Checker{}, p, bot.Options{})
			ctx := context.Background()
			idOf := map[string]string{} // check id → key
			ids := map[string]string{}  // key → check id
			for _, a := range asked {
				r := req(a.key, "Claim asked in "+a.key)
				r.Channel, r.Visibility, r.Private = a.channel, a.vis, a.private
				s.Submit(ctx, r)
				id := waitFinal(t, p).Msg.CheckID
				idOf[id], ids[a.key] = a.key, id
			}
			for _, tt := range tests {
				h, err := s.History(ctx, "T1", tt.viewer, tt.channel, bot.HistoryArgs{Count: 25})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, l := range h.Lines {
					got = append(got, idOf[l.ID])
				}
				slices.Sort(got)
				want := slices.Sorted(slices.Values(tt.want))
				if !slices.Equal(got, want) {
					t.Errorf("history of %s in %s = %v, want %v", tt.viewer, tt.channel, got, want)
				}
				// "Wrong verdict?" works exactly on the checks listed.
				for _, a := range asked {
					_, err := s.Feedback(ctx, "T1", tt.channel, ids[a.key], bot.Person{}, store.Feedback{User: tt.viewer})
					if visible := slices.Contains(tt.want, a.key); (err == nil) != visible {
						t.Errorf("feedback by %s in %s on %s: err = %v, want allowed = %v", tt.viewer, tt.channel, a.key, err, visible)
					} else if err != nil && !strings.Contains(bot.UserMessage(err), "could not find that check") {
						t.Errorf("feedback on a check not visible says %q, want it to look unknown", bot.UserMessage(err))
					}
				}
			}
		})
	}
}

// TestCheckAgainOnlyOnVisibleChecks: "Check again" on a check its clicker
// may not see is answered as if the check did not exist, and checks nothing.
func TestCheckAgainOnlyOnVisibleChecks(t *testing.T) {
	st := storetest.NewMemory()
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	ck := &bottest.Checker{}
	s := newService(t, st, ck, p, bot.Options{})
	ctx := context.Background()
	r := req("dm", "A claim asked in a DM")
	r.Channel, r.Visibility = "DU1", store.VisibilityDM
	s.Submit(ctx, r)
	id := waitFinal(t, p).Msg.CheckID

	again := req("again", "")
	again.Kind, again.User, again.Channel = bot.KindRecheck, "U2", "CPUB"
	again.Meta = map[string]string{bot.MetaCheckID: id}
	s.Submit(ctx, again)
	final := waitFinal(t, p)
	if !strings.Contains(final.Msg.Error, "could not find that earlier check") {
		t.Errorf("check again by another user elsewhere answered %+v, want \"could not find that earlier check\"", final.Msg)
	}
	if n := len(ck.Calls()); n != 1 {
		t.Errorf("the checker ran %d times, want once (the original check only)", n)
	}
}
