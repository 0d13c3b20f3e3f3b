package slack_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// pacedLikeSlack is a fake Slack pacing the methods factbot answers with
// as Slack does (https://docs.slack.dev/apis/web-api/rate-limits): one
// message a second per channel, chat.update's tier (Tier 3, 50 a minute)
// and chat.postEphemeral's (Tier 4, 100 a minute) per workspace; past
// them it answers 429 with a Retry-After. Its clock is clock.
func pacedLikeSlack(t *testing.T, clock *storetest.Clock) *slacktest.Server {
	t.Helper()
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	fake.Now = clock.Now
	fake.Pace("chat.postMessage", 1, time.Second, true)
	fake.Pace("chat.update", 50, time.Minute, false)
	fake.Pace("chat.postEphemeral", 100, time.Minute, false)
	return fake
}

// replica is one factbot serve: a service over st answering on fake,
// whose Slack calls are paced in clock's time.
type replica struct {
	svc    *bot.Service
	ad     *slack.Adapter
	cancel context.CancelFunc
	done   chan struct{}
}

// startReplica starts a replica with 2 workers and a queue of 2; with
// socket, it receives the fake's events (Socket Mode).
func startReplica(t *testing.T, fake *slacktest.Server, clock *storetest.Clock, st bot.Store, ck bot.Checker, socket bool, shared bot.RateStore) *replica {
	t.Helper()
	svc := bot.New(st, ck, bot.Options{Workers: 2, MaxQueue: 2, NoUserLimit: true, NoTenantLimit: true, Logger: quiet})
	cfg := slack.Config{BotToken: "xoxb-test", APIURL: fake.URL(), BotUserID: slacktest.BotUserID,
		Now: clock.Now, Sleep: clock.Sleep, Logger: quiet, SharedPace: shared}
	if socket {
		cfg.AppToken = "xapp-test"
	}
	ad, err := slack.New(cfg, svc)
	if err != nil {
		t.Fatal(err)
	}
	svc.Register(ad)
	if err := svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	rp := &replica{svc: svc, ad: ad, cancel: cancel, done: make(chan struct{})}
	if !socket {
		close(rp.done)
		return rp
	}
	go func() {
		defer close(rp.done)
		if err := ad.Run(ctx); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	select {
	case <-fake.Connected:
	case <-time.After(30 * time.Second): // hang guard only
		t.Fatal("socket mode never connected")
	}
	return rp
}

func (rp *replica) stop() {
	rp.cancel()
	<-rp.done
	rp.svc.Close()
}

// mention is the i-th mention of a burst in channel C1: its own person,
// message and event.
type mention struct{ event, user, ts string }

func burstMention(i int) mention {
	return mention{event: fmt.Sprintf("EvBurst%03d", i), user: fmt.Sprintf("U%03d", i), ts: fmt.Sprintf("1700000100.%06d", i)}
}

// sendBurst sends n mentions in C1 and waits for their acks.
func sendBurst(t *testing.T, fake *slacktest.Server, n int) []mention {
	t.Helper()
	var ms []mention
	var ids []string
	for i := range n {
		m := burstMention(i)
		id, err := fake.Send("events_api", slacktest.Mention(m.event, "C1", m.user, m.ts, fmt.Sprintf("<@UBOT> Claim number %d", i)))
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		ids = append(ids, id)
	}
	waitAcks(t, fake, ids...)
	return ms
}

// settle calls Resume (what every replica's pick-up does every half
// lease) until no request of the burst is pending.
func settle(t *testing.T, st *storetest.Memory, ms []mention, svcs ...*bot.Service) {
	t.Helper()
	ctx := context.Background()
	defer func() {
		if t.Failed() {
			for _, m := range ms {
				if r, err := st.Request(ctx, slacktest.TeamID, "slack:event:"+m.event); err == nil && r.State == store.RequestPending {
					t.Logf("pending: %+v", r)
				}
			}
		}
	}()
	waitFor(t, func() bool {
		for _, s := range svcs {
			s.Resume(ctx)
		}
		for _, m := range ms {
			r, err := st.Request(ctx, slacktest.TeamID, "slack:event:"+m.event)
			if err != nil || r.State == store.RequestPending {
				return false
			}
		}
		return true
	})
}

// allTold reports whether every refusal of svc so far has been told.
func allTold(svc *bot.Service) bool {
	m := svc.Metrics()
	return counted(m.Notes.WithLabelValues(slack.Name, "sent"))+counted(m.Notes.WithLabelValues(slack.Name, "collapsed")) ==
		counted(m.Refusals.WithLabelValues(slack.Name, "busy"))
}

// counted is c's count.
func counted(c prometheus.Counter) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		return -1
	}
	return m.GetCounter().GetValue()
}

// checkEveryoneHeard checks, from the fake's call log, that every person
// of the burst was answered in their thread (the placeholder updated with
// the report, never a second message beside it) or told by a note, and,
// unless ready is zero, that from ready (when the checks could finish) no
// pause between the channel's calls was longer than a few turns of its
// pace until all was settled. It returns how many were answered and told.
func checkEveryoneHeard(t *testing.T, st *storetest.Memory, fake *slacktest.Server, ms []mention, ready time.Time) (answered, told int) {
	t.Helper()
	posted := map[string][]slacktest.Call{} // by thread
	for _, c := range fake.Recorded("chat.postMessage") {
		posted[c.Form.Get("thread_ts")] = append(posted[c.Form.Get("thread_ts")], c)
	}
	updated := map[string]slacktest.Call{} // the final update, by message ts
	for _, c := range fake.Recorded("chat.update") {
		if isFinal(c) {
			updated[c.Form.Get("ts")] = c
		}
	}
	noted := map[string]int{}
	for _, c := range fake.Recorded("chat.postEphemeral") {
		noted[c.Form.Get("user")]++
	}
	for _, m := range ms {
		r, err := st.Request(context.Background(), slacktest.TeamID, "slack:event:"+m.event)
		if err != nil {
			t.Fatal(err)
		}
		posts := posted[m.ts]
		switch {
		case r.Refused:
			told++
			if noted[m.user] != 1 || len(posts) != 0 {
				t.Errorf("%s refused: %d notes, %d messages; want one note and no message", m.user, noted[m.user], len(posts))
			}
		case r.State == store.RequestDone:
			answered++
			if len(posts) != 1 {
				for _, p := range posts {
					t.Logf("%s %s %.80s", p.Method, p.TS, p.Text())
				}
				t.Logf("%+v", r)
				t.Errorf("%s: %d messages in the thread, want one (the answer split?)", m.user, len(posts))
				continue
			}
			if _, ok := updated[posts[0].TS]; !ok && !isFinal(posts[0]) {
				t.Errorf("%s: the placeholder was never updated with the report", m.user)
			}
		default:
			t.Errorf("%s: request %+v, neither answered nor told", m.user, r)
		}
	}
	if ready.IsZero() {
		return answered, told
	}
	at := []time.Time{ready}
	for _, c := range fake.Recorded("chat.postMessage", "chat.update") {
		if !c.At.Before(ready) {
			at = append(at, c.At)
		}
	}
	sort.Slice(at, func(i, j int) bool { return at[i].Before(at[j]) })
	for i := 1; i < len(at); i++ {
		if gap := at[i].Sub(at[i-1]); gap > 5*time.Second {
			t.Errorf("the channel was silent for %v (calls %d to %d of %d) while work was ready", gap, i-1, i, len(at)-1)
		}
	}
	return answered, told
}

// A burst of mentions in one channel, far more than the queue holds, on a
// Slack that paces like Slack: every person is answered or told, no
// answer is split, and the channel never stalls while work is ready.
func TestBurstEveryoneHearsBack(t *testing.T) {
	clock := storetest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	fake := pacedLikeSlack(t, clock)
	st := storetest.NewMemory()
	hold := make(chan struct{})
	rp := startReplica(t, fake, clock, st, &bottest.Checker{Block: hold}, true, nil)
	ms := sendBurst(t, fake, 30)
	// The refused are told while the checks run; then the checks finish,
	// and from then on the channel has work ready until all is settled.
	waitFor(t, func() bool { return allTold(rp.svc) })
	ready := clock.Now()
	var queued dto.Metric
	rp.svc.Metrics().Queued.Write(&queued)
	close(hold)
	settle(t, st, ms, rp.svc)
	rp.stop()
	answered, told := checkEveryoneHeard(t, st, fake, ms, ready)
	if answered < 2 || answered+told != len(ms) {
		t.Errorf("answered %d, told %d of %d; want those the workers and the queue took answered (2 to 4), every other told", answered, told, len(ms))
	}
	// The operator sees it: the queue's depth while the checks ran (the
	// two workers' requests out of it), and the refusals.
	if got, want := queued.GetGauge().GetValue(), float64(answered-2); got != want {
		t.Errorf("factbot_queue_depth = %v while the checks ran, want %v", got, want)
	}
	if got := counted(rp.svc.Metrics().Refusals.WithLabelValues(slack.Name, "busy")); got != float64(told) {
		t.Errorf("factbot_refusals_total{reason=busy} = %v, want %d", got, told)
	}
	t.Logf("answered %d, told %d, 429s %d, in %v of Slack's time", answered, told,
		len(fake.Recorded("chat.postMessage (429)", "chat.update (429)", "chat.postEphemeral (429)")), clock.Now().Sub(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)))
}

// A replica stopped in the middle of a burst (checks running, notes being
// told) and another started over the same store: every person still hears
// back once, and no answer is split.
func TestBurstRestartMidway(t *testing.T) {
	clock := storetest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	fake := pacedLikeSlack(t, clock)
	st := storetest.NewMemory()
	blocked := &bottest.Checker{Block: make(chan struct{}), Started: make(chan factcheck.Input, 10)}
	first := startReplica(t, fake, clock, st, blocked, true, nil)
	ms := sendBurst(t, fake, 30)
	<-blocked.Started // a check is running when the replica stops
	first.stop()
	second := startReplica(t, fake, clock, st, &bottest.Checker{}, false, nil)
	settle(t, st, ms, second.svc)
	second.stop()
	answered, told := checkEveryoneHeard(t, st, fake, ms, time.Time{})
	if answered+told != len(ms) {
		t.Errorf("answered %d, told %d of %d", answered, told, len(ms))
	}
}
