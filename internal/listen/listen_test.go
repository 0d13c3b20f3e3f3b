package listen

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// serve serves h on a loopback Listener under l and returns its address.
func serve(t *testing.T, l Limits, h http.HandlerFunc) string {
	t.Helper()
	ln, err := Listen("127.0.0.1:0", l)
	if err != nil {
		t.Fatal(err)
	}
	srv := ln.Server(h, slog.New(slog.DiscardHandler))
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// Once a request's body has arrived, its handler runs past the body's
// deadline with its context alive (a check, an event stream): the
// deadline bounds the body's arrival only.
func TestBodyDeadlineLiftedOnceRead(t *testing.T) {
	const body = 100 * time.Millisecond
	alive := make(chan error, 1)
	addr := serve(t, Limits{MaxConns: 8, MaxConnsPerIP: 8, Header: time.Minute, Body: body, Idle: time.Minute},
		func(w http.ResponseWriter, r *http.Request) {
			io.ReadAll(r.Body)
			time.Sleep(3 * body) // past the body's deadline
			alive <- r.Context().Err()
			io.WriteString(w, "done\n")
		})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
	c.SetReadDeadline(time.Now().Add(20 * time.Second)) // hang guard only
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	res.Body.Close()
	if err := <-alive; err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("status %d, the request's context %v; want 200 and alive", res.StatusCode, err)
	}
}

// A request whose body its handler read in full keeps its connection for
// the next request; one answered before its body arrived closes it.
func TestAnswerBeforeBodyCloses(t *testing.T) {
	addr := serve(t, Limits{MaxConns: 8, MaxConnsPerIP: 8, Header: time.Minute, Body: time.Minute, Idle: time.Minute},
		func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/read" {
				io.ReadAll(r.Body)
			}
			w.WriteHeader(http.StatusAccepted)
		})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(20 * time.Second)) // hang guard only
	r := bufio.NewReader(c)
	fmt.Fprintf(c, "POST /read HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi")
	res, err := http.ReadResponse(r, nil)
	if err != nil || res.Close {
		t.Fatalf("body read: %v, close %v; want the connection kept", err, res != nil && res.Close)
	}
	fmt.Fprintf(c, "POST /skip HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
	res, err = http.ReadResponse(r, nil)
	if err != nil || !res.Close || res.StatusCode != http.StatusAccepted {
		t.Fatalf("body not read: %v; want 202 at once and the connection closed", err)
	}
}

// emfileListener fails its first Accept as a process out of file
// descriptors does, then as a closed listener.
type emfileListener struct {
	net.Listener
	accepts int
}

func (l *emfileListener) Accept() (net.Conn, error) {
	if l.accepts++; l.accepts == 1 {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Addr: l.Addr(), Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return nil, net.ErrClosed
}

// A failed Accept, which http.Server retries and tells only its error log
// (debug), is logged as a warning: a server out of file descriptors says
// so.
func TestAcceptFailureLogged(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	l := New(&emfileListener{Listener: ln}, Limits{MaxConns: 8, MaxConnsPerIP: 8})
	var log bytes.Buffer
	srv := l.Server(http.NotFoundHandler(), slog.New(slog.NewTextHandler(&log, nil)))
	if err := srv.Serve(l); !errors.Is(err, net.ErrClosed) { // after retrying the EMFILE
		t.Fatalf("Serve: %v, want the listener closed", err)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], "too many open files") {
		t.Errorf("log %q; want one warning saying the accept failed with too many open files", lines)
	}
}
