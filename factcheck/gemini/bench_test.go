package gemini_test

import (
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
)

func benchModel(b *testing.B, opts ...geminitest.Option) *gemini.Model {
	b.Helper()
	srv := geminitest.NewServer(b, geminitest.Repeat(geminitest.Call("search", map[string]any{"query": "q"})), opts...)
	m, err := gemini.New(b.Context(), gemini.Config{APIKey: testKey, BaseURL: srv.URL})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

var benchReq = &factcheck.ModelRequest{
	System:   "You check facts.",
	Messages: []factcheck.Message{{Role: factcheck.RoleUser, Text: "Claim: water boils at 100 °C at sea level."}},
	Tools:    searchTools,
}

// BenchmarkGenerate measures the provider's own cost per call (conversion,
// SDK, local HTTP round trip).
func BenchmarkGenerate(b *testing.B) {
	m := benchModel(b)
	for b.Loop() {
		if _, err := m.Generate(b.Context(), benchReq); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerateConcurrent runs calls against a model that takes 20ms to
// answer, 16 at a time: ns/op well under 20ms/16 ≈ 1.25ms shows calls
// overlap instead of queueing.
func BenchmarkGenerateConcurrent(b *testing.B) {
	m := benchModel(b, geminitest.WithDelay(20*time.Millisecond))
	b.SetParallelism(8) // × GOMAXPROCS goroutines
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := m.Generate(b.Context(), benchReq); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
