package slack_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// A progress update that hangs on chat.update holds neither the worker nor
// the final report, which replaces the placeholder.
func TestHungProgressUpdateStillReports(t *testing.T) {
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	fake.Hang("chat.update", 1)
	// The check reports its progress, then finishes once that progress
	// update is hanging.
	ck := &bottest.Checker{Func: func(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
		rep := bottest.Report(in, factcheck.Supported)
		waitFor(t, func() bool { return len(fake.Recorded("chat.update (hung)")) == 1 })
		return rep, nil
	}}
	e := start(t, setup{fake: fake, checker: ck})
	id, _ := e.fake.Send("events_api", slacktest.Mention("EvHang1", "C1", "U1", "1700000011.000100", "<@UBOT> Snow is white"))
	waitAck(t, e.fake, id)
	final := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
	if !strings.Contains(final.Text(), "Snow is white") {
		t.Errorf("final = %s", final.Text())
	}
	if hung := e.fake.Recorded("chat.update (hung)"); isFinal(hung[0]) {
		t.Errorf("the hung update was the final one, want a progress update")
	}
}

// When the final chat.update hangs, the report is not posted beside the
// "Checking…" placeholder (an answer split in two): the request stays
// pending with its check saved, and the next attempt updates the
// placeholder with it.
func TestHungFinalUpdateNotSplit(t *testing.T) {
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	fake.Hang("chat.update", 1)
	e := start(t, setup{fake: fake, callTimeout: 100 * time.Millisecond})
	id, _ := e.fake.Send("events_api", slacktest.Mention("EvHang2", "C1", "U1", "1700000012.000100", "<@UBOT> Ice is cold"))
	waitAck(t, e.fake, id)
	waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update (hung)" && isFinal(c) })
	ctx := context.Background()
	waitFor(t, func() bool {
		e.svc.Resume(ctx) // what the pick-up does every half lease
		return len(e.fake.Recorded("chat.update")) > 0
	})
	e.stop()
	placeholder := e.fake.Recorded("chat.postMessage")
	if len(placeholder) != 1 || isFinal(placeholder[0]) {
		t.Fatalf("posts = %v, want the placeholder alone", placeholder)
	}
	final := e.fake.Recorded("chat.update")
	if len(final) != 1 || !isFinal(final[0]) || final[0].Form.Get("ts") != placeholder[0].TS || !strings.Contains(final[0].Text(), "Ice is cold") {
		t.Errorf("updates = %v, want the placeholder updated with the report", final)
	}
	if r, err := e.st.(interface {
		Request(context.Context, string, string) (*store.Request, error)
	}).Request(ctx, "T1", "slack:event:EvHang2"); err != nil || r.State != store.RequestDone || r.Attempts != 2 {
		t.Errorf("request = %+v, %v; want done on the second attempt", r, err)
	}
}

// A call cancelled before its turn takes none: the next call waits one
// turn, not two (pace_test.go: a turn given up while waiting).
func TestPaceGivesBackAbandonedTurns(t *testing.T) {
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	sl := &sleeper{}
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	ad, err := slack.New(slack.Config{BotToken: "xoxb-test", APIURL: fake.URL(), PerChannel: 1, BotUserID: slacktest.BotUserID,
		Sleep: sl.Sleep, Now: func() time.Time { return now }, Logger: quiet},
		bot.New(storetest.NewMemory(), &bottest.Checker{}, bot.Options{Logger: quiet}))
	if err != nil {
		t.Fatal(err)
	}
	r := &store.Request{Key: "k", Tenant: "T1", Platform: slack.Name, Channel: "C1", User: "U1"}
	m := &bot.Message{Title: "Checking…"}
	if _, err := ad.Post(context.Background(), r, m); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ad.Post(cancelled, r, m); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Post = %v, want context.Canceled", err)
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

// endless is a request body that never ends: a little data, then nothing.
func endless(t *testing.T) io.Reader {
	pr, pw := io.Pipe()
	go pw.Write([]byte("payload=" + strings.Repeat("x", 100)))
	t.Cleanup(func() { pw.Close() })
	return pr
}

// Requests without Slack's signature headers, or with a stale timestamp,
// are refused before their body is read: a body that never ends gets its
// 401 at once.
func TestUnsignedRequestRefusedBeforeItsBody(t *testing.T) {
	now := time.Now()
	e, srv, st := httpEnv(t, now, "secret")
	stale := header(fmtUnix(now.Add(-10*time.Minute)), "v0=00")
	for name, h := range map[string]http.Header{"unsigned": {}, "stale": stale, "no signature": header(fmtUnix(now), "")} {
		for _, path := range []string{"/slack/commands", "/slack/events", "/slack/interactions"} {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // hang guard only
			req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+path, endless(t))
			req.Header = h.Clone()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("%s %s: %v", name, path, err)
			}
			resp.Body.Close()
			cancel()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s = %d, want 401", name, path, resp.StatusCode)
			}
		}
	}
	e.stop()
	if st.RequestCount() != 0 {
		t.Errorf("refused requests stored: %d", st.RequestCount())
	}
}

func fmtUnix(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

// A placeholder Slack no longer has (deleted: chat.update answers
// message_not_found) is answered with a new message in the thread: there
// is nothing left for the report to be split from.
func TestDeletedPlaceholderAnsweredAnew(t *testing.T) {
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	fake.Fail("chat.update", "message_not_found")
	quietCheck := &bottest.Checker{Func: func(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
		return bottest.Report(factcheck.Input{Text: in.Text}, factcheck.Supported), nil // no progress: the one update is the final one
	}}
	e := start(t, setup{fake: fake, checker: quietCheck})
	id, _ := e.fake.Send("events_api", slacktest.Mention("EvGone", "C1", "U1", "1700000013.000100", "<@UBOT> Ice is cold"))
	waitAck(t, e.fake, id)
	final := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.postMessage" && isFinal(c) })
	e.stop()
	if final.Form.Get("thread_ts") != "1700000013.000100" || !strings.Contains(final.Text(), "Ice is cold") {
		t.Errorf("report posted as %v", final.Form)
	}
	if n := len(e.fake.Recorded("chat.update (failed)")); n != 1 {
		t.Errorf("%d failed updates, want the one", n)
	}
}
