package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/factbot-dev/factbot/factcheck"
)

var ctx = context.Background()

// t0 is the fake clock's start.
var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// clock is a settable fake clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// newDB opens a database in a temp dir with a fake clock.
func newDB(t testing.TB) (*DB, *clock) {
	t.Helper()
	clk := &clock{t: t0}
	db, err := Open(filepath.Join(t.TempDir(), "factbot.db"), Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, clk
}

// verdict builds a realistic verdict.
func verdict(claim string, l factcheck.Label, at time.Time) *factcheck.Verdict {
	return &factcheck.Verdict{
		Claim:      claim,
		Verdict:    l,
		Confidence: factcheck.High,
		Reasoning:  "Two independent sources agree on " + claim + ".",
		Evidence: []factcheck.Evidence{
			{SourceURL: "https://example.org/a", SourceTitle: "Example A", Supports: l == factcheck.Supported, QuoteOrSummary: "a quote about " + claim, QuoteFound: true},
			{SourceURL: "https://example.com/b", SourceTitle: "Example B", Supports: l == factcheck.Supported, QuoteOrSummary: "a summary", QuoteFound: false},
		},
		Start: 0, End: len(claim), Span: claim,
		CheckedAt: at,
		Model:     "gemini-flash-latest",
		Usage:     factcheck.Usage{PromptTokens: 5200, OutputTokens: 310},
		Sources: []factcheck.Source{
			{URL: "https://example.org/a", Title: "Example A", Via: "read", FetchedAt: at, SHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", Cited: true},
			{URL: "https://example.com/b", Title: "Example B", Via: "search", FetchedAt: at, Cited: true},
			{URL: "https://example.net/c", Via: "search", FetchedAt: at},
		},
		Trace: []factcheck.TraceEvent{
			{At: at, Kind: "model", Usage: &factcheck.Usage{PromptTokens: 1200, OutputTokens: 80}, FinishReason: "STOP"},
			{At: at, Kind: "tool", Tool: "web_search", Args: `{"query":"` + claim + `"}`, ResultBytes: 2400},
			{At: at, Kind: "tool", Tool: "read_page", Args: `{"url":"https://example.org/a"}`, ResultBytes: 3000},
			{At: at, Kind: "model", Usage: &factcheck.Usage{PromptTokens: 4000, OutputTokens: 230}, FinishReason: "STOP"},
		},
	}
}

// check builds a check of tenant with one verdict per claim.
func check(tenant, channel, user, text string, at time.Time, claims map[string]factcheck.Label) *Check {
	r := &factcheck.Report{Input: text, CheckedAt: at, Model: "gemini-flash-latest"}
	for _, cl := range sortedKeys(claims) {
		r.Claims = append(r.Claims, verdict(cl, claims[cl], at))
	}
	return &Check{
		Tenant: tenant, Platform: "slack", Channel: channel, User: user,
		Thread: "1700000000.000100", Link: "https://example.slack.com/archives/" + channel + "/p1",
		Text: text, Report: r, CreatedAt: at,
	}
}

func sortedKeys(m map[string]factcheck.Label) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

func ids(ss []CheckSummary) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.ID)
	}
	return out
}

func mustf(t testing.TB, err error, format string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", fmt.Sprintf(format, args...), err)
	}
}

// cmpOpts compares stored values: unexported fields (a verdict's in-memory
// error cause) are not stored.
var cmpOpts = cmp.Options{cmpopts.IgnoreUnexported(factcheck.Verdict{}), cmpopts.EquateEmpty()}

func keys(rs []*Request) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Key)
	}
	return out
}
