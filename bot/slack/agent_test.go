package slack_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store/storetest"
)

// The agent messaging experience's top-level DM in these tests.
const agentTS = "1700000500.000001"

// Opening the Messages tab (app_home_opened, tab "messages") sets the
// DM's prompts with no thread_ts, in the person's language, naming the
// channel in view; app_context_changed names the new one, and only when
// it changes; the Home tab sets nothing.
func TestAgentMessagesTabPrompts(t *testing.T) {
	e := start(t, setup{})
	e.fake.SetAgentView(true)
	e.fake.SetUser("U1", slacktest.User{Locale: "fr-FR"})
	prompted := func(id string) slacktest.Call {
		t.Helper()
		waitAck(t, e.fake, id)
		return waitCall(t, e.fake, func(c slacktest.Call) bool {
			return strings.HasPrefix(c.Method, "assistant.threads.setSuggestedPrompts")
		})
	}
	id, _ := e.fake.Send("events_api", slacktest.AppHomeOpened("EvT1", dm, "U1", "messages", "C5"))
	c := prompted(id)
	if c.Method != "assistant.threads.setSuggestedPrompts" || c.Form.Get("channel_id") != dm || c.Form.Has("thread_ts") ||
		c.Form.Get("title") != "Que dois-je vérifier ?" {
		t.Errorf("%s form = %v, want the DM's prompts without thread_ts", c.Method, c.Form)
	}
	want := []prompt{
		{"Vérifier une affirmation", "La Grande Muraille de Chine est visible depuis l'espace à l'œil nu."},
		{"Vérifier le message que je regarde", "Vérifie le dernier message de <#C5>"},
	}
	if diff := cmp.Diff(want, prompts(t, c)); diff != "" {
		t.Errorf("prompts (-want +got):\n%s", diff)
	}
	// The context changes to C6: the prompts name it. C6 again: nothing;
	// the next call is for the move to nothing in view.
	for _, ev := range []struct {
		id, viewing string
		want        []string
	}{
		{"EvT2", "C6", []string{"Vérifie le dernier message de <#C6>"}},
		{"EvT3", "C6", nil},
		{"EvT4", "", []string{}},
	} {
		id, _ := e.fake.Send("events_api", slacktest.AppContextChanged(ev.id, dm, "U1", ev.viewing))
		if ev.want == nil {
			waitAck(t, e.fake, id)
			continue
		}
		c := prompted(id)
		var got []string
		for _, p := range prompts(t, c)[1:] {
			got = append(got, p.Message)
		}
		if c.Form.Has("thread_ts") || !cmp.Equal(ev.want, got, cmpEmpty) {
			t.Errorf("%s: prompts %v (form %v), want the claim and %v", ev.id, got, c.Form, ev.want)
		}
	}
	// The event as Slack's reference shows it: no user nor channel, the
	// person in its authorizations; the DM is the one the tab was opened in.
	docs := slacktest.AppContextChanged("EvT7", "", "", "C7")
	delete(docs["event"].(map[string]any), "user")
	delete(docs["event"].(map[string]any), "channel")
	docs["authorizations"] = []any{map[string]any{"team_id": slacktest.TeamID, "user_id": "U1", "is_bot": false}}
	id, _ = e.fake.Send("events_api", docs)
	if c := prompted(id); c.Form.Get("channel_id") != dm || len(prompts(t, c)) != 2 || prompts(t, c)[1].Message != "Vérifie le dernier message de <#C7>" {
		t.Errorf("after a context change naming no person: %v", c.Form)
	}
	id, _ = e.fake.Send("events_api", slacktest.AppHomeOpened("EvT5", dm, "U1", "home", ""))
	waitAck(t, e.fake, id)
	id, _ = e.fake.Send("events_api", slacktest.AppHomeOpened("EvT6", "D8", "U2", "messages", ""))
	if c := prompted(id); c.Form.Get("channel_id") != "D8" {
		t.Errorf("after the Home tab, prompts went to %v, want only U2's (D8)", c.Form)
	}
	if n := len(e.fake.Recorded("assistant.threads.setSuggestedPrompts", "assistant.threads.setSuggestedPrompts (ignored)")); n != 5 {
		t.Errorf("%d setSuggestedPrompts calls, want 5", n)
	}
}

var cmpEmpty = cmp.Comparer(func(a, b []string) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal([]string(a), []string(b)) })

// A top-level DM is a request answered in its own thread: a loading state
// at once (no title: the person's message names the thread), the report
// streamed there with the research as task updates, the feedback
// buttons, the status cleared; a thumbs-down is recorded as today. A reply
// in that thread is a new request, answered in the same thread.
func TestAgentTopLevelDMAnsweredInItsThread(t *testing.T) {
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	fake.SetAgentView(true)
	e := start(t, setup{fake: fake, checker: researching(t, fake)})
	id, _ := e.fake.Send("events_api", slacktest.DirectMessage("EvD1", dm, "U1", agentTS, "The Eiffel Tower is 500 m tall"))
	waitAck(t, e.fake, id)
	stop := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.stopStream" })
	waitCall(t, e.fake, func(c slacktest.Call) bool {
		return c.Method == "assistant.threads.setStatus" && c.Form.Get("status") == ""
	})
	var methods []string
	var tasks int
	for _, c := range e.fake.Recorded() {
		switch c.Method {
		case "auth.test", "users.info", "conversations.info":
			continue
		case "chat.startStream", "chat.appendStream", "chat.stopStream":
			for _, ch := range chunksOf(t, c) {
				if ch.Type == "task_update" {
					tasks++
				}
			}
		}
		if len(methods) == 0 || methods[len(methods)-1] != c.Method {
			methods = append(methods, c.Method)
		}
		if th := c.Form.Get("thread_ts"); c.Method != "chat.appendStream" && c.Method != "chat.stopStream" && th != agentTS {
			t.Errorf("%s in thread %q, want the DM's own thread %s", c.Method, th, agentTS)
		}
		if ch := firstNonEmptyStr(c.Form.Get("channel"), c.Form.Get("channel_id")); ch != dm {
			t.Errorf("%s in %q, want %s", c.Method, ch, dm)
		}
	}
	if len(methods) < 4 || methods[0] != "assistant.threads.setStatus" || methods[1] != "chat.startStream" ||
		methods[len(methods)-2] != "chat.stopStream" || methods[len(methods)-1] != "assistant.threads.setStatus" {
		t.Errorf("calls = %v, want the status, the stream, the status cleared", methods)
	}
	if tasks < 2 {
		t.Errorf("%d task updates, want the claim in progress and complete", tasks)
	}
	wrong := feedbackValue(t, stop)
	checkID, _ := strings.CutPrefix(wrong, "wrong:")
	id, _ = e.fake.Send("interactive", map[string]any{
		"type": "block_actions", "trigger_id": "trigD", "team": map[string]any{"id": slacktest.TeamID},
		"user": map[string]any{"id": "U1"}, "channel": map[string]any{"id": dm},
		"container": map[string]any{"type": "message", "channel_id": dm, "message_ts": "1700000000.000009", "thread_ts": agentTS},
		"actions": []any{map[string]any{"action_id": "factbot_feedback", "block_id": "factbot_feedback_" + checkID,
			"type": "feedback_buttons", "value": wrong, "action_ts": "1"}},
	})
	waitAck(t, e.fake, id)
	waitFor(t, func() bool {
		c, err := e.st.Check(context.Background(), slacktest.TeamID, checkID)
		return err == nil && len(c.Feedback) == 1 && c.Feedback[0].Once == "slack_feedback_buttons"
	})

	// A follow-up in the thread: a new request there.
	id, _ = e.fake.Send("events_api", slacktest.AssistantMessage("EvD2", dm, "U1", "1700000500.000009", agentTS, "The Eiffel Tower is 330 m tall"))
	waitAck(t, e.fake, id)
	starts := func() int { return len(e.fake.Recorded("chat.startStream")) }
	waitFor(t, func() bool { return starts() == 2 })
	if c := e.fake.Recorded("chat.startStream")[1]; c.Form.Get("thread_ts") != agentTS {
		t.Errorf("follow-up streamed in thread %q, want %s", c.Form.Get("thread_ts"), agentTS)
	}
	waitFor(t, func() bool { return len(e.fake.Recorded("chat.stopStream")) == 2 })
	if n := len(e.fake.Recorded("assistant.threads.setTitle")); n != 1 {
		t.Errorf("%d titles set; want only the follow-up's (a top-level DM names its own thread)", n)
	}
}

func firstNonEmptyStr(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// Bad input and faults in the agent experience get what the assistant
// gets: another bot's DM, an edit and a deletion are ignored; a file-only
// DM is checked; a DM while the queue is full is told so in its thread; a
// status Slack refuses is only logged and a stream it refuses is replaced
// by the report posted in the thread.
func TestAgentBadInputAndFaults(t *testing.T) {
	block := make(chan struct{})
	ck := &bottest.Checker{Label: factcheck.Contradicted, Block: block}
	st := storetest.NewMemory()
	e := start(t, setup{store: st, checker: ck, workers: 1, maxQueue: 1})
	e.fake.SetAgentView(true)
	send := func(ev map[string]any) {
		t.Helper()
		id, err := e.fake.Send("events_api", ev)
		if err != nil {
			t.Fatal(err)
		}
		waitAck(t, e.fake, id)
	}
	// Ignored: another bot's DM, an edit, a deletion.
	botDM := slacktest.DirectMessage("EvX1", dm, "U9", "1700000600.000001", "I am a bot")
	botDM["event"].(map[string]any)["bot_id"] = "B9"
	edit := slacktest.DirectMessage("EvX2", dm, "U1", "1700000600.000002", "")
	edit["event"].(map[string]any)["subtype"] = "message_changed"
	edit["event"].(map[string]any)["message"] = map[string]any{"type": "message", "user": "U1", "text": "Edited claim", "ts": "1700000600.000001"}
	gone := slacktest.DirectMessage("EvX3", dm, "U1", "1700000600.000003", "")
	gone["event"].(map[string]any)["subtype"] = "message_deleted"
	for _, ev := range []map[string]any{botDM, edit, gone} {
		send(ev)
	}
	for _, key := range []string{"EvX1", "EvX2", "EvX3"} {
		if _, err := st.Request(context.Background(), slacktest.TeamID, "slack:event:"+key); err == nil {
			t.Errorf("%s was stored as a request", key)
		}
	}
	// One check runs (blocked), one waits, the third is refused in its thread.
	e.fake.Fail("assistant.threads.setStatus", "not_allowed")
	e.fake.Fail("chat.startStream", strings.Split(strings.Repeat("not_allowed ", 12), " ")[:12]...)
	for i, ts := range []string{"1700000700.000001", "1700000700.000002", "1700000700.000003"} {
		send(slacktest.DirectMessage("EvQ"+string(rune('1'+i)), dm, "U1", ts, "Claim number "+string(rune('1'+i))))
		if i == 0 {
			<-waitStarted(t, ck)
		}
	}
	busy := waitCall(t, e.fake, func(c slacktest.Call) bool {
		return c.Method == "chat.postMessage" && c.Form.Get("thread_ts") == "1700000700.000003"
	})
	if !strings.Contains(busy.Form.Get("text"), "too many checks waiting") {
		t.Errorf("the refused DM was told %q in its thread", busy.Form.Get("text"))
	}
	close(block)
	// The first DM's status and stream were refused: its report is posted in its thread.
	first := waitCall(t, e.fake, func(c slacktest.Call) bool {
		return c.Method == "chat.postMessage" && c.Form.Get("thread_ts") == "1700000700.000001"
	})
	if !strings.Contains(first.Form.Get("blocks"), "feedback_buttons") {
		t.Errorf("the report posted after the stream was refused has no feedback buttons: %s", first.Form.Get("blocks"))
	}
	waitCall(t, e.fake, func(c slacktest.Call) bool { // the second DM's report, delivered the same way
		return c.Method == "chat.postMessage" && c.Form.Get("thread_ts") == "1700000700.000002"
	})
	// A file-only DM is a request about its pictures.
	pic := []slacktest.File{{ID: "F1", Name: "chart.png", Mimetype: "image/png", Data: pngBytes}}
	e.fake.AddMessage(slacktest.Message{Channel: dm, TS: "1700000800.000001", User: "U1", Files: pic})
	send(slacktest.DirectMessage("EvF1", dm, "U1", "1700000800.000001", "", pic...))
	stop := waitCall(t, e.fake, func(c slacktest.Call) bool {
		return c.Method == "chat.stopStream" || c.Method == "chat.postMessage" && c.Form.Get("thread_ts") == "1700000800.000001"
	})
	if r, err := st.Request(context.Background(), slacktest.TeamID, "slack:event:EvF1"); err != nil || r.Thread != "1700000800.000001" {
		t.Errorf("file-only DM: request %+v, %v (answered by %s)", r, err, stop.Method)
	}
}

// waitStarted is a channel that yields once ck has started a check.
func waitStarted(t *testing.T, ck *bottest.Checker) <-chan struct{} {
	c := make(chan struct{})
	go func() {
		defer close(c)
		waitFor(t, func() bool { return len(ck.Calls()) > 0 })
	}()
	return c
}

// In HTTP mode the agent experience's events are handled as in Socket
// Mode; an event type slack-go does not model is acknowledged (200), in
// both modes, and not delivered again.
func TestAgentHTTPModeAndUnknownEvents(t *testing.T) {
	e, srv, st := httpEnv(t, time.Now(), "secret")
	e.fake.SetAgentView(true)
	for _, ev := range []map[string]any{
		slacktest.AppHomeOpened("EvH1", dm, "U1", "messages", "C5"),
		slacktest.DirectMessage("EvH2", dm, "U1", agentTS, "Ice is cold"),
		unknownEvent("EvH3"),
	} {
		if code, err := slacktest.PostEvent(srv.URL+"/slack/events", "secret", ev); err != nil || code != 200 {
			t.Fatalf("event %v = %d, %v", ev["event_id"], code, err)
		}
	}
	// The events are handled side by side: the prompts and the stream's
	// end come in either order.
	waitFor(t, func() bool {
		return len(e.fake.Recorded("assistant.threads.setSuggestedPrompts")) == 1 && len(e.fake.Recorded("chat.stopStream")) == 1
	})
	if c := e.fake.Recorded("assistant.threads.setSuggestedPrompts")[0]; c.Form.Has("thread_ts") || c.Form.Get("channel_id") != dm {
		t.Errorf("prompts form = %v", c.Form)
	}
	feedbackValue(t, e.fake.Recorded("chat.stopStream")[0])
	if r, err := st.Request(context.Background(), slacktest.TeamID, "slack:event:EvH2"); err != nil || r.Thread != agentTS {
		t.Errorf("DM request = %+v, %v", r, err)
	}

	sock := start(t, setup{})
	id, _ := sock.fake.Send("events_api", unknownEvent("EvS9"))
	waitAck(t, sock.fake, id)
}

func unknownEvent(id string) map[string]any {
	return map[string]any{"token": "tok", "team_id": slacktest.TeamID, "api_app_id": "A1", "type": "event_callback",
		"event_id": id, "event_time": 1700000000, "event": map[string]any{"type": "factbot_future_event", "user": "U1"}}
}

// A mention, a reaction, the shortcut and /factcheck in a channel show
// Slack's loading state in the reply's thread while the check runs (set
// after the "Checking…" message, cleared after the report replaced it); a
// private /factcheck shows none; a status Slack refuses changes nothing
// else.
func TestChannelLoadingState(t *testing.T) {
	e := start(t, setup{})
	e.fake.AddMessage(slacktest.Message{Channel: "C2", TS: "1700000900.000001", User: "U2", Text: "Bananas are berries"})
	shortcut := map[string]any{"type": "message_action", "callback_id": "factcheck_message", "trigger_id": "trigSC",
		"team": map[string]any{"id": slacktest.TeamID}, "user": map[string]any{"id": "U1", "name": "ann"},
		"channel": map[string]any{"id": "C3", "name": "general"},
		"message": map[string]any{"type": "message", "user": "U2", "text": "Snow is white", "ts": "1700000950.000001"}}
	for _, tc := range []struct {
		name, typ string
		payload   map[string]any
		channel   string
		thread    string // "" for the "Checking…" message's own ts
		refuse    string
	}{
		{"mention", "events_api", slacktest.Mention("EvL1", "C1", "U1", "1700000901.000001", "<@UBOT> The moon is made of cheese"), "C1", "1700000901.000001", ""},
		{"reaction", "events_api", slacktest.Reaction("EvL2", "C2", "U1", "mag", "1700000900.000001", "U2"), "C2", "1700000900.000001", ""},
		{"shortcut", "interactive", shortcut, "C3", "1700000950.000001", ""},
		{"command", "slash_commands", slacktest.Command("trigL4", "C4", "U1", "Water boils at 90 C", ""), "C4", "", ""},
		{"refused", "events_api", slacktest.Mention("EvL5", "C5", "U1", "1700000905.000001", "<@UBOT> Ice is hot"), "C5", "1700000905.000001", "ratelimited"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.refuse != "" {
				e.fake.Fail("assistant.threads.setStatus", tc.refuse, "invalid_thread_ts")
			}
			id, err := e.fake.Send(tc.typ, tc.payload)
			if err != nil {
				t.Fatal(err)
			}
			waitAck(t, e.fake, id)
			final := waitCall(t, e.fake, func(c slacktest.Call) bool {
				return c.Method == "chat.update" && c.Form.Get("channel") == tc.channel && isFinal(c)
			})
			thread := tc.thread
			if thread == "" {
				thread = final.Form.Get("ts")
			}
			waitCall(t, e.fake, func(c slacktest.Call) bool { // the status cleared, or refused, after the report
				return strings.HasPrefix(c.Method, "assistant.threads.setStatus") && c.Form.Get("channel_id") == tc.channel &&
					(c.Form.Get("status") == "" || strings.HasSuffix(c.Method, "(failed)") && len(e.fake.Recorded("assistant.threads.setStatus (failed)")) == 2)
			})
			var got []string
			for _, c := range e.fake.Recorded() {
				if ch := firstNonEmptyStr(c.Form.Get("channel"), c.Form.Get("channel_id")); ch != tc.channel ||
					!strings.HasPrefix(c.Method, "chat.") && !strings.HasPrefix(c.Method, "assistant.") {
					continue
				}
				step := c.Method
				if c.Method == "assistant.threads.setStatus" {
					if c.Form.Get("thread_ts") != thread {
						t.Errorf("status in thread %q, want %q", c.Form.Get("thread_ts"), thread)
					}
					step += " " + map[bool]string{true: "set", false: "cleared"}[c.Form.Get("status") != ""]
				}
				if c.Method == "chat.update" {
					step += map[bool]string{true: " (report)", false: " (progress)"}[isFinal(c)]
				}
				if len(got) == 0 || got[len(got)-1] != step {
					got = append(got, step)
				}
			}
			want := []string{"chat.postMessage", "assistant.threads.setStatus set", "chat.update (report)", "assistant.threads.setStatus cleared"}
			if tc.refuse != "" {
				want = []string{"chat.postMessage", "assistant.threads.setStatus (failed)", "chat.update (report)", "assistant.threads.setStatus (failed)"}
			}
			// Progress edits, if any, come between.
			var trimmed []string
			for _, s := range got {
				if s != "chat.update (progress)" {
					trimmed = append(trimmed, s)
				}
			}
			if diff := cmp.Diff(want, trimmed); diff != "" {
				t.Errorf("calls in %s (-want +got):\n%s", tc.channel, diff)
			}
		})
	}
	// A private /factcheck: ephemeral answers, no status.
	id, _ := e.fake.Send("slash_commands", slacktest.Command("trigL6", "C6", "U1", "private Snow is black", ""))
	waitAck(t, e.fake, id)
	waitCall(t, e.fake, func(c slacktest.Call) bool {
		return c.Method == "chat.postEphemeral" && c.Form.Get("channel") == "C6" && isFinal(c)
	})
	for _, c := range e.fake.Recorded("assistant.threads.setStatus") {
		if c.Form.Get("channel_id") == "C6" {
			t.Errorf("a private check set a status others see: %v", c.Form)
		}
	}
}

// The manifest a new app is made from uses the agent messaging experience
// and subscribes to the events its flow needs (and to no event of the
// assistant experience, which such an app never gets).
func TestManifestIsTheAgentExperience(t *testing.T) {
	b, err := os.ReadFile("../../deploy/slack-manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	keys := map[string]bool{}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		trim := strings.TrimSpace(line)
		if k, _, ok := strings.Cut(trim, ":"); ok && !strings.HasPrefix(trim, "#") && !strings.HasPrefix(trim, "- ") {
			keys[k] = true
		}
		switch {
		case trim == "bot_events:":
			in = true
		case in && strings.HasPrefix(trim, "- "):
			ev, _, _ := strings.Cut(strings.TrimPrefix(trim, "- "), "#")
			events = append(events, strings.TrimSpace(ev))
		case in && trim != "" && !strings.HasPrefix(trim, "#"):
			in = false
		}
	}
	want := []string{"app_mention", "reaction_added", "app_uninstalled", "tokens_revoked", "app_home_opened", "app_context_changed", "message.im"}
	if diff := cmp.Diff(want, events); diff != "" {
		t.Errorf("bot_events (-want +got):\n%s", diff)
	}
	for k, want := range map[string]bool{"agent_view": true, "agent_description": true, "messages_tab_enabled": true, "assistant_view": false} {
		if keys[k] != want {
			t.Errorf("manifest has %s: %v, want %v", k, keys[k], want)
		}
	}
}

// A stream begun whose end Slack refuses once is ended on the next attempt
// (the request stays pending meanwhile): the report's text is appended
// once, the stream stopped, and no report is posted beside it.
func TestStreamEndedOnTheNextAttempt(t *testing.T) {
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	fake.SetAgentView(true)
	fake.Fail("chat.stopStream", "internal_error")
	e := start(t, setup{fake: fake})
	id, _ := e.fake.Send("events_api", slacktest.DirectMessage("EvSE", dm, "U1", agentTS, "Ice is cold"))
	waitAck(t, e.fake, id)
	waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.stopStream (failed)" })
	waitFor(t, func() bool {
		e.svc.Resume(context.Background()) // what the pick-up does every half lease
		return len(e.fake.Recorded("chat.stopStream")) > 0
	})
	e.stop()
	var texts int
	for _, c := range e.fake.Recorded("chat.startStream", "chat.appendStream") {
		for _, ch := range chunksOf(t, c) {
			if ch.Type == "markdown_text" {
				texts++
			}
		}
	}
	if texts != 1 {
		t.Errorf("the report's text was streamed %d times, want once", texts)
	}
	if n := len(e.fake.Recorded("chat.postMessage")); n != 0 {
		t.Errorf("%d messages posted beside the stream", n)
	}
	if stops := e.fake.Recorded("chat.stopStream"); len(stops) != 1 || !strings.Contains(stops[0].Form.Get("blocks"), "feedback_buttons") {
		t.Errorf("stopStream = %v, want the stream stopped once with the report", stops)
	}
}
