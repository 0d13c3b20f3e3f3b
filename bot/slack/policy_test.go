package slack_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
)

// byText answers "cheese" claims as contradicted, others as supported.
func byText(_ context.Context, in factcheck.Input) (*factcheck.Report, error) {
	l := factcheck.Supported
	if strings.Contains(in.Text, "cheese") {
		l = factcheck.Contradicted
	}
	return bottest.Report(in, l), nil
}

func finals(f *slacktest.Server) int {
	n := 0
	for _, c := range f.Recorded("chat.update", "chat.postMessage") {
		if isFinal(c) {
			n++
		}
	}
	return n
}

// TestSlashHistoryArguments: history takes a count, "mine" and a verdict
// (the core parses them), and says what it did not understand.
func TestSlashHistoryArguments(t *testing.T) {
	e := start(t, setup{checker: &bottest.Checker{Func: byText}})
	for i, m := range []struct{ user, text string }{{"U1", "Snow is white"}, {"U2", "The Moon is made of cheese"}} {
		id, _ := e.fake.Send("events_api", slacktest.Mention(fmt.Sprint("EvHA", i), "C1", m.user, fmt.Sprintf("1700000010.00010%d", i), "<@UBOT> "+m.text))
		waitAck(t, e.fake, id)
		waitFor(t, func() bool { return finals(e.fake) > i })
	}
	tests := []struct {
		args, user string
		want, not  []string
	}{
		{"mine", "U1", []string{"Snow is white", "Your latest checks"}, []string{"cheese"}},
		{"contradicted", "U1", []string{"cheese", "Contradicted"}, []string{"Snow"}},
		{"soon", "U1", []string{`I did not understand \"soon\"`}, []string{"Snow", "cheese"}},
	}
	// "history 1" lists one check. Which one is not asserted: both were made
	// in the same second, and check ids (newest first) have second precision.
	id, _ := e.fake.Send("slash_commands", slacktest.Command("trigHA1", "C1", "U1", "history 1", e.fake.ResponseURL("h")))
	ack := waitAck(t, e.fake, id)
	if got := strings.Count(string(ack.Payload), "` 20"); got != 1 {
		t.Errorf("history 1 listed %d checks, want 1: %s", got, ack.Payload)
	}
	for _, tt := range tests {
		id, _ := e.fake.Send("slash_commands", slacktest.Command("trigHA"+tt.args, "C1", tt.user, "history "+tt.args, e.fake.ResponseURL("h")))
		ack := waitAck(t, e.fake, id)
		var p map[string]any
		json.Unmarshal(ack.Payload, &p)
		text := fmt.Sprint(p["text"])
		for _, w := range tt.want {
			if !strings.Contains(string(ack.Payload), w) {
				t.Errorf("history %s → %s, want %q", tt.args, text, w)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(text, w) {
				t.Errorf("history %s → %s, want no %q", tt.args, text, w)
			}
		}
	}
}

// TestOnlyALinkReachesTheCoreAsItsURL: Slack's <url|label> markup never
// reaches the core or the engine.
func TestOnlyALinkReachesTheCoreAsItsURL(t *testing.T) {
	ck := &bottest.Checker{}
	e := start(t, setup{checker: ck})
	id, _ := e.fake.Send("events_api", slacktest.Mention("EvLink", "C1", "U1", "1700000011.000100",
		"<@UBOT> <https://example.com/a?b=1&amp;c=2|an article>"))
	waitAck(t, e.fake, id)
	waitFor(t, func() bool { return finals(e.fake) > 0 })
	calls := ck.Calls()
	if len(calls) != 1 || calls[0].Text != "https://example.com/a?b=1&c=2" {
		t.Errorf("checked %+v, want the URL alone", calls)
	}
}

// TestRetryAfterOverTheBoundGivesUp: a 429 asking for an hour is not
// waited out; the answer is posted by the next call.
func TestRetryAfterOverTheBoundGivesUp(t *testing.T) {
	e := start(t, setup{})
	e.fake.RateLimit("chat.postMessage", "3600")
	id, _ := e.fake.Send("events_api", slacktest.Mention("Ev3600", "C1", "U1", "1700000012.000100", "<@UBOT> Grass is green"))
	waitAck(t, e.fake, id)
	waitFor(t, func() bool { return finals(e.fake) > 0 })
	e.stop()
	for _, d := range e.sleep.Slept() {
		if d >= time.Minute {
			t.Errorf("slept %v, want no wait over a minute", d)
		}
	}
	var methods []string
	for _, c := range e.fake.Recorded("chat.postMessage (429)", "chat.postMessage") {
		methods = append(methods, c.Method)
	}
	if strings.Join(methods, ",") != "chat.postMessage (429),chat.postMessage" {
		t.Errorf("calls = %v, want the refused placeholder, then the answer posted", methods)
	}
}

// TestClaimErrorNotShown: a claim that could not be checked is reported
// in fixed words, never with the internal error.
func TestClaimErrorNotShown(t *testing.T) {
	ck := &bottest.Checker{Func: func(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
		rep := bottest.Report(in, factcheck.Unverifiable)
		rep.Claims[0].Error = "POST https://internal.example/v1: 500 secret-token-123"
		return rep, nil
	}}
	e := start(t, setup{checker: ck})
	id, _ := e.fake.Send("events_api", slacktest.Mention("EvErr", "C1", "U1", "1700000013.000100", "<@UBOT> Grass is green"))
	waitAck(t, e.fake, id)
	final := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
	if s := final.Text(); strings.Contains(s, "secret") || strings.Contains(s, "internal.example") || !strings.Contains(s, "could not be checked") {
		t.Errorf("final = %s, want \"could not be checked\" and no error detail", s)
	}
}
