package factcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
)

// benchScale divides the world's latencies in BenchmarkToVerdict, to keep
// runs short; the figures it reports are scaled back up (s-to-verdict is
// the time at the real latencies: 1.5 s a model call, 0.8 s a search,
// 0.6 s a page).
const benchScale = 10

// paragraph is n claims, one sentence each.
func paragraph(n int) string {
	things := []string{"The Great Wall of China", "The Eiffel Tower", "The Golden Gate Bridge", "The Colosseum", "The Sydney Opera House"}
	var s []string
	for _, t := range things[:n] {
		s = append(s, t+" is visible from space.")
	}
	return strings.Join(s, " ")
}

// benchToVerdict checks text in the fake world at the scaled latencies,
// and reports the time to the verdicts at the real ones (s-to-verdict),
// the model calls and the request bytes of one check.
func benchToVerdict(b *testing.B, m *reacting, opts factcheck.Options, claims int) {
	w := newWorld(b, m, realLatency.scaled(benchScale), opts)
	in := factcheck.Input{Tenant: "bench", Text: paragraph(claims), Fresh: true}
	var bytes, calls int
	for b.Loop() {
		first := len(w.srv.Requests())
		rep, err := w.c.Check(context.Background(), in)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range rep.Claims {
			if v.Verdict != factcheck.Contradicted {
				b.Fatalf("claim %q: verdict %s, want contradicted: %s", v.Claim, v.Verdict, v.Reasoning)
			}
		}
		if len(rep.Claims) != claims {
			b.Fatalf("%d claims, want %d", len(rep.Claims), claims)
		}
		bytes, calls = w.requestBytes(first)
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)*benchScale, "s-to-verdict")
	b.ReportMetric(float64(calls), "calls")
	b.ReportMetric(float64(bytes), "request-bytes")
	b.ReportMetric(0, "ns/op") // the scaled time is not the figure
}

// BenchmarkToVerdict measures the time from a message to its verdicts in
// the fake world, at a real service's pace (scaled down by benchScale
// while it runs): a claim that one search and one read settle, a fixed
// run of three searches and two reads, and a paragraph of one and of five
// such claims. Goals (issue 47): ≤ 6 s, ≤ 10 s, five claims ≤ 1.2× one,
// and ≤ 20,000 request bytes on the fixed run.
func BenchmarkToVerdict(b *testing.B) {
	one := func() *reacting { return &reacting{needSearches: 1, needReads: 1} }
	fixed := func() *reacting {
		return &reacting{needSearches: 3, needReads: 2, queries: []string{"great wall visible from space", "astronauts great wall naked eye", "great wall space myth debunked"}}
	}
	for _, path := range []struct {
		name string
		opts factcheck.Options
	}{
		{"old", factcheck.Options{NoJointPlan: true, NoPrefetch: true, NoCriticDoubt: true}},
		{"new", factcheck.Options{}},
	} {
		b.Run("path="+path.name+"/one-search-one-read", func(b *testing.B) { benchToVerdict(b, one(), path.opts, 1) })
		b.Run("path="+path.name+"/fixed-3-searches-2-reads", func(b *testing.B) { benchToVerdict(b, fixed(), path.opts, 1) })
		b.Run("path="+path.name+"/paragraph-claims=5", func(b *testing.B) { benchToVerdict(b, one(), path.opts, 5) })
	}
	// Each step of the new path off on its own, on the claim one search
	// and one read settle.
	for _, off := range []struct {
		name string
		opts factcheck.Options
	}{
		{"no-joint-plan", factcheck.Options{NoJointPlan: true}},
		{"no-prefetch", factcheck.Options{NoPrefetch: true}},
		{"no-critic-doubt", factcheck.Options{NoCriticDoubt: true}},
	} {
		b.Run("path=new-"+off.name+"/one-search-one-read", func(b *testing.B) { benchToVerdict(b, one(), off.opts, 1) })
	}
}
