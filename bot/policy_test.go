package bot_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

func TestParseHistoryArgs(t *testing.T) {
	tests := []struct {
		in      string
		want    bot.HistoryArgs
		wantErr string
	}{
		{"", bot.HistoryArgs{}, ""},
		{"20", bot.HistoryArgs{Count: 20}, ""},
		{"  mine 5  Contradicted ", bot.HistoryArgs{Count: 5, Mine: true, Verdict: "contradicted"}, ""},
		{"supported", bot.HistoryArgs{Verdict: "supported"}, ""},
		{"0", bot.HistoryArgs{}, `I did not understand "0"`},
		{"lots", bot.HistoryArgs{}, `I did not understand "lots"`},
	}
	for _, tt := range tests {
		got, err := bot.ParseHistoryArgs(tt.in)
		if tt.wantErr != "" {
			if msg, ok := usererr.Message(err); !ok || !strings.Contains(msg, tt.wantErr) {
				t.Errorf("ParseHistoryArgs(%q) error = %v, want a user error containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseHistoryArgs(%q): %v", tt.in, err)
		}
		if diff := cmp.Diff(got, tt.want); diff != "" {
			t.Errorf("ParseHistoryArgs(%q) (-got +want):\n%s", tt.in, diff)
		}
	}
}

// failingStore fails History, Check, AddFeedback and AcceptRequest with an
// internal error.
type failingStore struct{ *storetest.Memory }

var errDisk = errors.New("open /var/lib/factbot/secret.db: input/output error")

func (failingStore) History(context.Context, string, store.HistoryQuery) ([]store.CheckSummary, error) {
	return nil, errDisk
}

func (failingStore) Check(context.Context, string, string) (*store.Check, error) {
	return nil, errDisk
}

func (failingStore) AddFeedback(context.Context, string, string, store.Feedback) error {
	return errDisk
}

func (failingStore) AcceptRequest(context.Context, *store.Request) (bool, error) {
	return false, errDisk
}

func TestHistoryPolicy(t *testing.T) {
	st := storetest.NewMemory()
	ck := &bottest.Checker{Func: func(_ context.Context, in factcheck.Input) (*factcheck.Report, error) {
		l := factcheck.Supported
		if strings.Contains(in.Text, "cheese") {
			l = factcheck.Contradicted
		}
		return bottest.Report(in, l), nil
	}}
	p := &bottest.Platform{Sent: make(chan bottest.Post, 1000)}
	s := newService(t, st, ck, p, bot.Options{NoUserLimit: true})
	ctx := context.Background()
	for i := range bot.MaxHistory + 5 {
		r := req(fmt.Sprint("k", i), fmt.Sprint("Claim ", i))
		if i%2 == 1 {
			r.User = "U2"
		}
		if i == 3 {
			r.Text = "The Moon is made of cheese."
		}
		if _, err := s.Submit(ctx, r); err != nil {
			t.Fatal(err)
		}
		waitFinal(t, p)
	}
	tests := []struct {
		name      string
		args      bot.HistoryArgs
		wantLines int
		wantUser  string
	}{
		{"default", bot.HistoryArgs{}, bot.DefaultHistory, ""},
		{"over the max", bot.HistoryArgs{Count: 1000}, bot.MaxHistory, ""},
		{"mine", bot.HistoryArgs{Count: 1000, Mine: true}, (bot.MaxHistory + 5) / 2, "U2"},
		{"verdict in any case", bot.HistoryArgs{Verdict: "CONTRADICTED"}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := s.History(ctx, "T1", "U2", "C1", tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if len(h.Lines) != tt.wantLines {
				t.Errorf("%d lines, want %d", len(h.Lines), tt.wantLines)
			}
			if tt.wantUser != "" {
				for _, l := range h.Lines {
					c, _ := st.Check(ctx, "T1", l.ID)
					if c.User != tt.wantUser {
						t.Errorf("check %s of %s listed, want only %s's", l.ID, c.User, tt.wantUser)
					}
				}
			}
		})
	}
	if _, err := s.History(ctx, "T1", "U2", "C1", bot.HistoryArgs{Verdict: "maybe"}); !strings.Contains(bot.UserMessage(err), "Unknown verdict") {
		t.Errorf("History(verdict maybe) = %v, want an \"Unknown verdict\" user error", err)
	}
}

// TestInternalErrorsNeverShown: store failures reach the asker as fixed
// apologies, never as the internal error's text.
func TestInternalErrorsNeverShown(t *testing.T) {
	s := bot.New(failingStore{storetest.NewMemory()}, &bottest.Checker{}, bot.Options{Logger: quiet})
	defer s.Close()
	ctx := context.Background()
	_, herr := s.History(ctx, "T1", "U1", "C1", bot.HistoryArgs{})
	_, ferr := s.Feedback(ctx, "T1", "C1", "id", bot.Person{}, store.Feedback{User: "U1"})
	_, serr := s.Submit(ctx, req("k", "claim"))
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"history", herr, "could not load the history"},
		{"feedback", ferr, "could not record your feedback"},
		{"submit", serr, bot.MsgNotStored},
		{"other", errDisk, bot.MsgInternal},
	} {
		msg := bot.UserMessage(tc.err)
		if !errors.Is(tc.err, errDisk) || !strings.Contains(msg, tc.want) || strings.Contains(msg, "secret") {
			t.Errorf("%s: error %v shown as %q, want %q and no detail", tc.name, tc.err, msg, tc.want)
		}
	}
}
