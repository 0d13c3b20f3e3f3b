package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot/slack/slacktest"
)

// The audit's run of 20,000 connections, against the built binary run as a
// process: two child processes (this test binary again, TestAuditFloodChild)
// each open 10,000 connections from 100 loopback addresses, 100 an address,
// and hold them; meanwhile another address probes the server.
const (
	floodChildren = 2
	floodAddrs    = 100 // loopback source addresses of each child
	floodPerAddr  = 100 // connections from each
	floodDialers  = 32  // dialing at once in each child
)

// floodEnv tells this test binary, run again, to be a flooding child: its
// value is "host:port first-address addresses per-address".
const floodEnv = "FACTBOT_AUDIT_FLOOD"

// TestAuditFiguresFlood measures, for docs/security.md, what the audit
// measured of 20,000 connections: how many the flood opened, how many the
// server still held 0.5 s and 3 s after, the server's peak of sockets and
// resident memory, whether it logged running out of file descriptors, and
// how many of the requests another address sent meanwhile were answered.
// It asserts nothing and runs only with FACTBOT_AUDIT=1 (about half a
// minute):
//
//	FACTBOT_AUDIT=1 go test ./cmd/factbot/ -run TestAuditFigures -v
func TestAuditFiguresFlood(t *testing.T) {
	if os.Getenv("FACTBOT_AUDIT") != "1" {
		t.Skip("figures for docs/security.md: FACTBOT_AUDIT=1 to measure them")
	}
	bin := buildFactbot(t)
	for _, which := range listeners {
		t.Run(which, func(t *testing.T) {
			srv, probe := startAuditProcess(t, bin, which)
			f := floodServer(t, srv, probe)
			t.Logf("%s: %d of %d connections opened in %.1f s (%d failed: %s); the server held %d of them after 0.5 s (%d more in its accept queue), "+
				"%d after 3 s (%d queued), none and none queued from %.1f s on; at most %d sockets in all (%d before the flood), %d flood connections at once, %d from one address; "+
				"%d of %d probes answered %v (the slowest in %.2f s), %d of them while the flood was opening; peak RSS %s; fd exhaustion logged: %v",
				which, f.opened, floodChildren*floodAddrs*floodPerAddr, f.opening.Seconds(), f.failed, f.dialErr, f.held[0], f.queued[0], f.held[1], f.queued[1],
				f.drained.Seconds(), f.peak, f.base, f.peakHeld, f.peakFromOne, f.answered, f.probes, f.statuses, f.slowest.Seconds(), f.duringOpen, f.hwm, f.emfile)
		})
	}
}

// startAuditProcess runs the listener named (serve, web or mcp --addr)
// with the default limits, and returns it and a probe: one well-formed
// request, answered or not.
func startAuditProcess(t *testing.T, bin, which string) (*replica, func(addr string) (int, error)) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	get := func(path string) func(string) (int, error) {
		return func(addr string) (int, error) {
			res, err := client.Get("http://" + addr + path)
			if err != nil {
				return 0, err
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return res.StatusCode, nil
		}
	}
	env := map[string]string{"FACTBOT_HTTP_ADDR": "127.0.0.1:0"}
	switch which {
	case "web":
		path, _ := seedWebDB(t)
		env["FACTBOT_DB"], env["FACTBOT_PUBLIC_URL"], env["FACTBOT_WEB_SECRET"] = path, "https://factbot.example/", testWebSecret
		return startProcess(t, bin, "factbot web", env, "web"), get("/")
	}
	var w *world
	w = newWorld(t, mcpModel(&w))
	for k, v := range w.env {
		env[k] = v
	}
	env["GOOGLE_GEMINI_BASE_URL"] = w.gemini.URL
	if which == "serve" {
		fake := slacktest.NewServer()
		t.Cleanup(fake.Close)
		env["SLACK_BOT_TOKEN"], env["SLACK_SIGNING_SECRET"], env["SLACK_API_URL"] = "xoxb-test", "shh", fake.URL()
		return startProcess(t, bin, "factbot serve", env, "serve"), get("/healthz")
	}
	env["FACTBOT_MCP_TOKEN"] = testMCPToken
	return startProcess(t, bin, "factbot mcp", env, "mcp", "--addr", "127.0.0.1:0"), func(addr string) (int, error) {
		return initializeAndClose(client, "http://"+addr+"/mcp")
	}
}

// initializeAndClose sends an MCP initialize call with the token, and
// closes the session it opened (DELETE), so that probes do not run into
// the session caps.
func initializeAndClose(client *http.Client, url string) (int, error) {
	res, err := client.Do(initializeRequest(url))
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if id := res.Header.Get("Mcp-Session-Id"); id != "" {
		req, _ := http.NewRequest(http.MethodDelete, url, nil)
		req.Header.Set("Authorization", "Bearer "+testMCPToken)
		req.Header.Set("Mcp-Session-Id", id)
		if del, err := client.Do(req); err == nil {
			del.Body.Close()
		}
	}
	return res.StatusCode, nil
}

// floodFigures are what one flood measured.
type floodFigures struct {
	opened, failed int
	dialErr        string
	base, peak     int           // the server's sockets before the flood, and at most during it
	peakHeld       int           // the most flood connections it held at once (sampled)
	peakFromOne    int           // the most it held from one address (sampled)
	held           [2]int        // the flood's connections it held 0.5 s and 3 s after the flood opened
	queued         [2]int        // connections in its listening socket's accept queue then
	drained        time.Duration // after the flood opened, until it held none and queued none (at most 60 s)
	slowest        time.Duration // the slowest probe answered
	opening        time.Duration // from the flood's start until it had opened all it could
	probes         int
	answered       int
	duringOpen     int // probes answered while the flood was still opening
	statuses       map[int]int
	hwm            string // the server's peak resident memory
	emfile         bool   // the server logged running out of file descriptors
}

// floodServer floods srv from the child processes, probing it meanwhile
// from 127.0.0.1 until the server holds none of it (3 s after it opened at
// least), then closes the flood.
func floodServer(t *testing.T, srv *replica, probe func(addr string) (int, error)) *floodFigures {
	pid := srv.cmd.Process.Pid
	f := &floodFigures{base: sockets(pid), statuses: map[int]int{}}
	f.peak = f.base
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var wg sync.WaitGroup
	var opening atomic.Bool
	opening.Store(true)
	wg.Go(func() { // the server's sockets
		for ctx.Err() == nil {
			f.peak = max(f.peak, sockets(pid))
			held, _, fromOne := floodHeld(t, pid, srv.addr)
			f.peakHeld, f.peakFromOne = max(f.peakHeld, held), max(f.peakFromOne, fromOne)
			time.Sleep(50 * time.Millisecond)
		}
	})
	wg.Go(func() { // the probes, one after the other
		for ctx.Err() == nil {
			f.probes++
			start := time.Now()
			if code, err := probe(srv.addr); err == nil {
				f.slowest = max(f.slowest, time.Since(start))
				f.answered++
				f.statuses[code]++
				if opening.Load() {
					f.duringOpen++
				}
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
	start := time.Now()
	children := make([]*floodChild, floodChildren)
	for i := range children {
		children[i] = startFloodChild(t, srv.addr, i*floodAddrs)
	}
	for _, c := range children {
		n, failed, why := c.opened(t)
		f.opened, f.failed = f.opened+n, f.failed+failed
		if why != "" {
			f.dialErr = why
		}
	}
	opening.Store(false)
	opened := time.Now()
	f.opening = opened.Sub(start)
	// Each measure is timed from the flood's opening when it starts.
	measure := func() (time.Duration, int, int) {
		at := time.Since(opened)
		held, queued, _ := floodHeld(t, pid, srv.addr)
		return at, held, queued
	}
	time.Sleep(500 * time.Millisecond)
	_, f.held[0], f.queued[0] = measure()
	time.Sleep(time.Until(opened.Add(3 * time.Second)))
	f.drained, f.held[1], f.queued[1] = measure()
	for held, queued := f.held[1], f.queued[1]; (held > 0 || queued > 0) && f.drained < time.Minute; {
		time.Sleep(100 * time.Millisecond)
		f.drained, held, queued = measure()
	}
	stop()
	wg.Wait()
	for _, c := range children {
		c.close(t)
	}
	f.hwm = procStatus(t, pid, "VmHWM")
	log := strings.ToLower(srv.log.String())
	f.emfile = strings.Contains(log, "too many open files") || strings.Contains(log, "emfile")
	return f
}

// sockets counts the sockets process pid holds open.
func sockets(pid int) int {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	fds, _ := os.ReadDir(dir)
	n := 0
	for _, fd := range fds {
		if l, err := os.Readlink(dir + "/" + fd.Name()); err == nil && strings.HasPrefix(l, "socket:") {
			n++
		}
	}
	return n
}

// floodHeld is how many flood connections (from 127.10.x.y) process pid
// holds open on addr (127.0.0.1:port), how many more wait in the accept
// queue of its listening socket, and the most it holds from one address:
// the sockets among its open files that /proc/net/tcp says are the flood's
// (one it accepted or closed while the table was read may be missed).
func floodHeld(t *testing.T, pid int, addr string) (held, queued, fromOne int) {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	fds, _ := os.ReadDir(dir)
	inodes := map[string]bool{}
	for _, fd := range fds {
		if l, err := os.Readlink(dir + "/" + fd.Name()); err == nil {
			if n, ok := strings.CutPrefix(l, "socket:["); ok {
				inodes[strings.TrimSuffix(n, "]")] = true
			}
		}
	}
	_, port, _ := net.SplitHostPort(addr)
	var p int
	fmt.Sscan(port, &p)
	listener := fmt.Sprintf("0100007F:%04X", p)
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Error(err)
	}
	from := map[string]int{}
	for line := range strings.Lines(string(b)) {
		// sl local_address rem_address st tx_queue:rx_queue tr:when
		// retrnsmt uid timeout inode …; addresses are little-endian hex
		// (127.10.x.y is yyxx0A7F); a listening socket's (st 0A)
		// rx_queue is its accept queue.
		f := strings.Fields(line)
		switch {
		case len(f) < 10 || f[1] != listener || !inodes[f[9]]:
		case f[3] == "0A":
			var tx int
			fmt.Sscanf(f[4], "%x:%x", &tx, &queued)
		case strings.HasPrefix(f[2][4:], "0A7F:"):
			delete(inodes, f[9]) // the table, read in pieces, may show a line twice
			held++
			from[f[2][:8]]++
			fromOne = max(fromOne, from[f[2][:8]])
		}
	}
	return held, queued, fromOne
}

// procStatus is the value of the field named in /proc/PID/status.
func procStatus(t *testing.T, pid int, field string) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return "?"
}

// floodChild is a child process holding its part of the flood.
type floodChild struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
}

// startFloodChild runs this test binary again as TestAuditFloodChild,
// flooding addr from floodAddrs addresses from the first one.
func startFloodChild(t *testing.T, addr string, first int) *floodChild {
	c := &floodChild{lines: make(chan string, 16)}
	c.cmd = exec.Command(os.Args[0], "-test.run=^TestAuditFloodChild$")
	c.cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d %d", floodEnv, addr, first, floodAddrs, floodPerAddr))
	c.cmd.Stderr = os.Stderr
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.cmd.Process.Kill(); c.cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	return c
}

// opened waits for the child to say how many connections it opened, how
// many failed, and the first failure.
func (c *floodChild) opened(t *testing.T) (n, failed int, why string) {
	timeout := time.After(3 * time.Minute) // hang guard
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				t.Fatal("the flooding child ended before it said what it opened")
			}
			if rest, found := strings.CutPrefix(line, "flood: "); found {
				fmt.Sscanf(rest, "opened %d failed %d", &n, &failed)
				_, why, _ = strings.Cut(rest, "first error: ")
				return n, failed, why
			}
		case <-timeout:
			t.Fatal("the flooding child did not say what it opened")
		}
	}
}

// close ends the child, which closes its connections.
func (c *floodChild) close(t *testing.T) {
	c.stdin.Close()
	for range c.lines {
	}
	if err := c.cmd.Wait(); err != nil {
		t.Errorf("flooding child: %v", err)
	}
}

// TestAuditFloodChild is a flooding child of TestAuditFiguresFlood (it is
// skipped otherwise): it opens its connections, says how many, holds them
// until its standard input ends, and closes them.
func TestAuditFloodChild(t *testing.T) {
	spec := os.Getenv(floodEnv)
	if spec == "" {
		t.Skip("a child process of TestAuditFiguresFlood")
	}
	var addr string
	var first, addrs, per int
	if _, err := fmt.Sscanf(spec, "%s %d %d %d", &addr, &first, &addrs, &per); err != nil {
		t.Fatalf("%s=%q: %v", floodEnv, spec, err)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < lim.Max {
		lim.Cur = lim.Max
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	conns, failed, why := flood(addr, first, addrs, per)
	fmt.Printf("flood: opened %d failed %d first error: %s\n", len(conns), failed, why)
	io.Copy(io.Discard, os.Stdin)
	for _, c := range conns {
		c.Close()
	}
}

// flood opens per connections to addr from each of addrs loopback
// addresses (127.10.x.y from the first), one address after the other, so
// that several connections from one address arrive at once;
// every other connection sends the start of a request's headers, the
// others nothing. It returns the connections opened, how many failed, and
// the first failure.
func flood(addr string, first, addrs, per int) ([]net.Conn, int, string) {
	var mu sync.Mutex
	var conns []net.Conn
	var failed int
	var why string
	var next atomic.Int64
	var wg sync.WaitGroup
	for range floodDialers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < addrs*per; i = int(next.Add(1) - 1) {
				a := first + i/per
				d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 10, byte(a/200), byte(1+a%200))}, Timeout: 5 * time.Second}
				c, err := d.Dial("tcp", addr)
				if err == nil && i%2 == 1 {
					io.WriteString(c, "GET / HTTP/1.1\r\nHost: flood\r\n") // it may be closed already
				}
				mu.Lock()
				if err != nil {
					failed++
					if why == "" {
						why = err.Error()
					}
				}
				if c != nil {
					conns = append(conns, c)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return conns, failed, why
}
