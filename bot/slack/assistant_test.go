package slack_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/store"
)

// The assistant's DM channel and thread in these tests.
const (
	dm      = "D7"
	aThread = "1700000100.000001"
)

type prompt struct{ Title, Message string }

func prompts(t *testing.T, c slacktest.Call) []prompt {
	t.Helper()
	var ps []prompt
	if err := json.Unmarshal([]byte(c.Form.Get("prompts")), &ps); err != nil {
		t.Fatalf("prompts %q: %v", c.Form.Get("prompts"), err)
	}
	return ps
}

// assistant_thread_started gets the suggested prompts in the person's
// language, the second naming the channel they view; a context change
// names the new one.
func TestAssistantSuggestedPrompts(t *testing.T) {
	e := start(t, setup{})
	e.fake.SetUser("U1", slacktest.User{Locale: "fr-FR"})
	id, err := e.fake.Send("events_api", slacktest.AssistantThreadStarted("EvS1", dm, aThread, "U1", "C5"))
	if err != nil {
		t.Fatal(err)
	}
	waitAck(t, e.fake, id)
	c := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "assistant.threads.setSuggestedPrompts" })
	if c.Form.Get("channel_id") != dm || c.Form.Get("thread_ts") != aThread || c.Form.Get("title") != "Que dois-je vérifier ?" {
		t.Errorf("setSuggestedPrompts form = %v", c.Form)
	}
	want := []prompt{
		{"Vérifier une affirmation", "La Grande Muraille de Chine est visible depuis l'espace à l'œil nu."},
		{"Vérifier le message que je regarde", "Vérifie le dernier message de <#C5>"},
	}
	if diff := cmp.Diff(want, prompts(t, c)); diff != "" {
		t.Errorf("prompts (-want +got):\n%s", diff)
	}
	id, _ = e.fake.Send("events_api", slacktest.AssistantContextChanged("EvS2", dm, aThread, "U1", "C6"))
	waitAck(t, e.fake, id)
	c = waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "assistant.threads.setSuggestedPrompts" })
	if got := prompts(t, c); len(got) != 2 || got[1].Message != "Vérifie le dernier message de <#C6>" {
		t.Errorf("prompts after the context changed = %v", got)
	}
	// Viewing nothing (or a DM): only the example claim.
	id, _ = e.fake.Send("events_api", slacktest.AssistantThreadStarted("EvS3", dm, "1700000100.000009", "U1", ""))
	waitAck(t, e.fake, id)
	c = waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "assistant.threads.setSuggestedPrompts" })
	if got := prompts(t, c); len(got) != 1 {
		t.Errorf("prompts viewing nothing = %v, want the example claim only", got)
	}
}

// researching is a checker that searches and reads for its one claim and
// waits until the status shows the page it reads before its verdict.
func researching(t *testing.T, f *slacktest.Server) *bottest.Checker {
	return &bottest.Checker{Func: func(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
		rep := bottest.Report(factcheck.Input{Text: in.Text}, factcheck.Contradicted)
		in.Progress(factcheck.Event{Kind: factcheck.EventClaims, Claim: -1, Claims: []factcheck.ExtractedClaim{{Claim: in.Text}}})
		in.Progress(factcheck.Event{Kind: factcheck.EventSearch, Claim: 0, Text: "Eiffel Tower height"})
		in.Progress(factcheck.Event{Kind: factcheck.EventRead, Claim: 0, Text: "https://www.example.org/eiffel"})
		waitFor(t, func() bool {
			for _, c := range f.Recorded("assistant.threads.setStatus") {
				if strings.Contains(c.Form.Get("status"), "example.org") {
					return true
				}
			}
			return false
		})
		in.Progress(factcheck.Event{Kind: factcheck.EventVerdict, Claim: 0, Verdict: rep.Claims[0]})
		return rep, nil
	}}
}

type chunk struct {
	Type, ID, Title, Status, Output, Text string
	Sources                               []map[string]string
}

func chunksOf(t *testing.T, c slacktest.Call) []chunk {
	t.Helper()
	var cs []chunk
	if s := c.Form.Get("chunks"); s != "" {
		if err := json.Unmarshal([]byte(s), &cs); err != nil {
			t.Fatalf("chunks %q: %v", s, err)
		}
	}
	return cs
}

// A claim sent in the assistant thread: title, a status before the
// verdict, then the stream — a task card in progress with the page read,
// complete with its verdict and cited source, the report's text — stopped
// with the report and the feedback buttons. Nothing else is posted.
func TestAssistantStreamsTheReport(t *testing.T) {
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	e := start(t, setup{fake: fake, checker: researching(t, fake)})
	id, err := e.fake.Send("events_api", slacktest.AssistantMessage("EvM1", dm, "U1", "1700000100.000002", aThread, "The Eiffel Tower is 500 m tall"))
	if err != nil {
		t.Fatal(err)
	}
	waitAck(t, e.fake, id)
	stop := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.stopStream" })
	waitCall(t, e.fake, func(c slacktest.Call) bool {
		return c.Method == "assistant.threads.setStatus" && c.Form.Get("status") == ""
	})
	e.stop()

	calls := e.fake.Recorded("assistant.threads.setTitle", "assistant.threads.setStatus", "chat.startStream",
		"chat.appendStream", "chat.stopStream", "chat.postMessage", "chat.update", "chat.postEphemeral")
	var methods []string
	var tasks []chunk
	var text string
	for _, c := range calls {
		methods = append(methods, c.Method)
		if c.Method == "assistant.threads.setTitle" && c.Form.Get("title") != "The Eiffel Tower is 500 m tall" {
			t.Errorf("title = %q", c.Form.Get("title"))
		}
		if c.Method == "chat.startStream" && (c.Form.Get("channel") != dm || c.Form.Get("thread_ts") != aThread ||
			c.Form.Get("recipient_user_id") != "U1" || c.Form.Get("recipient_team_id") != slacktest.TeamID) {
			t.Errorf("startStream form = %v", c.Form)
		}
		for _, ch := range chunksOf(t, c) {
			switch ch.Type {
			case "task_update":
				tasks = append(tasks, ch)
			case "markdown_text":
				text += ch.Text
			default:
				t.Errorf("chunk of type %q", ch.Type)
			}
		}
	}
	// Status first, the last status cleared; one stream, started once, stopped once.
	if len(methods) < 5 || methods[0] != "assistant.threads.setTitle" || methods[1] != "assistant.threads.setStatus" ||
		methods[len(methods)-2] != "chat.stopStream" || methods[len(methods)-1] != "assistant.threads.setStatus" {
		t.Errorf("calls = %v", methods)
	}
	count := map[string]int{}
	for _, m := range methods {
		count[m]++
	}
	if count["chat.startStream"] != 1 || count["chat.stopStream"] != 1 || count["chat.postMessage"]+count["chat.update"]+count["chat.postEphemeral"] != 0 {
		t.Errorf("calls = %v", methods)
	}
	if len(tasks) < 2 {
		t.Fatalf("task updates = %+v", tasks)
	}
	first, last := tasks[0], tasks[len(tasks)-1]
	first.Sources = nil // the page read may be in it already: appends are coalesced
	if diff := cmp.Diff(chunk{Type: "task_update", ID: "claim-1", Title: "Claim 1: The Eiffel Tower is 500 m tall", Status: "in_progress"}, first); diff != "" {
		t.Errorf("first task update (-want +got):\n%s", diff)
	}
	var read bool
	for _, ch := range tasks {
		read = read || ch.Status == "in_progress" && len(ch.Sources) == 1 && ch.Sources[0]["url"] == "https://www.example.org/eiffel"
	}
	if !read {
		t.Errorf("no task update in progress with the page read: %+v", tasks)
	}
	want := chunk{Type: "task_update", ID: "claim-1", Title: "Claim 1: The Eiffel Tower is 500 m tall", Status: "complete", Output: "Contradicted",
		Sources: []map[string]string{{"type": "url", "url": "https://example.org/source", "text": "Example source"}}}
	if diff := cmp.Diff(want, last); diff != "" {
		t.Errorf("last task update (-want +got):\n%s", diff)
	}
	if !strings.Contains(text, "**Fact-check: 1 claim**") || !strings.Contains(text, "Contradicted") {
		t.Errorf("streamed text = %q", text)
	}
	blocks := stop.Form.Get("blocks")
	if !strings.Contains(blocks, `"type":"context_actions"`) || !strings.Contains(blocks, `"type":"feedback_buttons"`) ||
		strings.Contains(blocks, "factbot_wrong") || !strings.Contains(blocks, "factbot_recheck") {
		t.Errorf("stopStream blocks = %s", blocks)
	}
}

// feedbackValue is the thumbs-down's value in the stopped stream's blocks.
func feedbackValue(t *testing.T, stop slacktest.Call) string {
	t.Helper()
	var blocks []struct {
		Type     string
		Elements []struct {
			Type           string
			NegativeButton struct{ Value string } `json:"negative_button"`
		}
	}
	json.Unmarshal([]byte(stop.Form.Get("blocks")), &blocks)
	for _, b := range blocks {
		if b.Type == "context_actions" && len(b.Elements) == 1 && b.Elements[0].Type == "feedback_buttons" {
			return b.Elements[0].NegativeButton.Value
		}
	}
	t.Fatalf("no feedback buttons in %s", stop.Form.Get("blocks"))
	return ""
}

// A thumbs-down is "Wrong verdict?" feedback, recorded once however often
// it is pressed; a thumbs-up records nothing.
func TestAssistantFeedbackRecordedOnce(t *testing.T) {
	e := start(t, setup{})
	id, _ := e.fake.Send("events_api", slacktest.AssistantMessage("EvF1", dm, "U1", "1700000100.000002", aThread, "Ice is cold"))
	waitAck(t, e.fake, id)
	wrong := feedbackValue(t, waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.stopStream" }))
	checkID, ok := strings.CutPrefix(wrong, "wrong:")
	if !ok {
		t.Fatalf("thumbs-down value %q", wrong)
	}
	press := func(trigger, value string) {
		id, _ := e.fake.Send("interactive", map[string]any{
			"type": "block_actions", "trigger_id": trigger, "team": map[string]any{"id": slacktest.TeamID},
			"user": map[string]any{"id": "U1"}, "channel": map[string]any{"id": dm},
			"container": map[string]any{"type": "message", "channel_id": dm, "message_ts": "1700000000.000009", "thread_ts": aThread},
			"actions": []any{map[string]any{"action_id": "factbot_feedback", "block_id": "factbot_feedback_" + checkID,
				"type": "feedback_buttons", "value": value, "action_ts": "1"}},
		})
		waitAck(t, e.fake, id)
	}
	press("trigUp", "good:"+checkID)
	for _, trig := range []string{"trig1", "trig2", "trig3", "trig4"} {
		press(trig, wrong)
		waitCall(t, e.fake, func(c slacktest.Call) bool {
			return c.Method == "chat.postEphemeral" && strings.Contains(c.Form.Get("text"), "feedback was recorded")
		})
	}
	c, err := e.st.Check(context.Background(), slacktest.TeamID, checkID)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.Feedback{{User: "U1", Claim: -1, Note: "wrong verdict", Once: "slack_feedback_buttons"}}
	for i := range c.Feedback {
		c.Feedback[i].At = c.Feedback[i].At.UTC()
	}
	if diff := cmp.Diff(want, c.Feedback, cmpIgnoreAt); diff != "" {
		t.Errorf("feedback (-want +got):\n%s", diff)
	}
}

var cmpIgnoreAt = cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".At" }, cmp.Ignore())

// Bad input in the assistant gets the answer a mention gets: empty and
// too long text refused with the same words, a picture the model cannot
// read answered with the same report.
func TestAssistantBadInputLikeMention(t *testing.T) {
	ck := &factcheck.Checker{Model: &factchecktest.Model{}, Search: &factchecktest.Searcher{}}
	e := start(t, setup{checker: ck})
	long := strings.Repeat("The sky is green. ", 600)
	for i, text := range []string{"", long} {
		n := string(rune('a' + i))
		id, _ := e.fake.Send("events_api", slacktest.Mention("EvBm"+n, "C1", "U1", "1700000200.00000"+n, "<@UBOT> "+text))
		waitAck(t, e.fake, id)
		mention := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.postEphemeral" })
		id, _ = e.fake.Send("events_api", slacktest.AssistantMessage("EvBa"+n, dm, "U1", "1700000300.00000"+n, aThread, text))
		waitAck(t, e.fake, id)
		asst := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.postMessage" && c.Form.Get("channel") == dm })
		if asst.Form.Get("text") != mention.Form.Get("text") || asst.Form.Get("thread_ts") != aThread || !strings.Contains(asst.Form.Get("text"), "check") {
			t.Errorf("input %d: the assistant answered %q in thread %q, a mention %q", i, asst.Form.Get("text"), asst.Form.Get("thread_ts"), mention.Form.Get("text"))
		}
	}
	// Only a picture, which the model does not read.
	pic := []slacktest.File{{ID: "F1", Name: "chart.png", Mimetype: "image/png", Data: pngBytes}}
	e.fake.AddMessage(slacktest.Message{Channel: "C1", TS: "1700000400.000001", User: "U2", Files: pic})
	id, _ := e.fake.Send("events_api", slacktest.MentionInThread("EvBmp", "C1", "U1", "1700000400.000002", "1700000400.000001", "<@UBOT>"))
	waitAck(t, e.fake, id)
	mention := waitCall(t, e.fake, func(c slacktest.Call) bool {
		return c.Method == "chat.update" && strings.Contains(c.Form.Get("text"), "nothing to check")
	})
	e.fake.AddMessage(slacktest.Message{Channel: dm, TS: "1700000400.000003", ThreadTS: aThread, User: "U1", Files: pic})
	id, _ = e.fake.Send("events_api", slacktest.AssistantMessage("EvBap", dm, "U1", "1700000400.000003", aThread, "", pic...))
	waitAck(t, e.fake, id)
	stop := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.stopStream" })
	if stop.Form.Get("blocks") != mention.Form.Get("blocks") {
		t.Errorf("picture only: the assistant answered\n%s\na mention\n%s", stop.Form.Get("blocks"), mention.Form.Get("blocks"))
	}
}

// In HTTP mode the assistant's events are handled as in Socket Mode.
func TestAssistantHTTPMode(t *testing.T) {
	e, srv, _ := httpEnv(t, time.Now(), "secret")
	for _, ev := range []map[string]any{
		slacktest.AssistantThreadStarted("EvH1", dm, aThread, "U1", "C5"),
		slacktest.AssistantMessage("EvH2", dm, "U1", "1700000100.000002", aThread, "Ice is cold"),
	} {
		if code, err := slacktest.PostEvent(srv.URL+"/slack/events", "secret", ev); err != nil || code != 200 {
			t.Fatalf("event = %d, %v", code, err)
		}
	}
	// The two events are handled side by side, so the prompts may come
	// before or after the answer's stream ends.
	var stop slacktest.Call
	for prompts := false; !prompts || stop.Method == ""; {
		c := waitCall(t, e.fake, func(c slacktest.Call) bool {
			return c.Method == "assistant.threads.setSuggestedPrompts" || c.Method == "chat.stopStream"
		})
		if c.Method == "chat.stopStream" {
			stop = c
		} else {
			prompts = true
		}
	}
	feedbackValue(t, stop)
}

// The prompt "check the message I'm looking at" checks the latest message
// people posted in the channel it names, answered in the assistant's
// thread; "Check again" checks it again there.
func TestAssistantChecksTheMessageInView(t *testing.T) {
	e := start(t, setup{})
	e.fake.AddMessage(slacktest.Message{Channel: "C5", TS: "1700000040.000001", User: "U3", Text: "Older news"})
	e.fake.AddMessage(slacktest.Message{Channel: "C5", TS: "1700000050.000001", User: "U2", Text: "Bananas are berries"})
	id, _ := e.fake.Send("events_api", slacktest.AssistantMessage("EvL1", dm, "U1", "1700000100.000002", aThread,
		"Check the latest message in <#C5|general>"))
	waitAck(t, e.fake, id)
	stop := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.stopStream" })
	if !strings.Contains(stop.Form.Get("blocks"), "Bananas are berries") {
		t.Errorf("report = %s", stop.Form.Get("blocks"))
	}
	for _, c := range e.fake.Recorded("chat.startStream") {
		if c.Form.Get("channel") != dm || c.Form.Get("thread_ts") != aThread {
			t.Errorf("streamed to %s thread %s, want the assistant's thread", c.Form.Get("channel"), c.Form.Get("thread_ts"))
		}
	}
	checkID, _ := strings.CutPrefix(feedbackValue(t, stop), "wrong:")
	id, _ = e.fake.Send("interactive", map[string]any{
		"type": "block_actions", "trigger_id": "trigRe", "team": map[string]any{"id": slacktest.TeamID},
		"user": map[string]any{"id": "U1"}, "channel": map[string]any{"id": dm},
		"container": map[string]any{"type": "message", "channel_id": dm, "message_ts": "1700000000.000009", "thread_ts": aThread},
		"actions":   []any{map[string]any{"action_id": "factbot_recheck", "block_id": "factbot_actions", "type": "button", "value": checkID, "action_ts": "1"}},
	})
	waitAck(t, e.fake, id)
	again := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
	if again.Form.Get("channel") != dm || !strings.Contains(again.Text(), "Bananas are berries") {
		t.Errorf("check again = %s in %s", again.Text(), again.Form.Get("channel"))
	}
}

// The stream's calls are paced like every call in a channel: at one a
// second, each waits a second more than the one before (the fake sleep
// returns at once, so the waits asked for add up).
func TestAssistantStreamPaced(t *testing.T) {
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	e := start(t, setup{fake: fake, checker: researching(t, fake), perChannel: 1})
	id, _ := e.fake.Send("events_api", slacktest.AssistantMessage("EvP1", dm, "U1", "1700000100.000002", aThread, "The Eiffel Tower is 500 m tall"))
	waitAck(t, e.fake, id)
	waitCall(t, e.fake, func(c slacktest.Call) bool {
		return c.Method == "assistant.threads.setStatus" && c.Form.Get("status") == ""
	})
	e.stop()
	n := len(e.fake.Recorded("assistant.threads.setTitle", "assistant.threads.setStatus", "chat.startStream", "chat.appendStream", "chat.stopStream"))
	var longest time.Duration
	for _, d := range e.sleep.Slept() {
		longest = max(longest, d)
	}
	if want := time.Duration(n-1)*time.Second - 500*time.Millisecond; n < 5 || longest < want {
		t.Errorf("%d calls in the thread's channel; the longest wait asked %v, want at least %v", n, longest, want)
	}
}
