package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck"
)

// syncBuffer is a goroutine-safe stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func testApp(env map[string]string) (*app, *syncBuffer) {
	errb := &syncBuffer{}
	return &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: errb,
		getenv: func(k string) string { return env[k] }}, errb
}

func TestServeConfigErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "f.db")
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"nothing configured", map[string]string{}, []string{"no chat platform configured", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "DISCORD_BOT_TOKEN"}},
		{"bot token only", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1"}, []string{"SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"}},
		{"app token only", map[string]string{"SLACK_APP_TOKEN": "xapp-1"}, []string{"SLACK_BOT_TOKEN", "xoxb-"}},
		{"bot token as app token", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xoxb-1"}, []string{"SLACK_APP_TOKEN", "xapp-"}},
		{"bad user limit", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1", "FACTBOT_USER_LIMIT": "lots"}, []string{"FACTBOT_USER_LIMIT"}},
	}
	restore := serveChecker
	defer func() { serveChecker = restore }()
	serveChecker = func(context.Context, *config.Config, backend) (bot.Checker, error) { return &bottest.Checker{}, nil }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.env["FACTBOT_DB"] = db
			a, errb := testApp(tt.env)
			if code := run(context.Background(), a, []string{"serve"}); code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, errb)
			}
			for _, w := range tt.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errb)
				}
			}
		})
	}
}

// TestServeSlackEndToEnd runs `factbot serve` against the fake Slack in
// Socket Mode and HTTP mode at once, with a fake engine.
func TestServeSlackEndToEnd(t *testing.T) {
	fake := slacktest.NewServer()
	defer fake.Close()
	restoreC, restoreL := serveChecker, serveListening
	defer func() { serveChecker, serveListening = restoreC, restoreL }()
	serveChecker = func(context.Context, *config.Config, backend) (bot.Checker, error) {
		return &bottest.Checker{Label: factcheck.Supported}, nil
	}
	addrc := make(chan net.Addr, 1)
	serveListening = func(a net.Addr) { addrc <- a }

	a, errb := testApp(map[string]string{
		"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_APP_TOKEN": "xapp-test", "SLACK_SIGNING_SECRET": "shh",
		"SLACK_API_URL": fake.URL(), "FACTBOT_DB": filepath.Join(t.TempDir(), "f.db"), "FACTBOT_HTTP_ADDR": "127.0.0.1:0",
		"FACTBOT_PUBLIC_URL": "https://factbot.example", "FACTBOT_WEB_SECRET": testWebSecret, "FACTBOT_WEB_ADMIN_TOKEN": testWebAdmin,
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, a, []string{"serve"}) }()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case code := <-done:
		t.Fatalf("serve exited %d:\n%s", code, errb)
	}
	<-fake.Connected
	base := "http://" + addr.String()
	for path, want := range map[string]string{"/healthz": "ok", "/metrics": "factbot_verdicts_total"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("GET %s = %d, want %q in:\n%.300s", path, resp.StatusCode, want, b)
		}
	}
	// The web view is mounted: operators open it, nobody else.
	if code, _ := get(t, base+"/web/"); code != http.StatusForbidden {
		t.Errorf("GET /web/ without credentials = %d, want 403", code)
	}
	if code, _ := get(t, base+"/web/", "Authorization", "Bearer "+testWebAdmin); code != http.StatusOK {
		t.Errorf("GET /web/ as operator = %d, want 200", code)
	}
	resp, err := http.Post(base+"/slack/events", "application/json", strings.NewReader(`{"type":"url_verification","challenge":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unsigned POST /slack/events = %d, want 401", resp.StatusCode)
	}

	id, err := fake.Send("events_api", slacktest.Mention("EvServe", "C1", "U1", "1700000100.000100", "<@UBOT> The Earth orbits the Sun"))
	if err != nil {
		t.Fatal(err)
	}
	timeout := time.After(30 * time.Second) // hang guard
	acked := false
	for !acked {
		select {
		case ack := <-fake.Acks:
			acked = ack.EnvelopeID == id
		case <-timeout:
			t.Fatal("no ack")
		}
	}
	var final slacktest.Call
	for done := false; !done; {
		select {
		case c := <-fake.Calls:
			done = c.Method == "chat.update" && strings.Contains(c.Text(), "factbot_recheck")
			if done && !strings.Contains(c.Text(), "Supported") {
				t.Errorf("final = %s", c.Text())
			}
			final = c
		case <-timeout:
			t.Fatalf("no final report; stderr:\n%s", errb)
		}
	}

	// The report's "Full report" button opens the check's page on this
	// server; a tampered link opens nothing.
	report := linkButton(t, []byte(final.Form.Get("blocks")), bot.ActionReport)
	local := func(u string) string {
		t.Helper()
		p, ok := strings.CutPrefix(u, "https://factbot.example/web/")
		if !ok {
			t.Fatalf("link %q is not under FACTBOT_PUBLIC_URL/web/", u)
		}
		return base + "/web/" + p
	}
	if code, body := get(t, local(report)); code != http.StatusOK || !strings.Contains(body, "The Earth orbits the Sun") {
		t.Errorf("GET the Full report link = %d, want 200 with the claim:\n%.300s", code, body)
	}
	for _, bad := range tampered(report) {
		if code, body := get(t, local(bad)); code != http.StatusForbidden || strings.Contains(body, "Earth") {
			t.Errorf("GET tampered link %s = %d, want 403 and no data", bad, code)
		}
	}
	// /factcheck history answers with an "Open history" button whose page
	// lists the check.
	id, err = fake.Send("slash_commands", slacktest.Command("trigHist", "C1", "U1", "history", fake.ResponseURL("h")))
	if err != nil {
		t.Fatal(err)
	}
	var hist slacktest.Ack
	for hist.EnvelopeID != id {
		select {
		case hist = <-fake.Acks:
		case <-timeout:
			t.Fatal("no ack for history")
		}
	}
	var p struct {
		Blocks json.RawMessage `json:"blocks"`
	}
	if err := json.Unmarshal(hist.Payload, &p); err != nil {
		t.Fatal(err)
	}
	if code, body := get(t, local(linkButton(t, p.Blocks, "factbot_history"))); code != http.StatusOK || !strings.Contains(body, "The Earth orbits the Sun") {
		t.Errorf("GET the Open history link = %d, want 200 listing the check:\n%.300s", code, body)
	}
	// The mention's thread showed Slack's loading state, cleared after the report.
	var statuses []string
	for i := 0; len(statuses) < 2 && i < 3000; i++ { // hang guard: the clearing follows the report's edit
		statuses = nil
		for _, c := range fake.Recorded("assistant.threads.setStatus") {
			if c.Form.Get("channel_id") == "C1" && c.Form.Get("thread_ts") == "1700000100.000100" {
				statuses = append(statuses, c.Form.Get("status"))
			}
		}
		time.Sleep(time.Millisecond)
	}
	if len(statuses) != 2 || statuses[0] == "" || statuses[1] != "" {
		t.Errorf("the mention's loading state = %q, want set then cleared", statuses)
	}
	// A new app (the agent messaging experience): opening the Messages tab
	// sets the DM's prompts, without thread_ts; a DM there is answered in
	// its own thread.
	fake.SetAgentView(true)
	for _, ev := range []map[string]any{
		slacktest.AppHomeOpened("EvTab", "D1", "U1", "messages", "C1"),
		slacktest.DirectMessage("EvDM", "D1", "U1", "1700000200.000001", "Water boils at 100 C at sea level"),
	} {
		if _, err := fake.Send("events_api", ev); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; ; i++ { // hang guard, not a timed assertion
		prompts, starts, stops := fake.Recorded("assistant.threads.setSuggestedPrompts"), fake.Recorded("chat.startStream"), fake.Recorded("chat.stopStream")
		if len(prompts) == 1 && len(stops) == 1 {
			if c := prompts[0]; c.Form.Get("channel_id") != "D1" || c.Form.Has("thread_ts") {
				t.Errorf("Messages tab prompts = %v, want D1's without thread_ts", c.Form)
			}
			if len(starts) != 1 || starts[0].Form.Get("thread_ts") != "1700000200.000001" || !strings.Contains(stops[0].Form.Get("blocks"), "feedback_buttons") {
				t.Errorf("DM answered by %v, stopped with %s", starts, stops[0].Form.Get("blocks"))
			}
			break
		}
		if i > 3000 {
			t.Fatalf("the agent's DM was not answered: %d prompts, %d streams stopped; stderr:\n%s", len(prompts), len(stops), errb)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("serve exited %d after cancel, want 0:\n%s", code, errb)
	}
}

// linkButton returns the url of the button actionID in Slack blocks.
func linkButton(t *testing.T, blocks []byte, actionID string) string {
	t.Helper()
	var bs slackgo.Blocks
	if err := json.Unmarshal(blocks, &bs); err != nil {
		t.Fatalf("blocks %s: %v", blocks, err)
	}
	for _, b := range bs.BlockSet {
		if ab, ok := b.(*slackgo.ActionBlock); ok {
			for _, el := range ab.Elements.ElementSet {
				if btn, ok := el.(*slackgo.ButtonBlockElement); ok && btn.ActionID == actionID && btn.URL != "" {
					return btn.URL
				}
			}
		}
	}
	t.Fatalf("no link button %s in %s", actionID, blocks)
	return ""
}

// tampered returns altered copies of a signed link: another check's path,
// a changed signature, a changed payload.
func tampered(link string) []string {
	u, _ := url.Parse(link)
	tok := u.Query().Get("t")
	with := func(path, tok string) string {
		v := *u
		v.Path = path
		v.RawQuery = url.Values{"t": {tok}}.Encode()
		return v.String()
	}
	flip := func(s string, i int) string {
		c := byte('A')
		if s[i] == 'A' {
			c = 'B'
		}
		return s[:i] + string(c) + s[i+1:]
	}
	dir, id := path.Split(u.Path)
	return []string{
		with(dir+flip(id, len(id)-1), tok),
		with(u.Path, flip(tok, len(tok)-2)),
		with(u.Path, flip(tok, len("v1.")+2)),
	}
}

// Without the web view, serve gives the core no links (a nil interface,
// not a nil *web.Links); with it, the web view's signed links.
func TestChatLinks(t *testing.T) {
	a, _ := testApp(map[string]string{"DISCORD_BOT_TOKEN": "d"})
	cfg, err := a.config()
	if err != nil {
		t.Fatal(err)
	}
	if l := chatLinks(cfg); l != nil {
		t.Errorf("chatLinks without the web view = %#v, want nil", l)
	}
	a, _ = testApp(map[string]string{"DISCORD_BOT_TOKEN": "d", "FACTBOT_PUBLIC_URL": "https://factbot.example", "FACTBOT_WEB_SECRET": testWebSecret})
	if cfg, err = a.config(); err != nil {
		t.Fatal(err)
	}
	if u := chatLinks(cfg).CheckURL("T1", "U1", "ID1"); !strings.HasPrefix(u, "https://factbot.example/web/check/T1/ID1?t=v1.") {
		t.Errorf("CheckURL = %q", u)
	}
}

// serve's -addr and -user-limit flags take precedence over
// FACTBOT_HTTP_ADDR and FACTBOT_USER_LIMIT.
func TestServeFlagsOverrideConfig(t *testing.T) {
	env := map[string]string{"DISCORD_BOT_TOKEN": "d", "FACTBOT_HTTP_ADDR": "127.0.0.1:1", "FACTBOT_USER_LIMIT": "5/1m"}
	tests := []struct {
		args      []string
		wantAddr  string
		wantLimit bot.Limit
	}{
		{nil, "127.0.0.1:1", bot.Limit{N: 5, Window: time.Minute}},
		{[]string{"-addr", ":9", "-user-limit", "off"}, ":9", bot.Limit{}},
		{[]string{"-user-limit", "3/h"}, "127.0.0.1:1", bot.Limit{N: 3, Window: time.Hour}},
	}
	for _, tt := range tests {
		a, _ := testApp(env)
		f, err := parseServeFlags(a, tt.args)
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		cfg, err := serveConfig(a, f)
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		if cfg.HTTPAddr != tt.wantAddr || cfg.UserLimit != tt.wantLimit {
			t.Errorf("%v: addr %q, limit %v; want %q, %v", tt.args, cfg.HTTPAddr, cfg.UserLimit, tt.wantAddr, tt.wantLimit)
		}
	}
	a, errb := testApp(env)
	if code := run(context.Background(), a, []string{"serve", "-user-limit", "lots"}); code != exitUsage || !strings.Contains(errb.String(), "-user-limit") {
		t.Errorf("serve -user-limit lots: exit %d, stderr:\n%s", code, errb)
	}
}
