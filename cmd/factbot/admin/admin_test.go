package admin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/cmd/factbot/admin"
)

var ctx = context.Background()

func mustf(t testing.TB, err error, format string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf(format+": %v", append(args, err)...)
	}
}

// ran is what the fake runner saw of one command.
type ran struct {
	Args  []string
	Dir   string
	Stdin string
}

// serve starts the command channel of a database at path with a runner
// that records each command and answers as the commands of echo do:
// "echo WORDS" prints them, "cat" copies its input, "fail N" writes to
// standard error and exits N, "big N" prints N bytes, "wait" waits until
// it is cancelled and then says so.
func serve(t *testing.T, path string) (seen chan ran, cancelled chan struct{}) {
	t.Helper()
	seen, cancelled = make(chan ran, 10), make(chan struct{}, 10)
	run := func(ctx context.Context, args []string, dir string, stdin io.Reader, stdout, stderr io.Writer) int {
		in := ""
		switch args[0] {
		case "cat":
			b, _ := io.ReadAll(stdin)
			in = string(b)
			stdout.Write(b)
		case "echo":
			fmt.Fprintln(stdout, strings.Join(args[1:], " "))
		case "fail":
			fmt.Fprintf(stdout, "some output, ")
			fmt.Fprintf(stderr, "factbot fail: it failed\n")
			var n int
			fmt.Sscan(args[1], &n)
			seen <- ran{args, dir, in}
			return n
		case "big":
			var n int
			fmt.Sscan(args[1], &n)
			stdout.Write(bytes.Repeat([]byte("x"), n))
		case "wait":
			fmt.Fprintln(stdout, "waiting")
			<-ctx.Done()
			cancelled <- struct{}{}
		}
		seen <- ran{args, dir, in}
		return 0
	}
	stop, err := admin.Start(ctx, path, run)
	mustf(t, err, "Start")
	t.Cleanup(stop)
	return seen, cancelled
}

// Forward hands a command to the server: its arguments, working folder and
// input arrive whole, its output and exit status come back.
func TestForwardRunsTheCommandThere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	seen, _ := serve(t, path)
	for _, tc := range []struct {
		args           []string
		stdin          string
		stdout, stderr string
		code           int
	}{
		{[]string{"echo", "hello", "world"}, "", "hello world\n", "", 0},
		{[]string{"cat"}, "a claim\nfrom standard input\n", "a claim\nfrom standard input\n", "", 0},
		{[]string{"fail", "2"}, "", "some output, ", "factbot fail: it failed\n", 2},
		{[]string{"fail", "1"}, "", "some output, ", "factbot fail: it failed\n", 1},
	} {
		var stdout, stderr bytes.Buffer
		code, err := admin.Forward(ctx, path, tc.args, "/the/callers/folder", strings.NewReader(tc.stdin), &stdout, &stderr)
		mustf(t, err, "Forward %v", tc.args)
		if code != tc.code || stdout.String() != tc.stdout || stderr.String() != tc.stderr {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.stdout, tc.stderr)
		}
		got := <-seen
		if diff := cmp.Diff(ran{tc.args, "/the/callers/folder", got.Stdin}, got); diff != "" || tc.args[0] == "cat" && got.Stdin != tc.stdin {
			t.Errorf("the server ran (-want +got):\n%s (input %q)", diff, got.Stdin)
		}
	}
	// Output larger than a frame comes back whole.
	var stdout bytes.Buffer
	code, err := admin.Forward(ctx, path, []string{"big", "3000000"}, "/", nil, &stdout, io.Discard)
	if err != nil || code != 0 || stdout.Len() != 3000000 {
		t.Errorf("big output: exit %d, %d bytes, %v", code, stdout.Len(), err)
	}
}

// A command the caller gives up on (an interrupt) is cancelled where it
// runs; so is every command running when the server closes.
func TestForwardCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	_, cancelled := serve(t, path)
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	waiting := &signal{c: make(chan struct{})}
	go func() {
		_, err := admin.Forward(cctx, path, []string{"wait"}, "/", nil, waiting, io.Discard)
		done <- err
	}()
	<-waiting.c // the command runs there
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Forward after its context ended = %v, want context.Canceled", err)
	}
	<-cancelled // the server's command saw its context end (hang guard: the test's deadline)
}

// Nothing serves the socket: ErrNoServer, and the caller runs the command
// itself. The socket is its owner's only, and a second server on it is
// refused.
func TestSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	if _, err := admin.Forward(ctx, path, []string{"echo"}, "/", nil, io.Discard, io.Discard); !errors.Is(err, admin.ErrNoServer) {
		t.Errorf("Forward with no server = %v, want ErrNoServer", err)
	}
	serve(t, path)
	fi, err := os.Stat(admin.SocketPath(path))
	mustf(t, err, "stat socket")
	if fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want a socket with 0600", fi.Mode())
	}
	if _, err := admin.Start(ctx, path, nil); err == nil {
		t.Error("a second server on a socket in use: no error")
	}
}

// A request that is not one gets a message and exit status 2; the
// server goes on.
func TestBadRequest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	serve(t, path)
	for _, req := range []string{"not json\n", "{\"args\": []}\n", ""} {
		out, code := rawRequest(t, admin.SocketPath(path), req)
		if code != 2 || !strings.Contains(out, "not understood") {
			t.Errorf("request %q: exit %d, %q", req, code, out)
		}
	}
	var stdout bytes.Buffer
	if code, err := admin.Forward(ctx, path, []string{"echo", "still", "here"}, "/", nil, &stdout, io.Discard); err != nil || code != 0 || stdout.String() != "still here\n" {
		t.Errorf("after bad requests: %d, %q, %v", code, stdout.String(), err)
	}
}

// rawRequest sends req on the socket as it is, and returns what came back
// (every frame's output) and the exit status (-1 without an exit frame).
func rawRequest(t *testing.T, sock, req string) (string, int) {
	t.Helper()
	c, err := net.Dial("unix", sock)
	mustf(t, err, "dial")
	defer c.Close()
	io.WriteString(c, req)
	c.(*net.UnixConn).CloseWrite()
	var out strings.Builder
	for dec := json.NewDecoder(c); ; {
		var f struct {
			Stdout, Stderr []byte
			Exit           *int
		}
		if err := dec.Decode(&f); err != nil {
			return out.String(), -1
		}
		out.Write(f.Stdout)
		out.Write(f.Stderr)
		if f.Exit != nil {
			return out.String(), *f.Exit
		}
	}
}

// signal is a writer that closes c at its first write.
type signal struct {
	once sync.Once
	c    chan struct{}
}

func (s *signal) Write(p []byte) (int, error) {
	s.once.Do(func() { close(s.c) })
	return len(p), nil
}

// A socket that answers as an older factbot did (HTTP) is said to be one,
// not read as frames.
func TestForwardToAnOlderServer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	ln, err := net.Listen("unix", admin.SocketPath(path))
	mustf(t, err, "listen")
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
	}()
	_, err = admin.Forward(ctx, path, []string{"history"}, "/", nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "older factbot") {
		t.Errorf("Forward to an HTTP socket = %v, want it to say the server is another version", err)
	}
}
