package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestAuditFigures measures, on loopback, what issue 43's audit measured
// of the listeners, for docs/security.md: idle connections from one
// address, a body trickling in with and without the MCP token, and 6,000
// MCP initialize calls. It asserts nothing and takes about a minute: it
// runs only with FACTBOT_AUDIT=1.
//
//	FACTBOT_AUDIT=1 go test ./cmd/factbot/ -run TestAuditFigures -v
func TestAuditFigures(t *testing.T) {
	if os.Getenv("FACTBOT_AUDIT") != "1" {
		t.Skip("figures for docs/security.md: FACTBOT_AUDIT=1 to measure them")
	}
	for _, which := range listeners {
		t.Run("idle/"+which, func(t *testing.T) {
			addr, _ := startListener(t, which, nil)
			kept0, kept3 := idleKept(t, addr, 200)
			t.Logf("%s: 200 idle connections from one address: %d kept after 0.5 s, %d after 3 s", which, kept0, kept3)
		})
	}
	for _, tt := range []struct{ which, auth string }{{"web", ""}, {"mcp", ""}, {"mcp", testMCPToken}} {
		t.Run("trickle/"+tt.which, func(t *testing.T) {
			addr, path := startListener(t, tt.which, nil)
			took, what := trickle(t, addr, path, tt.auth)
			t.Logf("%s, token %v: a body trickling 1 byte a second: %s after %.1f s", tt.which, tt.auth != "", what, took.Seconds())
		})
	}
	for _, caps := range []map[string]string{nil, {"FACTBOT_MCP_MAX_SESSIONS": "6000", "FACTBOT_MCP_MAX_SESSIONS_PER_TOKEN": "6000"}} {
		t.Run("initialize", func(t *testing.T) {
			addr, _ := startListener(t, "mcp", caps)
			before := heapInUse()
			refused := initializeMany(t, "http://"+addr+"/mcp", 6000)
			t.Logf("caps %v: 6000 initialize calls: %d refused; heap in use %+.1f MB", caps, refused, float64(int64(heapInUse())-int64(before))/(1<<20))
		})
	}
}

// idleKept opens n connections to addr that send nothing and counts those
// still open after half a second and after three (the header timeout is
// two).
func idleKept(t *testing.T, addr string, n int) (int, int) {
	var conns []net.Conn
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	open := func(wait time.Duration) int {
		time.Sleep(wait)
		kept := 0
		for _, c := range conns {
			c.SetReadDeadline(time.Now().Add(time.Millisecond))
			if _, err := c.Read(make([]byte, 1)); err != nil && strings.Contains(err.Error(), "timeout") {
				kept++
			}
		}
		return kept
	}
	return open(500 * time.Millisecond), open(2500 * time.Millisecond)
}

// trickle sends a POST to path whose 100-byte body comes a byte a second,
// and returns how long until the server answered or closed the
// connection, and which (at most 60 s).
func trickle(t *testing.T, addr, path, token string) (time.Duration, string) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n", path, addr, token)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() {
		for range 100 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
			if _, err := c.Write([]byte("x")); err != nil {
				return
			}
		}
	}()
	c.SetReadDeadline(start.Add(60 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return time.Since(start), "closed (" + err.Error() + ")"
	}
	res.Body.Close()
	return time.Since(start), res.Status
}

// initializeMany sends n initialize calls with the token and returns how
// many were refused.
func initializeMany(t *testing.T, url string, n int) int {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	refused := 0
	for range n {
		res, err := client.Do(initializeRequest(url))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			refused++
		}
	}
	client.CloseIdleConnections()
	return refused
}

// initializeRequest is an MCP initialize call to url with the token.
func initializeRequest(url string) *http.Request {
	const body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"audit","version":"1"}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+testMCPToken)
	return req
}

// heapInUse is the heap in use after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
