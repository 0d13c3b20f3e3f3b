package slack_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/store"
)

// doneVisibility waits for the request to be done and returns the
// visibility saved on its check.
func doneVisibility(t *testing.T, e *env, key string) store.Visibility {
	t.Helper()
	var r *store.Request
	waitFor(t, func() bool {
		var err error
		r, err = request(e, key)
		return err == nil && r.State == store.RequestDone
	})
	if r.CheckID == "" {
		t.Fatalf("request %s has no check: %+v", key, r)
	}
	c, err := e.st.Check(context.Background(), slacktest.TeamID, r.CheckID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Visibility != r.Visibility {
		t.Errorf("check of %s: visibility %q, request %q", key, c.Visibility, r.Visibility)
	}
	return c.Visibility
}

// request reads a stored request (the test stores have Request).
func request(e *env, key string) (*store.Request, error) {
	st := e.st.(interface {
		Request(ctx context.Context, tenant, key string) (*store.Request, error)
	})
	return st.Request(context.Background(), slacktest.TeamID, key)
}

// shortcut is a message shortcut payload on a message in channel (id and
// name as Slack sends them).
func shortcut(trigger, channelID, channelName, user, ts, text string) map[string]any {
	return map[string]any{
		"type": "message_action", "callback_id": slack.CallbackShortcut, "trigger_id": trigger,
		"team": map[string]any{"id": slacktest.TeamID}, "channel": map[string]any{"id": channelID, "name": channelName},
		"user":    map[string]any{"id": user},
		"message": map[string]any{"type": "message", "user": "U5", "ts": ts, "text": text},
	}
}

// commandIn is a /factcheck payload with the channel_name Slack sends.
func commandIn(trigger, channelID, channelName, user, text, responseURL string) map[string]any {
	c := slacktest.Command(trigger, channelID, user, text, responseURL)
	c["channel_name"] = channelName
	return c
}

// TestWhatIsPrivateStaysPrivate: a mention in a private channel, a message
// shortcut on a DM and /factcheck in a DM are saved as such, and another
// member's workspace-wide /factcheck history in another channel does not
// list them; a check made in a public channel is listed.
func TestWhatIsPrivateStaysPrivate(t *testing.T) {
	e := start(t, setup{})
	e.fake.SetChannel("CPRIV", slacktest.PrivateChannel)
	e.fake.SetChannel("CPUB", slacktest.PublicChannel)
	e.fake.SetChannel("COTHER", slacktest.PublicChannel)
	e.fake.SetChannel("GMPIM", slacktest.MPIM)

	tests := []struct {
		name    string
		typ     string
		payload map[string]any
		key     string
		text    string
		want    store.Visibility
	}{
		{"mention in a private channel", "events_api",
			slacktest.Mention("EvPriv", "CPRIV", "U1", "1700000020.000100", "<@UBOT> Secret claim one"),
			"slack:event:EvPriv", "Secret claim one", store.VisibilityPrivate},
		{"shortcut on a DM", "interactive",
			shortcut("trigDM", "D0DM1", "directmessage", "U1", "1700000021.000100", "Secret claim two"),
			"slack:shortcut:trigDM", "Secret claim two", store.VisibilityDM},
		{"/factcheck in a DM", "slash_commands",
			commandIn("trigCmdDM", "D0DM2", "directmessage", "U1", "Secret claim three", e.fake.ResponseURL("c")),
			"slack:command:trigCmdDM", "Secret claim three", store.VisibilityDM},
		{"/factcheck in a group DM", "slash_commands",
			commandIn("trigCmdMP", "GMPIM", "mpdm-u1--u3--u4-1", "U1", "Secret claim four", e.fake.ResponseURL("c")),
			"slack:command:trigCmdMP", "Secret claim four", store.VisibilityGroup},
		{"shortcut in a group DM (asked)", "interactive",
			shortcut("trigMP", "GMPIM", "", "U1", "1700000022.000100", "Secret claim five"),
			"slack:shortcut:trigMP", "Secret claim five", store.VisibilityGroup},
		{"mention in a public channel", "events_api",
			slacktest.Mention("EvPub", "CPUB", "U1", "1700000023.000100", "<@UBOT> Public claim six"),
			"slack:event:EvPub", "Public claim six", store.VisibilityPublic},
	}
	for _, tt := range tests {
		id, err := e.fake.Send(tt.typ, tt.payload)
		if err != nil {
			t.Fatal(err)
		}
		waitAck(t, e.fake, id)
		if got := doneVisibility(t, e, tt.key); got != tt.want {
			t.Errorf("%s: saved visibility %q, want %q", tt.name, got, tt.want)
		}
	}
	// Only what the payload did not tell was asked, once per channel.
	var asked []string
	for _, c := range e.fake.Recorded("conversations.info") {
		asked = append(asked, c.Form.Get("channel"))
	}
	if diff := cmp.Diff([]string{"CPRIV", "GMPIM", "CPUB"}, asked); diff != "" {
		t.Errorf("conversations.info calls (-want +got):\n%s", diff)
	}

	// Another member, in another channel, asks for the workspace's history.
	id, _ := e.fake.Send("slash_commands", commandIn("trigHist", "COTHER", "general", "U2", "history 25", e.fake.ResponseURL("h")))
	ack := string(waitAck(t, e.fake, id).Payload)
	if !strings.Contains(ack, "Public claim six") {
		t.Errorf("history = %s, want the public channel's check", ack)
	}
	for _, tt := range tests[:5] {
		if strings.Contains(ack, tt.text) {
			t.Errorf("another member's history in another channel lists %q (%s):\n%s", tt.text, tt.name, ack)
		}
	}
	// The asker still finds their own checks.
	id, _ = e.fake.Send("slash_commands", commandIn("trigMine", "COTHER", "general", "U1", "history 25 mine", e.fake.ResponseURL("h")))
	ack = string(waitAck(t, e.fake, id).Payload)
	for _, tt := range tests {
		if !strings.Contains(ack, tt.text) {
			t.Errorf("the asker's own history lacks %q:\n%s", tt.text, ack)
		}
	}
}

// TestVisibilityLookupFailsClosed: a channel conversations.info cannot
// describe (a private channel the bot is not in) is saved as unknown, and
// unknown is not listed to others.
func TestVisibilityLookupFailsClosed(t *testing.T) {
	e := start(t, setup{})
	e.fake.SetChannel("CHIDDEN", slacktest.NotFound)
	id, _ := e.fake.Send("slash_commands", commandIn("trigHidden", "CHIDDEN", "secret-project", "U1", "Hidden claim", e.fake.ResponseURL("c")))
	waitAck(t, e.fake, id)
	if got := doneVisibility(t, e, "slack:command:trigHidden"); got != store.VisibilityUnknown {
		t.Errorf("saved visibility %q, want unknown", got)
	}
	id, _ = e.fake.Send("slash_commands", commandIn("trigHist2", "C2", "general", "U2", "history", e.fake.ResponseURL("h")))
	if ack := string(waitAck(t, e.fake, id).Payload); strings.Contains(ack, "Hidden claim") {
		t.Errorf("history in another channel lists an unknown-visibility check: %s", ack)
	}
}

// TestVisibilityLookupOncePerBurst: a burst of mentions in one channel
// costs one conversations.info call.
func TestVisibilityLookupOncePerBurst(t *testing.T) {
	e := start(t, setup{})
	e.fake.SetChannel("CBURST", slacktest.PrivateChannel)
	var ids []string
	for i := range 8 {
		id, err := e.fake.Send("events_api", slacktest.Mention(fmt.Sprint("EvBurst", i), "CBURST", "U1",
			fmt.Sprintf("1700000030.00010%d", i), fmt.Sprint("<@UBOT> Burst claim ", i)))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	waitAcks(t, e.fake, ids...)
	for i := range 8 {
		r, err := request(e, fmt.Sprint("slack:event:EvBurst", i))
		if err != nil || r.Visibility != store.VisibilityPrivate {
			t.Errorf("request %d = %+v, %v; want private", i, r, err)
		}
	}
	if n := len(e.fake.Recorded("conversations.info")); n != 1 {
		t.Errorf("%d conversations.info calls, want 1", n)
	}
}

// TestRecheckInAPrivateChannelStaysPrivate: "Check again" under a report
// in a private channel saves the new check as private too.
func TestRecheckInAPrivateChannelStaysPrivate(t *testing.T) {
	e := start(t, setup{})
	e.fake.SetChannel("CPRIV", slacktest.PrivateChannel)
	id, _ := e.fake.Send("events_api", slacktest.Mention("EvRe", "CPRIV", "U1", "1700000040.000100", "<@UBOT> Secret claim again"))
	waitAck(t, e.fake, id)
	doneVisibility(t, e, "slack:event:EvRe")
	r, err := request(e, "slack:event:EvRe")
	if err != nil {
		t.Fatal(err)
	}
	button := map[string]any{
		"type": "block_actions", "trigger_id": "trigRe", "team": map[string]any{"id": slacktest.TeamID},
		"user": map[string]any{"id": "U1"}, "channel": map[string]any{"id": "CPRIV", "name": "secret-project"},
		"container": map[string]any{"type": "message", "channel_id": "CPRIV", "message_ts": "1700000000.000009", "thread_ts": "1700000040.000100"},
		"actions":   []any{map[string]any{"action_id": bot.ActionRecheck, "block_id": "factbot_actions", "value": r.CheckID, "type": "button", "action_ts": "1"}},
	}
	id, _ = e.fake.Send("interactive", button)
	waitAck(t, e.fake, id)
	if got := doneVisibility(t, e, "slack:action:trigRe"); got != store.VisibilityPrivate {
		t.Errorf("recheck saved visibility %q, want private", got)
	}
}
