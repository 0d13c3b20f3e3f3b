package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	tokenA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	tokenB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

// headers adds its headers to every request.
type headers map[string]string

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// serveHTTP serves a server of fakeChecks over Streamable HTTP with o on a
// loopback httptest server, and returns its URL.
func serveHTTP(t *testing.T, o HTTPOptions) string {
	t.Helper()
	ts := httptest.NewServer(HTTPHandler(NewServer(Options{Checks: &fakeChecks{}}), o))
	t.Cleanup(ts.Close)
	return ts.URL + Path
}

// dial connects the SDK's client to url with h's headers.
func dial(url string, h headers) (*sdk.ClientSession, error) {
	return sdk.NewClient(&sdk.Implementation{Name: "unit", Version: "1"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: h}, MaxRetries: -1}, nil)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// send sends a raw request and returns its status and its JSON-RPC
// error's message, if its body is one.
func send(t *testing.T, method, url, body string, h headers) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // an event stream that opened ends here
	res, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode < 300 {
		return res.StatusCode, ""
	}
	var rpc struct {
		ID    any `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &rpc); err != nil || rpc.Error.Code != -32000 || rpc.ID != nil {
		return res.StatusCode, "not a JSON-RPC error: " + string(b)
	}
	return res.StatusCode, rpc.Error.Message
}

// Every request from a page of another origin is refused, the event
// stream's GET included; the server's own origin and clients that send no
// Origin are served.
func TestHTTPRefusesForeignOrigin(t *testing.T) {
	url := serveHTTP(t, HTTPOptions{Tokens: []string{tokenA}})
	auth := headers{"Authorization": "Bearer " + tokenA}
	cs, err := dial(url, auth)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	own := "http://" + strings.TrimPrefix(strings.TrimSuffix(url, Path), "http://")
	session := cs.ID()
	for _, tt := range []struct {
		name, method, origin, site string
		want                       int
	}{
		{"POST, foreign Origin", http.MethodPost, "https://evil.example", "", http.StatusForbidden},
		{"GET, foreign Origin", http.MethodGet, "https://evil.example", "", http.StatusForbidden},
		{"GET, Origin null", http.MethodGet, "null", "", http.StatusForbidden},
		{"GET, cross-site without Origin", http.MethodGet, "", "cross-site", http.StatusForbidden},
		{"DELETE, foreign Origin", http.MethodDelete, "http://127.0.0.1:1", "", http.StatusForbidden},
		// Served: the SDK answers that the session's stream is open
		// already (its client's GET).
		{"GET, own origin", http.MethodGet, own, "same-origin", http.StatusConflict},
		{"GET, no Origin", http.MethodGet, "", "", http.StatusConflict},
		{"POST, own origin", http.MethodPost, own, "same-origin", http.StatusOK},
	} {
		h := headers{"Authorization": "Bearer " + tokenA, "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"}
		if tt.origin != "" {
			h["Origin"] = tt.origin
		}
		if tt.site != "" {
			h["Sec-Fetch-Site"] = tt.site
		}
		body := ""
		if tt.method == http.MethodPost {
			body = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
		}
		code, msg := send(t, tt.method, url, body, h)
		if code != tt.want || (tt.want == http.StatusForbidden && !strings.Contains(msg, "forbidden")) {
			t.Errorf("%s: %d %q, want %d", tt.name, code, msg, tt.want)
		}
	}
	// The session the refused requests named goes on.
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Errorf("the session after the refusals: %v", err)
	}
}

// With several tokens, each opens sessions; any other Authorization is
// answered 401 with a JSON-RPC error.
func TestHTTPTokens(t *testing.T) {
	url := serveHTTP(t, HTTPOptions{Tokens: []string{tokenA, tokenB}})
	for _, tok := range []string{tokenA, tokenB} {
		cs, err := dial(url, headers{"Authorization": "Bearer " + tok})
		if err != nil {
			t.Fatalf("token %.4s…: %v", tok, err)
		}
		cs.Close()
	}
	for _, auth := range []string{"", "Bearer " + tokenA + tokenB, "Bearer " + tokenA[1:], "Basic " + tokenA} {
		if code, msg := send(t, http.MethodPost, url, initialize, headers{"Authorization": auth}); code != http.StatusUnauthorized || !strings.Contains(msg, "Bearer") {
			t.Errorf("Authorization %q: %d %q, want 401", auth, code, msg)
		}
	}
}

// A request without the token is answered 401 before its body has
// arrived, and its connection closed: the server does not wait for a body
// trickling in.
func TestHTTPUnauthorizedBodyNotAwaited(t *testing.T) {
	url := serveHTTP(t, HTTPOptions{Tokens: []string{tokenA}})
	host := strings.TrimPrefix(strings.TrimSuffix(url, Path), "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":", Path, host)
	c.SetReadDeadline(time.Now().Add(30 * time.Second)) // hang guard only: 990 bytes of the body never come
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer while the body was incomplete: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || !res.Close {
		t.Errorf("status %d, close %v; want 401 and the connection closed", res.StatusCode, res.Close)
	}
}

// Sessions are capped, every client's together and per token; a refused
// one gets an HTTP error with a JSON-RPC error saying which cap, and a
// session closed gives its slot back.
func TestHTTPSessionCaps(t *testing.T) {
	url := serveHTTP(t, HTTPOptions{Tokens: []string{tokenA, tokenB}, MaxSessions: 3, MaxSessionsPerToken: 2})
	a, b := headers{"Authorization": "Bearer " + tokenA}, headers{"Authorization": "Bearer " + tokenB}
	var open []*sdk.ClientSession
	t.Cleanup(func() {
		for _, cs := range open {
			cs.Close()
		}
	})
	connect := func(h headers) error {
		cs, err := dial(url, h)
		if err == nil {
			open = append(open, cs)
		}
		return err
	}
	for i, h := range []headers{a, a, b} {
		if err := connect(h); err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
	}
	// Token A's third: its cap; token B's second: every client's.
	if err := connect(a); err == nil || !strings.Contains(err.Error(), "Too Many Requests") {
		t.Errorf("token A's third session: %v, want Too Many Requests", err)
	}
	if err := connect(b); err == nil || !strings.Contains(err.Error(), "Service Unavailable") {
		t.Errorf("a fourth session: %v, want Service Unavailable", err)
	}
	type refusal struct {
		Code    int
		Message string
	}
	var got []refusal
	for _, h := range []headers{a, b} {
		code, msg := send(t, http.MethodPost, url, initialize, h)
		got = append(got, refusal{code, msg})
	}
	want := []refusal{
		{http.StatusTooManyRequests, "too many sessions: this token holds at most 2 open MCP sessions (FACTBOT_MCP_MAX_SESSIONS_PER_TOKEN); close one (DELETE /mcp) or reuse it"},
		{http.StatusServiceUnavailable, "too many sessions: this server holds at most 3 open MCP sessions (FACTBOT_MCP_MAX_SESSIONS); close one (DELETE /mcp) or try again when an idle one has expired"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("refusals (-want +got):\n%s", diff)
	}
	// The sessions still open work; one closed (DELETE) makes room.
	if _, err := open[0].ListTools(context.Background(), nil); err != nil {
		t.Errorf("an open session: %v", err)
	}
	open[0].Close()
	open = open[1:]
	eventually(t, "a session after one closed", func() error { return connect(a) })
}

// An idle session expires and gives its slot back.
func TestHTTPSessionIdle(t *testing.T) {
	url := serveHTTP(t, HTTPOptions{MaxSessions: 1, SessionIdle: 50 * time.Millisecond})
	cs, err := dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	eventually(t, "a session after the idle one expired", func() error {
		cs2, err := dial(url, nil)
		if err == nil {
			cs2.Close()
		}
		return err
	})
}

// eventually calls f until it succeeds (hang guard only): a closed
// session's slot is given back once the SDK has closed it, just after.
func eventually(t *testing.T, what string, f func() error) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
	}
}
