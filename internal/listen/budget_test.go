package listen

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// With every slot of the budget taken by slow clients that sent part of a
// request, a new connection closes the one that has waited longest, and
// a probe sent at once is answered; a connection whose headers have
// arrived is never the one closed.
func TestBudgetSheds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := New(ln, Limits{MaxConns: 3, MaxConnsPerIP: 10, Header: time.Minute, Body: time.Minute, Write: time.Minute, Idle: time.Minute, MaxHeaderBytes: 1 << 10})
	l.maxWaiting = 3
	b := l.budgetListener
	srv := l.Server(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok\n") }), slog.New(slog.DiscardHandler))
	go srv.Serve(l)
	defer srv.Close()

	dial := func(part string) net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := io.WriteString(c, part); err != nil {
			t.Fatal(err)
		}
		return c
	}
	// waitHeard waits until the listener has read from n waiting
	// connections (generous deadline).
	waitHeard := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			b.mu.Lock()
			heard := 0
			for e := b.waiting.Front(); e != nil; e = e.Next() {
				if e.Value.(*budgetConn).heard.Load() {
					heard++
				}
			}
			b.mu.Unlock()
			if heard >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("only %d of %d connections read", heard, n)
			}
		}
	}
	slow := []net.Conn{dial("GET /healthz HTTP/1.1\r\nHost: a\r\n")}
	waitHeard(1)
	slow = append(slow, dial("GET /healthz HTTP/1.1\r\nHost: b\r\n"), dial("GET /healthz HTTP/1.1\r\nHost: c\r\n"))
	waitHeard(3)

	probe := dial("GET /healthz HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n")
	probe.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(probe), nil)
	if err != nil {
		t.Fatalf("the probe was not answered: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || string(body) != "ok\n" {
		t.Errorf("probe: %d %q", resp.StatusCode, body)
	}
	// The first slow client, the longest waiting, was closed.
	slow[0].SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := slow[0].Read(make([]byte, 1)); err == nil {
		t.Error("the longest-waiting slow client was not closed")
	}
	for _, c := range slow[1:] {
		c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err == nil || !strings.Contains(err.Error(), "timeout") {
			t.Errorf("a newer slow client was closed: %v", err)
		}
	}
}
