package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/internal/pgtest"
)

// /healthz (liveness) and /readyz (readiness) answer on the public
// listener and on FACTBOT_METRICS_ADDR.
func TestServeHealthAndReadiness(t *testing.T) {
	pub, metrics := startServe(t, map[string]string{"FACTBOT_METRICS_ADDR": "127.0.0.1:0"})
	for _, addr := range []string{pub, metrics} {
		if code, body := get(t, "http://"+addr+"/healthz"); code != http.StatusOK || body != "ok\n" {
			t.Errorf("GET %s/healthz = %d %q, want 200 ok", addr, code, body)
		}
		// Ready once the Slack adapter has started (auth.test answered).
		var code int
		var body string
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if code, body = get(t, "http://"+addr+"/readyz"); code == http.StatusOK {
				break
			}
		}
		if code != http.StatusOK || body != "ready\n" {
			t.Errorf("GET %s/readyz = %d %q, want 200 ready", addr, code, body)
		}
	}
}

// pollReady asks addr's /readyz until ok accepts the answer.
func pollReady(t *testing.T, addr string, ok func(code int, body string) bool) (int, string) {
	t.Helper()
	var code int
	var body string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if code, body = get(t, "http://"+addr+"/readyz"); ok(code, body) {
			break
		}
	}
	return code, body
}

// With PostgreSQL cut off under a running serve, /readyz fails naming the
// database while /healthz stays up; when it is back, /readyz is ready.
func TestServeReadinessFollowsPostgres(t *testing.T) {
	dsn, proxy := pgtest.CutDSN(t)
	pub, _ := startServe(t, map[string]string{"FACTBOT_DB": dsn})
	ready := func(code int, _ string) bool { return code == http.StatusOK }
	if code, body := pollReady(t, pub, ready); code != http.StatusOK {
		t.Fatalf("/readyz with PostgreSQL up = %d %q", code, body)
	}
	proxy.Cut()
	code, body := pollReady(t, pub, func(code int, _ string) bool { return code != http.StatusOK })
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "database") {
		t.Errorf("/readyz with PostgreSQL cut = %d %q, want 503 naming the database", code, body)
	}
	if code, _ := get(t, "http://"+pub+"/healthz"); code != http.StatusOK {
		t.Errorf("/healthz with PostgreSQL cut = %d, want 200 (the process is alive)", code)
	}
	proxy.Restore()
	if code, body := pollReady(t, pub, ready); code != http.StatusOK {
		t.Errorf("/readyz with PostgreSQL back = %d %q", code, body)
	}
}

type fakePlatform struct{ err atomic.Pointer[error] }

func (p *fakePlatform) Ready() error {
	if e := p.err.Load(); e != nil {
		return *e
	}
	return nil
}

// readiness fails, naming what is wrong, while the database does not
// answer or a platform is disconnected; a burst of probes asks the
// database once.
func TestReadiness(t *testing.T) {
	var pings atomic.Int32
	var dbErr atomic.Pointer[error]
	now := time.Unix(0, 0)
	p := &fakePlatform{}
	r := &readiness{ping: func(context.Context) error {
		pings.Add(1)
		if e := dbErr.Load(); e != nil {
			return *e
		}
		return nil
	}, platforms: []interface{ Ready() error }{p}, now: func() time.Time { return now }}
	ctx := context.Background()
	for range 10 {
		if err := r.check(ctx); err != nil {
			t.Fatalf("ready: %v", err)
		}
	}
	if n := pings.Load(); n != 1 {
		t.Errorf("10 probes within %v pinged the database %d times, want 1", readyTTL, n)
	}
	down := errors.New("connection refused")
	dbErr.Store(&down)
	now = now.Add(readyTTL)
	if err := r.check(ctx); !errors.Is(err, down) || !strings.Contains(err.Error(), "database") {
		t.Errorf("database down: %v, want an error naming the database", err)
	}
	dbErr.Store(nil)
	gone := errors.New("slack: socket mode: connecting")
	p.err.Store(&gone)
	now = now.Add(readyTTL)
	if err := r.check(ctx); !errors.Is(err, gone) {
		t.Errorf("platform down: %v", err)
	}
	p.err.Store(nil)
	now = now.Add(readyTTL)
	if err := r.check(ctx); err != nil {
		t.Errorf("all back: %v", err)
	}
}

// TestServeHealthUnderSlowClients: one client (from 127.0.0.2) opens slow
// connections at a high rate, dripping its headers and never finishing
// them, while a prober (from 127.0.0.1) asks /healthz every 50 ms. The
// per-address bound and the short header deadline keep every probe
// answered. Bounded: at most 800 connections (about 600 on the project's
// machine), in 3 s.
func TestServeHealthUnderSlowClients(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	attacker := loopbackDialer(t, 2)
	pub, _ := startServe(t, map[string]string{"FACTBOT_MAX_CONNS": "64", "FACTBOT_MAX_CONNS_PER_IP": "16"})

	ctx, stop := context.WithTimeout(context.Background(), 3*time.Second)
	defer stop()
	var wg sync.WaitGroup
	var opened atomic.Int32
	wg.Add(1)
	go func() { // up to 800 slow connections, one every 4 ms at most
		defer wg.Done()
		tick := time.NewTicker(4 * time.Millisecond)
		defer tick.Stop()
		for range 800 {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				drip(ctx, attacker, pub)
			}()
			opened.Add(1)
		}
	}()

	probe := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	var probes, failed int
	var fails []string
	tick := time.NewTicker(50 * time.Millisecond)
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
			continue
		case <-tick.C:
		}
		probes++
		resp, err := probe.Get("http://" + pub + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("status %d", resp.StatusCode)
			}
		}
		if err != nil {
			failed++
			fails = append(fails, err.Error())
		}
	}
	tick.Stop()
	wg.Wait()
	t.Logf("%d slow connections opened; %d of %d probes failed", opened.Load(), failed, probes)
	if opened.Load() < 300 {
		t.Errorf("only %d slow connections opened: the test proves little", opened.Load())
	}
	if failed > 0 {
		t.Errorf("%d of %d /healthz probes failed while one client dripped slow connections: %v", failed, probes, fails)
	}
}

// drip opens a connection and sends a request's headers a byte at a time,
// never finishing them, until ctx ends or the server closes it.
func drip(ctx context.Context, d *net.Dialer, addr string) {
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return
	}
	defer c.Close()
	go func() {
		<-ctx.Done()
		c.Close()
	}()
	for _, b := range []byte("GET /healthz HTTP/1.1\r\nHost: factbot\r\nX-Slow: " + strings.Repeat("a", 64)) {
		if _, err := c.Write([]byte{b}); err != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// loopbackDialer dials from 127.0.0.host (the whole of 127/8 is loopback
// on Linux), skipping the test where the system cannot bind that address.
func loopbackDialer(t testing.TB, host byte) *net.Dialer {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, host)}, Timeout: time.Second}
	if c, err := d.Dial("tcp", "127.0.0.1:1"); err != nil && strings.Contains(err.Error(), "bind") {
		t.Skipf("cannot connect from 127.0.0.%d: %v", host, err)
	} else if c != nil {
		c.Close()
	}
	return d
}
