package factcheck_test

import (
	"context"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
)

// Every call of a check carries the temperature, low by default, on the
// wire to Gemini.
func TestTemperatureOnTheWire(t *testing.T) {
	hot := 0.7
	for _, tc := range []struct {
		name string
		set  *float64
		want float64
	}{
		{"default", nil, factcheck.DefaultTemperature},
		{"set", &hot, 0.7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := geminitest.NewServer(t, func(r *geminitest.Request) geminitest.Reply {
				for _, n := range r.ToolNames() {
					switch n {
					case factcheck.ToolSubmitClaims:
						return geminitest.Call(n, map[string]any{"claims": []map[string]string{{"claim": "The Great Wall is visible from space", "span": "The Great Wall is visible from space"}}})
					case factcheck.ToolWebSearch:
						if r.Turns() == 0 {
							return geminitest.Call(n, map[string]string{"query": "great wall visible from space"})
						}
					}
				}
				return reply(r)
			})
			m, err := gemini.New(context.Background(), gemini.Config{APIKey: "k", BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			c := checker(m)
			c.Options.Temperature = tc.set
			if _, err := c.Check(context.Background(), factcheck.Input{Text: "The Great Wall is visible from space"}); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) < 3 {
				t.Fatalf("%d requests, want extraction and at least two verification calls", len(reqs))
			}
			for i, r := range reqs {
				if r.Temperature == nil || float32(*r.Temperature) != float32(tc.want) {
					t.Errorf("request %d (tools %v) temperature = %v, want %v", i, r.ToolNames(), r.Temperature, tc.want)
				}
			}
		})
	}
}

// reply answers the calls of a check that the test does not script: a
// verdict of unverifiable.
func reply(r *geminitest.Request) geminitest.Reply {
	return geminitest.Call(factcheck.ToolSubmitVerdict, map[string]any{"verdict": "unverifiable", "confidence": "low", "reasoning": "r"})
}
