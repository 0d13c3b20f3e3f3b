package slack_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// pacedAdapter is an adapter over a fake Slack pacing each channel at
// perChannel, with a clock that stands still and sleep as its Sleep.
func pacedAdapter(t *testing.T, perChannel rate.Limit, sleep func(context.Context, time.Duration) error) (*slack.Adapter, *slacktest.Server) {
	t.Helper()
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	ad, err := slack.New(slack.Config{BotToken: "xoxb-test", APIURL: fake.URL(), PerChannel: perChannel, BotUserID: slacktest.BotUserID,
		Sleep: sleep, Now: func() time.Time { return now }, Logger: quiet},
		bot.New(storetest.NewMemory(), &bottest.Checker{}, bot.Options{Logger: quiet}))
	if err != nil {
		t.Fatal(err)
	}
	return ad, fake
}

// A call whose turn would come after its deadline is refused at once
// (ErrNoTurn) and takes no turn: the call after it waits one turn.
func TestPaceNoTurnPastDeadline(t *testing.T) {
	sl := &sleeper{}
	ad, fake := pacedAdapter(t, 1, sl.Sleep)
	r := &store.Request{Key: "k", Tenant: "T1", Platform: slack.Name, Channel: "C1", User: "U1"}
	m := &bot.Message{Title: "Checking…"}
	if _, err := ad.Post(context.Background(), r, m); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := ad.Post(short, r, m); !errors.Is(err, slack.ErrNoTurn) {
		t.Fatalf("Post due before its turn = %v, want ErrNoTurn", err)
	}
	if _, err := ad.Post(context.Background(), r, m); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]time.Duration{0, time.Second}, sl.Slept()); diff != "" {
		t.Errorf("pacing waits (-want +got):\n%s", diff)
	}
	if n := len(fake.Recorded("chat.postMessage")); n != 2 {
		t.Errorf("%d posts, want 2", n)
	}
}

// A call that gives up while it waits for its turn gives the turn back
// whole, even with calls waiting behind it: the next one waits one turn
// from the last post, not two.
func TestPaceTurnGivenUpWhileWaiting(t *testing.T) {
	var mu sync.Mutex
	var slept []time.Duration
	quit := make(chan struct{})
	ctx2, cancel2 := context.WithCancel(context.Background())
	sleep := func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		slept = append(slept, d)
		n := len(slept)
		mu.Unlock()
		if n == 2 { // the second call waits for its turn, then gives up
			close(quit)
			<-ctx.Done()
		}
		return ctx.Err()
	}
	ad, fake := pacedAdapter(t, 1, sleep)
	r := &store.Request{Key: "k", Tenant: "T1", Platform: slack.Name, Channel: "C1", User: "U1"}
	m := &bot.Message{Title: "Checking…"}
	if _, err := ad.Post(context.Background(), r, m); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := ad.Post(ctx2, r, m)
		errc <- err
	}()
	<-quit // the second call holds the turn; a third lines up behind it
	third := make(chan error, 1)
	go func() {
		_, err := ad.Post(context.Background(), r, m)
		third <- err
	}()
	cancel2()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("given-up Post = %v, want context.Canceled", err)
	}
	if err := <-third; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]time.Duration{0, time.Second, time.Second}, slept); diff != "" {
		t.Errorf("pacing waits (-want +got):\n%s", diff)
	}
	if n := len(fake.Recorded("chat.postMessage")); n != 2 {
		t.Errorf("%d posts, want 2", n)
	}
}

// Ephemeral notes have their own pace: a channel whose messages have no
// turn for an hour still gets a note to its asker at once.
func TestEphemeralNoteNotBehindChannel(t *testing.T) {
	sl := &sleeper{}
	ad, fake := pacedAdapter(t, rate.Every(time.Hour), sl.Sleep)
	r := &store.Request{Key: "k", Tenant: "T1", Platform: slack.Name, Channel: "C1", User: "U1", Thread: "1700000000.000100"}
	if _, err := ad.Post(context.Background(), r, &bot.Message{Title: "Checking…"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := ad.Post(ctx, r, &bot.Message{Title: "Checking…"}); !errors.Is(err, slack.ErrNoTurn) {
		t.Fatalf("second post in the hour = %v, want ErrNoTurn", err)
	}
	for range 3 {
		if err := ad.Notify(ctx, r, "Sorry, factbot is busy."); err != nil {
			t.Fatalf("Notify = %v, want it sent at the ephemeral pace", err)
		}
	}
	if n := len(fake.Recorded("chat.postEphemeral")); n != 3 {
		t.Errorf("%d notes, want 3", n)
	}
	for _, d := range sl.Slept() {
		if d > 2*time.Second {
			t.Errorf("waited %v, want the ephemeral pace's turns only", d)
		}
	}
}
