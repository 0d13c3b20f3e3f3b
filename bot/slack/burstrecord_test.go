package slack_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// TestBurstRecord is the record of docs/benchmarks.md ("Overload"), not a
// test: FACTBOT_BURST=300 sends that many mentions at once into one
// channel of a fake Slack paced as Slack paces (one message a second per
// channel, chat.update 50 and chat.postEphemeral 100 a minute per
// workspace, 429 with Retry-After past them), to factbot serve's defaults
// (8 workers, a queue of 100, Slack calls paced at one a second per
// channel), in real time, with an instant checker, and reports who heard
// back. It takes minutes; without FACTBOT_BURST it is skipped.
//
//	FACTBOT_BURST=300 go test -run TestBurstRecord -v -timeout 30m ./bot/slack/
func TestBurstRecord(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FACTBOT_BURST"))
	if n <= 0 {
		t.Skip("a record, not a test: set FACTBOT_BURST=300")
	}
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	fake.Pace("chat.postMessage", 1, time.Second, true)
	fake.Pace("chat.update", 50, time.Minute, false)
	fake.Pace("chat.postEphemeral", 100, time.Minute, false)
	st := storetest.NewMemory()
	svc := bot.New(st, &bottest.Checker{}, bot.Options{NoUserLimit: true, NoTenantLimit: true, Logger: quiet})
	ad, err := slack.New(slack.Config{BotToken: "xoxb-test", AppToken: "xapp-test", APIURL: fake.URL(),
		BotUserID: slacktest.BotUserID, Logger: quiet}, svc)
	if err != nil {
		t.Fatal(err)
	}
	svc.Register(ad)
	if err := svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		ad.Run(ctx)
	}()
	<-fake.Connected
	type asked struct{ event, user, ts string }
	var all []asked
	var ids []string
	began := time.Now()
	for i := range n {
		a := asked{fmt.Sprintf("EvRec%04d", i), fmt.Sprintf("U%04d", i), fmt.Sprintf("1700000200.%06d", i)}
		id, err := fake.Send("events_api", slacktest.Mention(a.event, "C1", a.user, a.ts, fmt.Sprintf("<@UBOT> Claim number %d", i)))
		if err != nil {
			t.Fatal(err)
		}
		all, ids = append(all, a), append(ids, id)
	}
	waitAcks(t, fake, ids...)
	// Settled: no request pending, then no call to Slack for 20 seconds
	// (notes and answers still on their way); at most 20 minutes.
	for limit := time.Now().Add(20 * time.Minute); time.Now().Before(limit); time.Sleep(time.Second) {
		pending := 0
		for _, a := range all {
			if r, err := st.Request(context.Background(), slacktest.TeamID, "slack:event:"+a.event); err == nil && r.State == store.RequestPending {
				pending++
			}
		}
		calls := fake.Recorded()
		if pending == 0 && len(calls) > 0 && time.Since(calls[len(calls)-1].At) > 20*time.Second {
			break
		}
	}
	cancel()
	<-done
	svc.Close()

	posted := map[string][]slacktest.Call{}
	for _, c := range fake.Recorded("chat.postMessage") {
		posted[c.Form.Get("thread_ts")] = append(posted[c.Form.Get("thread_ts")], c)
	}
	final := map[string]bool{} // messages updated with a report, by ts
	for _, c := range fake.Recorded("chat.update") {
		if isFinal(c) {
			final[c.Form.Get("ts")] = true
		}
	}
	noted := map[string]bool{}
	for _, c := range fake.Recorded("chat.postEphemeral") {
		noted[c.Form.Get("user")] = true
	}
	var answered, told, lost, split int
	for _, a := range all {
		reported, placeholders := false, 0
		for _, c := range posted[a.ts] {
			switch {
			case isFinal(c):
				reported = true
			case final[c.TS]:
				reported = true
			default:
				placeholders++ // a "Checking…" never updated
			}
		}
		switch {
		case reported:
			answered++
			if placeholders > 0 {
				split++
			}
		case noted[a.user]:
			told++
		default:
			lost++
		}
	}
	// The channel's longest silence, from its first message to its last
	// (the checks are instant: work is ready all along).
	var at []time.Time
	for _, c := range fake.Recorded("chat.postMessage", "chat.update") {
		at = append(at, c.At)
	}
	sort.Slice(at, func(i, j int) bool { return at[i].Before(at[j]) })
	var silence time.Duration
	for i := 1; i < len(at); i++ {
		silence = max(silence, at[i].Sub(at[i-1]))
	}
	settled := time.Duration(0) // to the last call of the burst
	for _, c := range fake.Recorded("chat.postMessage", "chat.update", "chat.postEphemeral") {
		settled = max(settled, c.At.Sub(began))
	}
	t.Logf("%d mentions: answered %d, told %d, lost %d, split %d; settled in %v; longest silence %v; 429s: %d chat.postMessage, %d chat.update, %d chat.postEphemeral",
		n, answered, told, lost, split, settled.Round(time.Second), silence.Round(time.Second),
		len(fake.Recorded("chat.postMessage (429)")), len(fake.Recorded("chat.update (429)")), len(fake.Recorded("chat.postEphemeral (429)")))
}
