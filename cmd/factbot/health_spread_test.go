package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestServeHealthUnderSpreadSlowClients: slow clients from 100 loopback
// addresses (127.0.0.10–127.0.0.109), three connections each, drip their
// headers and reconnect whenever they are cut off, far more than
// FACTBOT_MAX_CONNS, none over FACTBOT_MAX_CONNS_PER_IP; a prober from
// 127.0.0.1 asks /healthz and /readyz every 100 ms. The total and
// header-wait budgets shed the slow connections that waited longest, so
// every probe is answered (within a generous 3 s; before, the probes
// queued behind the slow clients for far longer). Bounded: 300 clients
// for 6 s.
func TestServeHealthUnderSpreadSlowClients(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	from := func(i int) *net.Dialer { return loopbackDialer(t, byte(10+i)) }
	pub, _ := startServe(t, map[string]string{"FACTBOT_MAX_CONNS": "64", "FACTBOT_MAX_CONNS_PER_IP": "8"})

	ctx, stop := context.WithTimeout(context.Background(), 6*time.Second)
	defer stop()
	var wg sync.WaitGroup
	var opened atomic.Int32
	for i := range 100 {
		d := from(i)
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					opened.Add(1)
					drip(ctx, d, pub)
					select {
					case <-ctx.Done():
					case <-time.After(50 * time.Millisecond):
					}
				}
			}()
		}
	}

	probe := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	time.Sleep(500 * time.Millisecond) // the slow clients first
	var probes int
	var fails []string
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); {
		for _, path := range []string{"/healthz", "/readyz"} {
			probes++
			resp, err := probe.Get("http://" + pub + path)
			if err == nil {
				resp.Body.Close()
				// /readyz may say 503 (the fake Slack), but it answers.
				if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusServiceUnavailable {
					err = fmt.Errorf("status %d", resp.StatusCode)
				}
			}
			if err != nil {
				fails = append(fails, path+": "+err.Error())
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	stop()
	wg.Wait()
	t.Logf("%d slow connections opened from 100 addresses; %d of %d probes failed", opened.Load(), len(fails), probes)
	if opened.Load() < 300 {
		t.Errorf("only %d slow connections opened: the test proves little", opened.Load())
	}
	if len(fails) > 0 {
		t.Errorf("%d of %d probes failed while slow clients from 100 addresses held connections: %v", len(fails), probes, fails)
	}
}
