package slack_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

const (
	threadTS = "1700000000.000001"
	replyTS  = "1700000000.000009"
)

// pngBytes is the start of a PNG file: enough for its type to be sniffed.
var pngBytes = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0}, 64)...)

func TestBareMentionInThreadChecksFirstMessage(t *testing.T) {
	ck := &bottest.Checker{}
	e := start(t, setup{checker: ck})
	e.fake.AddMessage(slacktest.Message{Channel: "C1", TS: threadTS, User: "U2", Text: "The Eiffel Tower is 500 m tall"})
	e.fake.AddMessage(slacktest.Message{Channel: "C1", TS: "1700000000.000005", ThreadTS: threadTS, User: "U3", Text: "really?"})
	id, err := e.fake.Send("events_api", slacktest.MentionInThread("Ev1", "C1", "U1", replyTS, threadTS, "<@UBOT>"))
	if err != nil {
		t.Fatal(err)
	}
	waitAck(t, e.fake, id)
	final := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
	if !strings.Contains(final.Text(), "The Eiffel Tower is 500 m tall") {
		t.Errorf("final report lacks the thread's first message:\n%s", final.Text())
	}
	var got []string
	for _, in := range ck.Calls() {
		got = append(got, in.Text)
	}
	if diff := cmp.Diff(got, []string{"The Eiffel Tower is 500 m tall"}); diff != "" {
		t.Errorf("checked (-got +want):\n%s", diff)
	}
	posts := e.fake.Recorded("chat.postMessage")
	if len(posts) != 1 || posts[0].Form.Get("thread_ts") != threadTS {
		t.Errorf("posts %v, want one in the thread %s", posts, threadTS)
	}
	if h := e.fake.Recorded("conversations.history"); len(h) == 0 || h[0].Form.Get("latest") != threadTS {
		t.Errorf("conversations.history calls %v, want one for %s", h, threadTS)
	}
}

func TestReactionChecksMessageOnce(t *testing.T) {
	ck := &bottest.Checker{}
	e := start(t, setup{checker: ck})
	e.fake.AddMessage(slacktest.Message{Channel: "C1", TS: threadTS, User: "U2", Text: "Bananas are berries"})
	// Another reaction is no request; 🔍 is, and 🔎 by someone else on the
	// same message, or a redelivery, is the same request.
	events := []map[string]any{
		slacktest.Reaction("Ev1", "C1", "U1", "thumbsup", threadTS, "U2"),
		slacktest.Reaction("Ev2", "C1", "U1", "mag", threadTS, "U2"),
	}
	for _, ev := range events {
		id, err := e.fake.Send("events_api", ev)
		if err != nil {
			t.Fatal(err)
		}
		waitAck(t, e.fake, id)
	}
	final := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
	if !strings.Contains(final.Text(), "Bananas are berries") {
		t.Errorf("final report lacks the message:\n%s", final.Text())
	}
	for _, ev := range []map[string]any{
		slacktest.Reaction("Ev3", "C1", "U3", "mag_right", threadTS, "U2"),
		slacktest.Reaction("Ev2", "C1", "U1", "mag", threadTS, "U2"),
	} {
		id, err := e.fake.Send("events_api", ev)
		if err != nil {
			t.Fatal(err)
		}
		waitAck(t, e.fake, id)
	}
	if n := len(ck.Calls()); n != 1 {
		t.Errorf("%d checks, want 1", n)
	}
	posts := e.fake.Recorded("chat.postMessage")
	if len(posts) != 1 || posts[0].Form.Get("thread_ts") != threadTS {
		t.Errorf("posts %v, want one in the message's thread", posts)
	}
}

// elsewhere is another host: it records whatever reaches it.
type elsewhere struct {
	*httptest.Server
	mu   sync.Mutex
	auth []string
}

func newElsewhere(t *testing.T) *elsewhere {
	x := &elsewhere{}
	x.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		x.mu.Lock()
		x.auth = append(x.auth, r.Header.Get("Authorization"))
		x.mu.Unlock()
		w.Write(pngBytes)
	}))
	t.Cleanup(x.Close)
	return x
}

func (x *elsewhere) requests() []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]string(nil), x.auth...)
}

func TestPictureDownloadedWithTokenFromFileHostOnly(t *testing.T) {
	ck := &bottest.Checker{}
	e := start(t, setup{checker: ck})
	other := newElsewhere(t)
	e.fake.AddMessage(slacktest.Message{Channel: "C1", TS: threadTS, User: "U2", Text: "Look at this", Files: []slacktest.File{
		{ID: "F1", Name: "chart.png", Mimetype: "image/png", Data: pngBytes},
		{ID: "F2", Name: "moved.png", Mimetype: "image/png", Data: pngBytes, RedirectTo: other.URL + "/moved.png"},
		{ID: "F3", Name: "elsewhere.png", Mimetype: "image/png", Data: pngBytes, URL: other.URL + "/elsewhere.png"},
		{ID: "F4", Name: "notes.txt", Mimetype: "text/plain", Data: []byte("hello")},
	}})
	id, err := e.fake.Send("events_api", slacktest.Reaction("Ev1", "C1", "U1", "mag", threadTS, "U2"))
	if err != nil {
		t.Fatal(err)
	}
	waitAck(t, e.fake, id)
	final := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
	calls := ck.Calls()
	if len(calls) != 1 {
		t.Fatalf("%d checks, want 1", len(calls))
	}
	files := calls[0].Files
	if len(files) != 1 || files[0].Name != "chart.png" || files[0].MIME != "image/png" || !bytes.Equal(files[0].Data, pngBytes) {
		t.Errorf("files given to the checker = %+v, want chart.png alone", files)
	}
	if got := other.requests(); len(got) != 0 {
		t.Errorf("the other host was sent %d requests (Authorization %q), want none", len(got), got)
	}
	for _, c := range e.fake.Recorded("files") {
		if c.Token != "xoxb-test" {
			t.Errorf("file download with token %q, want the bot token", c.Token)
		}
	}
	for _, want := range []string{"moved.png could not be downloaded", "elsewhere.png could not be downloaded", "notes.txt was not read"} {
		if !strings.Contains(final.Text(), want) {
			t.Errorf("final report lacks %q:\n%s", want, final.Text())
		}
	}
}

// pictureModel is a fake Gemini that reads a claim from the picture it is
// sent as inline data (none without one) and finds it unverifiable.
func pictureModel(r *geminitest.Request) geminitest.Reply {
	names := r.ToolNames()
	switch {
	case slices.Contains(names, factcheck.ToolSubmitQuestions) && len(names) == 1:
		return geminitest.Call(factcheck.ToolSubmitQuestions, map[string]any{"questions": []string{"Is it so?"}})
	case slices.Contains(names, factcheck.ToolSubmitReview) && len(names) == 1:
		return geminitest.Call(factcheck.ToolSubmitReview, map[string]any{"ok": true, "note": "fine"})
	case slices.Contains(names, factcheck.ToolSubmitClaims):
		claims := []map[string]any{}
		for _, b := range r.InlineData() {
			if b.MIMEType == "image/png" && bytes.Equal(b.Data, pngBytes) {
				claims = append(claims, map[string]any{"claim": "Unemployment fell to 2% in 2025", "span": "Unemployment fell to 2%", "picture": 1})
			}
		}
		return geminitest.Call(factcheck.ToolSubmitClaims, map[string]any{"claims": claims, "not_checkable": []any{}})
	}
	return geminitest.Call("submit_verdict", map[string]any{"verdict": "unverifiable", "confidence": "low",
		"reasoning": "No source was found.", "evidence": []any{}})
}

func TestClaimReadFromPictureEndToEnd(t *testing.T) {
	g := geminitest.NewServer(t, pictureModel)
	model, err := gemini.New(t.Context(), gemini.Config{APIKey: "k", BaseURL: g.URL})
	if err != nil {
		t.Fatal(err)
	}
	st := storetest.NewMemory()
	ck := &factcheck.Checker{Model: model, Search: &factchecktest.Searcher{}}
	e := start(t, setup{checker: ck, store: st})
	e.fake.AddMessage(slacktest.Message{Channel: "C1", TS: threadTS, User: "U2", Text: "", Files: []slacktest.File{
		{ID: "F1", Name: "chart.png", Mimetype: "image/png", Data: pngBytes}}})
	id, err := e.fake.Send("events_api", slacktest.MentionInThread("Ev1", "C1", "U1", replyTS, threadTS, "<@UBOT>"))
	if err != nil {
		t.Fatal(err)
	}
	waitAck(t, e.fake, id)
	final := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
	for _, want := range []string{"Unemployment fell to 2% in 2025", "picture 1"} {
		if !strings.Contains(final.Text(), want) {
			t.Errorf("final report lacks %q:\n%s", want, final.Text())
		}
	}
	var saw bool
	for _, r := range g.Requests() {
		saw = saw || len(r.InlineData()) > 0
	}
	if !saw {
		t.Error("the picture never reached the model as inline data")
	}
	sum := sha256.Sum256(pngBytes)
	var c *store.Check
	waitFor(t, func() bool {
		h, _ := st.History(t.Context(), slacktest.TeamID, store.HistoryQuery{Limit: 1})
		if len(h) == 1 {
			c, _ = st.Check(t.Context(), slacktest.TeamID, h[0].ID)
		}
		return c != nil
	})
	want := []factcheck.Attachment{{Name: "chart.png", MIME: "image/png", Bytes: len(pngBytes), SHA256: hex.EncodeToString(sum[:]), Picture: 1, Read: true}}
	if diff := cmp.Diff(c.Report.Attachments, want); diff != "" {
		t.Errorf("attachments in the stored check (-got +want):\n%s", diff)
	}
	if len(c.Report.Claims) != 1 || c.Report.Claims[0].Picture != 1 || c.Message != threadTS {
		t.Errorf("stored claims %+v, message %q; want one read from picture 1 of %s", c.Report.Claims, c.Message, threadTS)
	}
}

// TestShortcutWithPictureCheckedAgain: the message shortcut on a message
// with a picture reads the picture; "Check again" reads it again.
func TestShortcutWithPictureCheckedAgain(t *testing.T) {
	ck := &bottest.Checker{}
	e := start(t, setup{checker: ck})
	e.fake.AddMessage(slacktest.Message{Channel: "C3", TS: threadTS, User: "U5", Text: "See the chart", Files: []slacktest.File{
		{ID: "F1", Name: "chart.png", Mimetype: "image/png", Data: pngBytes}}})
	sc := map[string]any{
		"type": "message_action", "callback_id": slack.CallbackShortcut, "trigger_id": "trigS",
		"team": map[string]any{"id": slacktest.TeamID}, "channel": map[string]any{"id": "C3"}, "user": map[string]any{"id": "U1"},
		"message": map[string]any{"type": "message", "user": "U5", "ts": threadTS, "text": "See the chart",
			"files": []any{map[string]any{"id": "F1", "name": "chart.png", "mimetype": "image/png"}}},
	}
	id, _ := e.fake.Send("interactive", sc)
	waitAck(t, e.fake, id)
	final := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
	var blocks []map[string]any
	json.Unmarshal([]byte(final.Form.Get("blocks")), &blocks)
	checkID := ""
	for _, b := range blocks {
		if b["type"] == "actions" {
			checkID = b["elements"].([]any)[0].(map[string]any)["value"].(string)
		}
	}
	recheck := map[string]any{
		"type": "block_actions", "trigger_id": "trigR", "team": map[string]any{"id": slacktest.TeamID},
		"user": map[string]any{"id": "U1"}, "channel": map[string]any{"id": "C3"},
		"container": map[string]any{"type": "message", "channel_id": "C3", "message_ts": final.Form.Get("ts"), "thread_ts": threadTS},
		"actions":   []any{map[string]any{"action_id": bot.ActionRecheck, "block_id": "factbot_actions", "value": checkID, "type": "button", "action_ts": "1"}},
	}
	id, _ = e.fake.Send("interactive", recheck)
	waitAck(t, e.fake, id)
	waitFor(t, func() bool { return len(ck.Calls()) == 2 })
	for i, in := range ck.Calls() {
		if in.Text != "See the chart" || len(in.Files) != 1 || !bytes.Equal(in.Files[0].Data, pngBytes) {
			t.Errorf("check %d: text %q, %d files; want the message with its picture", i, in.Text, len(in.Files))
		}
	}
	if n := len(e.fake.Recorded("files")); n != 2 {
		t.Errorf("%d downloads, want 2 (the check, then Check again)", n)
	}
}

// TestReactionToReplyAnswersInItsThread: a reaction to a reply in a thread
// checks the reply, and the report goes to the thread.
func TestReactionToReplyAnswersInItsThread(t *testing.T) {
	ck := &bottest.Checker{}
	st := storetest.NewMemory()
	e := start(t, setup{checker: ck, store: st})
	e.fake.AddMessage(slacktest.Message{Channel: "C1", TS: threadTS, User: "U2", Text: "What do you think?"})
	e.fake.AddMessage(slacktest.Message{Channel: "C1", TS: replyTS, ThreadTS: threadTS, User: "U3", Text: "Bananas are berries"})
	id, err := e.fake.Send("events_api", slacktest.Reaction("Ev1", "C1", "U1", "mag", replyTS, "U3"))
	if err != nil {
		t.Fatal(err)
	}
	waitAck(t, e.fake, id)
	waitCall(t, e.fake, func(c slacktest.Call) bool { return isFinal(c) })
	if got := ck.Calls(); len(got) != 1 || got[0].Text != "Bananas are berries" {
		t.Errorf("checked %+v, want the reply", got)
	}
	if r := e.fake.Recorded("conversations.replies"); len(r) != 1 || r[0].Form.Get("ts") != replyTS {
		t.Errorf("conversations.replies calls %v, want one for the reply", r)
	}
	h, err := st.History(t.Context(), slacktest.TeamID, store.HistoryQuery{Limit: 1})
	if err != nil || len(h) != 1 {
		t.Fatalf("history %v, %v", h, err)
	}
	c, err := st.Check(t.Context(), slacktest.TeamID, h[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Thread != threadTS || c.Message != replyTS {
		t.Errorf("check in thread %q about %q, want thread %s about the reply %s", c.Thread, c.Message, threadTS, replyTS)
	}
}
