package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store/storetest"
)

// finishedLines returns the "check finished" lines of a JSON log, decoded.
func finishedLines(t *testing.T, log string) []map[string]any {
	var out []map[string]any
	for line := range strings.Lines(log) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if m["msg"] == "check finished" {
			delete(m, "time")
			out = append(out, m)
		}
	}
	return out
}

// TestFinishedCheckLogged: serve logs one structured line per finished
// check, done or failed: tenant, platform, claims, verdicts, tokens,
// seconds, what ended the claims' runs.
func TestFinishedCheckLogged(t *testing.T) {
	for _, tc := range []struct {
		name string
		ck   func(context.Context, factcheck.Input) (*factcheck.Report, error)
		want map[string]any
	}{
		{"done", func(_ context.Context, in factcheck.Input) (*factcheck.Report, error) {
			rep := bottest.Report(factcheck.Input{Text: "one\ntwo\nthree"}, factcheck.Supported)
			rep.Claims[1].Verdict, rep.Claims[1].StoppedBy = factcheck.Contradicted, "time"
			rep.Claims[2].Cached = true
			rep.NotCheckable = []factcheck.NotCheckable{{Text: "an opinion", Reason: "opinion"}}
			rep.Usage = factcheck.Usage{PromptTokens: 1200, OutputTokens: 80}
			return rep, nil
		}, map[string]any{"level": "INFO", "msg": "check finished", "key": "k1", "tenant": "T1", "platform": "test",
			"outcome": "done", "claims": 3.0, "not_checkable": 1.0, "cached": 1.0,
			"verdicts": map[string]any{"supported": 2.0, "contradicted": 1.0}, "stopped_by": map[string]any{"time": 1.0},
			"prompt_tokens": 1200.0, "output_tokens": 80.0}},
		{"failed", func(context.Context, factcheck.Input) (*factcheck.Report, error) {
			return nil, errors.New("model unreachable")
		}, map[string]any{"level": "ERROR", "msg": "check finished", "key": "k1", "tenant": "T1", "platform": "test",
			"outcome": "failed", "err": "model unreachable"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer // slog's handler serialises the workers' writes
			p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
			s := bot.New(storetest.NewMemory(), &bottest.Checker{Func: tc.ck}, bot.Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
			s.Register(p)
			if err := s.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Submit(context.Background(), req("k1", "claims")); err != nil {
				t.Fatal(err)
			}
			waitFinal(t, p)
			s.Close()
			lines := finishedLines(t, logs.String()) // read once the service is closed
			if len(lines) != 1 {
				t.Fatalf("%d check finished lines, want 1: %v", len(lines), lines)
			}
			if secs, ok := lines[0]["seconds"].(float64); !ok || secs < 0 {
				t.Errorf("seconds = %v", lines[0]["seconds"])
			}
			delete(lines[0], "seconds")
			if diff := cmp.Diff(tc.want, lines[0]); diff != "" {
				t.Errorf("logged line (-want +got):\n%s", diff)
			}
		})
	}
}
