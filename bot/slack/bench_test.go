package slack_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

func percentile(d []time.Duration, p float64) float64 {
	slices.Sort(d)
	i := int(float64(len(d)-1) * p)
	return float64(d[i].Microseconds()) / 1000
}

func benchStore(b testing.TB, kind string) bot.Store {
	if kind == "mem" {
		return storetest.NewMemory()
	}
	db, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// ackRecorder is the adapter's core in tests and benchmarks: the service,
// plus a record of every acknowledgement latency the adapter observes.
type ackRecorder struct {
	*bot.Service
	mu  sync.Mutex
	lat []time.Duration
	// seen, if set, receives each observation (tests).
	seen chan time.Duration
}

func (r *ackRecorder) ObserveAck(platform string, d time.Duration) {
	r.Service.ObserveAck(platform, d)
	r.mu.Lock()
	r.lat = append(r.lat, d)
	r.mu.Unlock()
	if r.seen != nil {
		r.seen <- d
	}
}

// take returns the observations so far and forgets them.
func (r *ackRecorder) take() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.lat
	r.lat = nil
	return l
}

// BenchmarkAckBurst sends 1,000 mentions over Socket Mode per iteration
// and reports two latencies, both with the request stored (fsync'd, for
// bbolt) before the ack:
//
//   - e2e-p50/p99-ms: from the fake Slack starting to write an envelope to
//     it reading the ack back. The fake server, slack-go's Socket Mode
//     client (its one reader and one parser goroutine) and the bot share
//     the same cores, so an all-at-once burst is queueing behind the fake
//     and the SDK as much as the bot.
//   - bot-p50/p99-ms: the bot's own latency, as factbot_ack_seconds
//     measures it in production: from the adapter receiving the decoded
//     envelope from slack-go to the ack handed to slack-go's writer.
//
// Patterns: "burst" sends the 1,000 envelopes back to back; "spread1s"
// sends one every millisecond (1,000 over a second). The checker answers
// at once, so placeholders, replies and their store writes compete with the
// acks; "…/acks-only" blocks the checks instead, to show the ack path alone.
func BenchmarkAckBurst(b *testing.B) {
	for _, name := range []string{"bbolt/burst", "mem/burst", "bbolt/burst/acks-only", "mem/burst/acks-only",
		"bbolt/spread1s", "mem/spread1s", "bbolt/spread1s/acks-only"} {
		b.Run(name, func(b *testing.B) {
			kind, pattern, _ := strings.Cut(name, "/")
			ck := &bottest.Checker{}
			if strings.HasSuffix(pattern, "/acks-only") {
				ck.Block = make(chan struct{})
				b.Cleanup(func() { close(ck.Block) })
			}
			var rec *ackRecorder
			e := start(b, setup{store: benchStore(b, kind), checker: ck, core: func(s *bot.Service) bot.Core {
				rec = &ackRecorder{Service: s}
				return rec
			}})
			spacing := time.Duration(0)
			if strings.HasPrefix(pattern, "spread1s") {
				spacing = time.Millisecond
			}
			var lat, own []time.Duration
			n := 0
			for b.Loop() {
				sent := make(map[string]time.Time, 1000)
				t0 := time.Now()
				for i := range 1000 {
					n++
					id := "burst-" + strconv.Itoa(n)
					ev := slacktest.Mention("EvB"+strconv.Itoa(n), "C"+strconv.Itoa(i%50), "U"+strconv.Itoa(i), "1700000000.000100", "<@UBOT> Claim")
					if spacing > 0 {
						if d := time.Until(t0.Add(time.Duration(i) * spacing)); d > 0 {
							time.Sleep(d)
						}
					}
					sent[id] = time.Now()
					if err := e.fake.SendEnvelope(id, "events_api", ev, 0); err != nil {
						b.Fatal(err)
					}
				}
				for len(sent) > 0 {
					a := <-e.fake.Acks
					if t0, ok := sent[a.EnvelopeID]; ok {
						lat = append(lat, a.At.Sub(t0))
						delete(sent, a.EnvelopeID)
					}
				}
				own = append(own, rec.take()...)
			}
			b.ReportMetric(percentile(lat, 0.5), "e2e-p50-ms")
			b.ReportMetric(percentile(lat, 0.99), "e2e-p99-ms")
			b.ReportMetric(percentile(own, 0.5), "bot-p50-ms")
			b.ReportMetric(percentile(own, 0.99), "bot-p99-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkCachedMentionToReply measures a mention answered from the
// verdict cache: from sending the event to the final report posted. Every
// mention is in one workspace, so the benchmark lifts the per-workspace
// limit (100 an hour by default): past it, mentions are refused with a note
// instead of answered (TestCachedMentionToReplyPastTheLimit).
func BenchmarkCachedMentionToReply(b *testing.B) {
	e := startCachedReply(b)
	var lat []time.Duration
	n := 0
	for b.Loop() {
		n++
		d, err := mentionToReply(e, n)
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, d)
	}
	b.ReportMetric(percentile(lat, 0.5), "p50-ms")
	b.ReportMetric(percentile(lat, 0.99), "p99-ms")
}

// TestCachedMentionToReplyPastTheLimit runs BenchmarkCachedMentionToReply's
// iterations past the default per-workspace limit, where the benchmark once
// waited forever for a report that a refusal had replaced.
func TestCachedMentionToReplyPastTheLimit(t *testing.T) {
	e := startCachedReply(t)
	for n := 1; n <= bot.DefaultTenantLimit.N+20; n++ {
		if _, err := mentionToReply(e, n); err != nil {
			t.Fatalf("mention %d: %v", n, err)
		}
	}
}

// startCachedReply starts the bot of BenchmarkCachedMentionToReply: a bbolt
// store, a checker answering from its cache, no per-workspace limit.
func startCachedReply(tb testing.TB) *env {
	cached := &bottest.Checker{Func: func(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
		rep := bottest.Report(in, factcheck.Supported)
		for _, v := range rep.Claims {
			v.Cached = true
		}
		return rep, nil
	}}
	return start(tb, setup{store: benchStore(tb, "bbolt"), checker: cached, noTenantLimit: true})
}

// mentionToReply sends the nth mention (in its own channel) and waits for
// its final report, returning the time it took. Anything else posted to the
// asker there (a refusal) is an error, and so is no report within 10 s: the
// wait never outlives the answer.
func mentionToReply(e *env, n int) (time.Duration, error) {
	t0 := time.Now()
	channel := fmt.Sprintf("C%d", n)
	ev := slacktest.Mention(fmt.Sprintf("EvC%d", n), channel, "U1", "1700000000.000100", "<@UBOT> Water is wet")
	if _, err := e.fake.Send("events_api", ev); err != nil {
		return 0, err
	}
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	for {
		select {
		case c := <-e.fake.Calls:
			if c.Form.Get("channel") != channel {
				continue
			}
			switch {
			case c.Method == "chat.update" && strings.Contains(c.Form.Get("blocks"), "factbot_recheck"):
				return c.At.Sub(t0), nil
			case c.Method == "chat.postEphemeral":
				return 0, fmt.Errorf("answered with a note instead of a report: %s", c.Form.Get("text"))
			}
		case <-timeout.C:
			return 0, fmt.Errorf("mention %d: no report within 10s", n)
		}
	}
}

// BenchmarkMemory50InFlight measures the heap held with 50 checks in
// flight (each blocked in the checker after its placeholder was posted).
func BenchmarkMemory50InFlight(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		ck := &bottest.Checker{Block: make(chan struct{}), Started: make(chan factcheck.Input, 50)}
		st := benchStore(b, "bbolt")
		fake := slacktest.NewServer()
		e := start(b, setup{store: st, checker: ck, fake: fake})
		e.svc.Close() // replaced below by a service with 50 workers
		e.cancel()
		<-e.done
		svc := bot.New(st, ck, bot.Options{Workers: 50, NoUserLimit: true, Logger: quiet})
		e.svc = svc
		svc.Register(e.ad)
		svc.Start(context.Background())
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := range 50 {
			r := &store.Request{Key: fmt.Sprintf("mem-%d", i), Tenant: "T1", Platform: "slack", Kind: bot.KindMention,
				Channel: fmt.Sprintf("C%d", i), Thread: "1700000000.000100", User: fmt.Sprintf("U%d", i), Text: strings.Repeat("A claim to check. ", 40)}
			if _, err := svc.Submit(context.Background(), r); err != nil {
				b.Fatal(err)
			}
		}
		for range 50 {
			<-ck.Started
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/1024, "heap-KiB")
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/1024/50, "KiB/check")
		b.ReportMetric(float64(runtime.NumGoroutine()), "goroutines")
		close(ck.Block)
		svc.Close()
		fake.Close()
		b.StartTimer()
	}
}
