package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/internal/listen"
)

// startServe runs `factbot serve` in Slack HTTP mode against a fake Slack
// with env added, and returns the public and (when FACTBOT_METRICS_ADDR is
// set) metrics addresses. The server stops when the test ends.
func startServe(t *testing.T, env map[string]string) (pub, metrics string) {
	t.Helper()
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	restoreC, restoreL, restoreM, restoreH := serveChecker, serveListening, serveMetricsListening, httpTimeouts
	t.Cleanup(func() {
		serveChecker, serveListening, serveMetricsListening, httpTimeouts = restoreC, restoreL, restoreM, restoreH
	})
	serveChecker = func(context.Context, *config.Config, backend) (bot.Checker, error) { return &bottest.Checker{}, nil }
	addrc, maddrc := make(chan net.Addr, 1), make(chan net.Addr, 1)
	serveListening = func(a net.Addr) { addrc <- a }
	serveMetricsListening = func(a net.Addr) { maddrc <- a }
	full := map[string]string{
		"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_SIGNING_SECRET": "shh", "SLACK_API_URL": fake.URL(),
		"FACTBOT_DB": filepath.Join(t.TempDir(), "f.db"), "FACTBOT_HTTP_ADDR": "127.0.0.1:0",
	}
	for k, v := range env {
		full[k] = v
	}
	a, errb := testApp(full)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, a, []string{"serve"}) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("serve exited %d:\n%s", code, errb)
		}
	})
	select {
	case addr := <-addrc:
		pub = addr.String()
	case code := <-done:
		t.Fatalf("serve exited %d:\n%s", code, errb)
	}
	if env["FACTBOT_METRICS_ADDR"] != "" {
		metrics = (<-maddrc).String()
	}
	return pub, metrics
}

// With FACTBOT_METRICS_ADDR, /metrics is served there and no longer on the
// public listener; /healthz stays public.
func TestServeMetricsOnTheirOwnListener(t *testing.T) {
	pub, metrics := startServe(t, map[string]string{"FACTBOT_METRICS_ADDR": "127.0.0.1:0"})
	if code, _ := get(t, "http://"+pub+"/metrics"); code != http.StatusNotFound {
		t.Errorf("public GET /metrics = %d, want 404", code)
	}
	if code, body := get(t, "http://"+pub+"/healthz"); code != 200 || !strings.Contains(body, "ok") {
		t.Errorf("public GET /healthz = %d %q", code, body)
	}
	if code, body := get(t, "http://"+metrics+"/metrics"); code != 200 || !strings.Contains(body, "factbot_verdicts_total") {
		t.Errorf("GET /metrics on %s = %d, want the metrics", metrics, code)
	}
}

// A client that sends its headers, then trickles its body, is cut off by
// the read timeout: its connection is closed, no goroutine waits on it.
func TestServeCutsOffASlowBody(t *testing.T) {
	httpTimeouts = listen.Limits{Header: time.Minute, Body: 200 * time.Millisecond, Write: time.Minute, Idle: time.Minute, MaxHeaderBytes: 1 << 20}
	pub, _ := startServe(t, nil)
	conn, err := net.Dial("tcp", pub)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Signed-looking and fresh, so the handler reads the body.
	fmt.Fprintf(conn, "POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n"+
		"X-Slack-Request-Timestamp: %d\r\nX-Slack-Signature: v0=00\r\n\r\n{\"type\":", time.Now().Unix())
	conn.SetReadDeadline(time.Now().Add(30 * time.Second)) // hang guard only
	_, err = io.Copy(io.Discard, conn)                     // until the server closes the connection
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the server kept the connection of a body that never came")
	}
}

// An unsigned POST whose body never ends is refused at once, through the
// real server.
func TestServeRefusesUnsignedEndlessBody(t *testing.T) {
	pub, _ := startServe(t, nil)
	conn, err := net.Dial("tcp", pub)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /slack/commands HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\ntext=", 1<<30)
	conn.SetReadDeadline(time.Now().Add(30 * time.Second)) // hang guard only
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unsigned endless POST = %d, want 401", resp.StatusCode)
	}
}
