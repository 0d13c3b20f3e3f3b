package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/internal/listen"
	"github.com/factbot-dev/factbot/mcp"
)

// testMCPToken is the token of the listeners' tests' factbot mcp.
const testMCPToken = "listen-token-0123456789abcdef0123456789"

// startListener runs the command named (serve, web or mcp) on a loopback
// address with env added, and returns its host:port and the path of a
// handler that reads request bodies (POST) there. They stop when the test
// ends.
func startListener(t *testing.T, which string, env map[string]string) (addr, path string) {
	t.Helper()
	switch which {
	case "serve":
		addr, _ := startServe(t, env)
		return addr, "/slack/events"
	case "web":
		return startWebView(t, env), "/web/"
	case "mcp":
		var w *world
		w = newWorld(t, mcpModel(&w))
		w.env["FACTBOT_MCP_TOKEN"] = testMCPToken
		for k, v := range env {
			w.env[k] = v
		}
		return strings.TrimSuffix(strings.TrimPrefix(startMCPHTTP(t, w), "http://"), mcp.Path), mcp.Path
	}
	t.Fatalf("no listener %q", which)
	return "", ""
}

// startWebView runs factbot web on a seeded database with env added and
// returns its host:port.
func startWebView(t *testing.T, env map[string]string) string {
	t.Helper()
	path, _ := seedWebDB(t)
	full := map[string]string{"FACTBOT_DB": path, "FACTBOT_PUBLIC_URL": "https://factbot.example/", "FACTBOT_WEB_SECRET": testWebSecret}
	for k, v := range env {
		full[k] = v
	}
	return strings.TrimPrefix(startWeb(t, full), "http://")
}

var listeners = []string{"serve", "web", "mcp"}

// withTimeouts sets every listener's timeouts for the test.
func withTimeouts(t *testing.T, set func(l *listen.Limits)) {
	restore := httpTimeouts
	t.Cleanup(func() { httpTimeouts = restore })
	httpTimeouts = listen.Timeouts
	set(&httpTimeouts)
}

// closedByServer reads c until the server closes it (hang guard only).
func closedByServer(c net.Conn) error {
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, err := io.Copy(io.Discard, c)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return err
	}
	return nil
}

// Every listener bounds the connections of one address: with headers
// allowed ten minutes, the idle connections over FACTBOT_MAX_CONNS_PER_IP
// are closed at once, and the others kept (until their headers are late).
func TestListenersBoundIdleConnectionsPerAddress(t *testing.T) {
	for _, which := range listeners {
		t.Run(which, func(t *testing.T) {
			withTimeouts(t, func(l *listen.Limits) { l.Header = 10 * time.Minute })
			addr, _ := startListener(t, which, map[string]string{"FACTBOT_MAX_CONNS_PER_IP": "4"})
			var conns []net.Conn
			for range 12 {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				conns = append(conns, c)
			}
			for i, c := range conns[4:] {
				if err := closedByServer(c); err != nil {
					t.Errorf("idle connection %d of 12 from one address was kept: %v", i+5, err)
				}
			}
			for i, c := range conns[:4] {
				c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
				if _, err := c.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
					t.Errorf("connection %d of 12, within the bound, was closed: %v", i+1, err)
				}
			}
		})
	}
}

// A request answered before its body arrived is answered at once, its
// connection closed, not after the body: the web view's pages and MCP
// without a token read no body; serve's Slack events without a signature
// neither.
func TestListenersAnswerWithoutWaitingForBody(t *testing.T) {
	for _, which := range listeners {
		t.Run(which, func(t *testing.T) {
			addr, path := startListener(t, which, nil)
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
				"Content-Length: 1000\r\n\r\n{\"a\":", path, addr)
			c.SetReadDeadline(time.Now().Add(20 * time.Second)) // hang guard only: the body never ends
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("no answer while the body was incomplete: %v", err)
			}
			res.Body.Close()
			if res.StatusCode < 400 || !res.Close {
				t.Errorf("status %d, close %v; want a refusal and the connection closed", res.StatusCode, res.Close)
			}
			if which == "mcp" && res.StatusCode != http.StatusUnauthorized {
				t.Errorf("mcp without a token: %d, want 401", res.StatusCode)
			}
		})
	}
}

// A body that trickles is cut off on every listener, MCP's authenticated
// requests included.
func TestListenersCutOffSlowBody(t *testing.T) {
	for _, which := range []string{"web", "mcp"} {
		t.Run(which, func(t *testing.T) {
			withTimeouts(t, func(l *listen.Limits) { l.Body = 200 * time.Millisecond })
			addr, path := startListener(t, which, nil)
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
				"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"a\":", path, addr, testMCPToken)
			if err := closedByServer(c); err != nil {
				t.Errorf("the server kept the connection of a body that never came: %v", err)
			}
		})
	}
}

// Every listener, with its default budget (256 connections, 32 from one
// address), answers a well-formed request from another address while 600
// connections from 12 addresses, 50 each, are held, half of them sending
// nothing and half the start of a request's headers: with headers allowed
// ten minutes, only the budget's shedding makes room. A small run of
// TestAuditFiguresFlood's 20,000: each probe is allowed 10 s (a hang
// guard, not a measure).
func TestListenersAnswerUnderFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	for _, which := range listeners {
		t.Run(which, func(t *testing.T) {
			withTimeouts(t, func(l *listen.Limits) { l.Header = 10 * time.Minute })
			addr, _ := startListener(t, which, nil)
			for a := range 12 {
				d := loopbackDialer(t, byte(10+a))
				for i := range 50 {
					c, err := d.Dial("tcp", addr)
					if err != nil {
						t.Fatalf("connection %d from 127.0.0.%d: %v", i+1, 10+a, err)
					}
					defer c.Close()
					if i%2 == 1 {
						io.WriteString(c, "GET / HTTP/1.1\r\nHost: flood\r\n") // it may be closed already
					}
				}
			}
			client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
			for i := range 5 {
				var err error
				if which == "mcp" {
					_, err = initializeAndClose(client, "http://"+addr+mcp.Path)
				} else {
					var res *http.Response
					if res, err = client.Get("http://" + addr + "/healthz"); err == nil {
						res.Body.Close()
					}
				}
				if err != nil {
					t.Errorf("probe %d of 5 while 600 connections were held: %v", i+1, err)
				}
			}
		})
	}
}
