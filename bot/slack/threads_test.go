package slack_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
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
