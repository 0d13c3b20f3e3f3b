package slack_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/internal/pgtest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/postgres"
	"github.com/factbot-dev/factbot/store/storetest"
)

// turns records the turns a shared pace granted, and when (in the
// replicas' clock).
type turns struct {
	bot.RateStore
	mu sync.Mutex
	at map[string][]time.Time // by key
}

func (p *turns) Take(ctx context.Context, key string, n int, window time.Duration, now time.Time) (bool, time.Time, error) {
	ok, next, err := p.RateStore.Take(ctx, key, n, window, now)
	if ok && err == nil {
		p.mu.Lock()
		p.at[key] = append(p.at[key], now)
		p.mu.Unlock()
	}
	return ok, next, err
}

// Two replicas on one PostgreSQL database share one channel's pace
// (Config.SharedPace, the database's rate limits): of six posts into one
// channel, three from each, every turn comes a second or more after the
// one before, whichever replica took it. (Skips without
// FACTBOT_TEST_POSTGRES.)
func TestReplicasSharePace(t *testing.T) {
	cfg := pgtest.Config(t)
	clock := storetest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	fake := pacedLikeSlack(t, clock)
	var ads []*slack.Adapter
	var granted []*turns
	for range 2 {
		db, err := postgres.OpenConfig(context.Background(), cfg.Copy(), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		svc := bot.New(db, &bottest.Checker{}, bot.Options{Logger: quiet})
		pace := &turns{RateStore: db, at: map[string][]time.Time{}}
		granted = append(granted, pace)
		ad, err := slack.New(slack.Config{BotToken: "xoxb-test", APIURL: fake.URL(), BotUserID: "UBOT",
			Now: clock.Now, Sleep: clock.Sleep, Logger: quiet, SharedPace: pace}, svc)
		if err != nil {
			t.Fatal(err)
		}
		ads = append(ads, ad)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i := range 6 {
		wg.Go(func() {
			r := &store.Request{Key: "k", Tenant: "T1", Platform: slack.Name, Channel: "C1", User: "U1"}
			_, err := ads[i%2].Post(context.Background(), r, &bot.Message{Title: "Checking…"})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Post: %v", err)
		}
	}
	if n := len(fake.Recorded("chat.postMessage")); n != 6 {
		t.Errorf("%d posts, want 6", n)
	}
	all := map[string][]time.Time{}
	for _, g := range granted {
		if len(g.at) == 0 {
			t.Errorf("a replica took no turn of the shared pace")
		}
		for k, at := range g.at {
			all[k] = append(all[k], at...)
		}
	}
	if len(all) != 1 {
		t.Fatalf("shared paces %v, want one: the channel's", all)
	}
	for _, at := range all {
		slices.SortFunc(at, time.Time.Compare)
		if len(at) < 6 { // more when Slack answered 429: the call tried again takes a turn again
			t.Errorf("%d turns, want 6 or more", len(at))
		}
		for i := 1; i < len(at); i++ {
			if gap := at[i].Sub(at[i-1]); gap < time.Second {
				t.Errorf("turns %d and %d %v apart, want a second or more", i-1, i, gap)
			}
		}
	}
}
