package slack_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

func percentile(d []time.Duration, p float64) float64 {
	slices.Sort(d)
	i := int(float64(len(d)-1) * p)
	return float64(d[i].Microseconds()) / 1000
}

func benchStore(b *testing.B, kind string) bot.Store {
	if kind == "mem" {
		return bottest.NewStore()
	}
	db, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return bot.FromDB(db)
}

// BenchmarkAckBurst sends bursts of 1,000 mentions over Socket Mode and
// measures each envelope's time from send to ack (the request is stored
// before the ack). The checker answers at once.
func BenchmarkAckBurst(b *testing.B) {
	// "…/acks-only": the checks block, so no replies compete with the
	// acknowledgements for the two cores (the ack path alone).
	for _, kind := range []string{"bbolt", "mem", "bbolt/acks-only", "mem/acks-only"} {
		b.Run(kind, func(b *testing.B) {
			ck := &bottest.Checker{}
			if strings.HasSuffix(kind, "/acks-only") {
				ck.Block = make(chan struct{})
				b.Cleanup(func() { close(ck.Block) })
			}
			e := start(b, setup{store: benchStore(b, strings.TrimSuffix(kind, "/acks-only")), checker: ck})
			var lat []time.Duration
			n := 0
			for b.Loop() {
				sent := map[string]time.Time{}
				for i := range 1000 {
					n++
					id := fmt.Sprintf("burst-%d", n)
					sent[id] = time.Now()
					ev := slacktest.Mention(fmt.Sprintf("EvB%d", n), fmt.Sprintf("C%d", i%50), fmt.Sprintf("U%d", i), "1700000000.000100", "<@UBOT> Claim")
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
			}
			b.ReportMetric(percentile(lat, 0.5), "p50-ms")
			b.ReportMetric(percentile(lat, 0.99), "p99-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkCachedMentionToReply measures a mention answered from the
// verdict cache: from sending the event to the final report posted.
func BenchmarkCachedMentionToReply(b *testing.B) {
	cached := &bottest.Checker{Func: func(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
		rep := bottest.Report(in, factcheck.Supported)
		for _, v := range rep.Claims {
			v.Cached = true
		}
		return rep, nil
	}}
	e := start(b, setup{store: benchStore(b, "bbolt"), checker: cached})
	var lat []time.Duration
	n := 0
	for b.Loop() {
		n++
		t0 := time.Now()
		ev := slacktest.Mention(fmt.Sprintf("EvC%d", n), fmt.Sprintf("C%d", n), "U1", "1700000000.000100", "<@UBOT> Water is wet")
		if _, err := e.fake.Send("events_api", ev); err != nil {
			b.Fatal(err)
		}
		for {
			c := <-e.fake.Calls
			if c.Method == "chat.update" && c.Form.Get("channel") == fmt.Sprintf("C%d", n) && strings.Contains(c.Form.Get("blocks"), "factbot_recheck") {
				lat = append(lat, c.At.Sub(t0))
				break
			}
		}
	}
	b.ReportMetric(percentile(lat, 0.5), "p50-ms")
	b.ReportMetric(percentile(lat, 0.99), "p99-ms")
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
			r := &bot.Request{Key: fmt.Sprintf("mem-%d", i), Tenant: "T1", Platform: "slack", Kind: bot.KindMention,
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
