package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// stEnv runs factbot commands in-process against one database file.
type stEnv struct {
	t    *testing.T
	path string
	env  map[string]string
}

func newStEnv(t *testing.T) *stEnv {
	return &stEnv{t: t, path: filepath.Join(t.TempDir(), "factbot.db"), env: map[string]string{}}
}

func (e *stEnv) run(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == "FACTBOT_DB" {
			return e.path
		}
		return e.env[k]
	}
	code = run(context.Background(), &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: getenv}, args)
	return out.String(), errb.String(), code
}

// seed stores checks (and closes the file again).
func (e *stEnv) seed(cs ...*store.Check) {
	e.t.Helper()
	db, err := store.Open(e.path, store.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	defer db.Close()
	if err := db.SaveChecks(context.Background(), cs); err != nil {
		e.t.Fatal(err)
	}
}

var stT0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func stCheck(tenant, user, text string, at time.Time, l factcheck.Label) *store.Check {
	v := &factcheck.Verdict{
		Claim: text, Verdict: l, Confidence: factcheck.High, Reasoning: "Sources agree.",
		Evidence: []factcheck.Evidence{
			{SourceURL: "https://example.org/a", SourceTitle: "Example A", Supports: true, QuoteOrSummary: "it is so", QuoteFound: true,
				QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInPDF, Page: 2}},
			{SourceURL: "https://example.com/b", SourceTitle: "Example B", QuoteOrSummary: "it is not", QuoteFound: false},
		},
		CheckedAt: at, Model: "gemini-flash-latest",
		Sources: []factcheck.Source{{URL: "https://example.org/a", Via: "read", FetchedAt: at, SHA256: "abc123", Cited: true}},
		Trace:   []factcheck.TraceEvent{{At: at, Kind: "tool", Tool: "web_search", Args: `{"query":"x"}`, ResultBytes: 100}},
	}
	return &store.Check{Tenant: tenant, Platform: "cli", Channel: "C1", User: user, Text: text, CreatedAt: at,
		Report: &factcheck.Report{Input: text, Claims: []*factcheck.Verdict{v}, CheckedAt: at, Model: "gemini-flash-latest"}}
}

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{"30d": 30 * 24 * time.Hour, "1.5d": 36 * time.Hour, "72h": 72 * time.Hour, "90m": 90 * time.Minute} {
		got, err := parseAge(in)
		if err != nil || got != want {
			t.Errorf("parseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "d", "thirty days", "-3d"} {
		if _, err := parseAge(in); err == nil {
			t.Errorf("parseAge(%q): no error", in)
		}
	}
	now := stT0
	for in, want := range map[string]time.Time{
		"2026-11-01T09:00:00Z": time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC),
		"7d":                   now.Add(-7 * 24 * time.Hour),
	} {
		got, err := parseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := parseSince("yesterday", now); err == nil {
		t.Error("parseSince(yesterday): no error")
	}
}

func TestOpenStoreErrors(t *testing.T) {
	e := newStEnv(t)
	// No database yet: a clear message, exit 2, and no empty file made.
	_, stderr, code := e.run("history")
	if code != exitUsage || !strings.Contains(stderr, "FACTBOT_DB: no database at "+e.path) {
		t.Errorf("history without a database: code %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(e.path); err == nil {
		t.Error("history created an empty database")
	}
	e.seed(stCheck("cli", "ann", "x", stT0, factcheck.Supported))
	e.env["FACTBOT_CACHE_TTL"] = "a week"
	_, stderr, code = e.run("history")
	if code != exitUsage || !strings.Contains(stderr, "FACTBOT_CACHE_TTL") {
		t.Errorf("bad FACTBOT_CACHE_TTL: code %d, stderr %q", code, stderr)
	}
	e.env["FACTBOT_CACHE_TTL"] = "7d"
	if _, stderr, code = e.run("history"); code != exitOK {
		t.Errorf("FACTBOT_CACHE_TTL=7d: code %d, stderr %q", code, stderr)
	}
}

// While another holder (the bot) has the file, commands say so and exit 2.
func TestOpenStoreLocked(t *testing.T) {
	e := newStEnv(t)
	db, err := store.Open(e.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, args := range [][]string{{"history"}, {"show", "x"}, {"export"}, {"prune", "--older-than", "30d"}, {"forget", "--user", "u"}} {
		_, stderr, code := e.run(args...)
		if code != exitUsage || !strings.Contains(stderr, e.path+" is in use by another process") {
			t.Errorf("%v on a locked file: code %d, stderr %q", args, code, stderr)
		}
	}
}

func TestHistoryCommand(t *testing.T) {
	e := newStEnv(t)
	a := stCheck("cli", "ann", "The Eiffel Tower is 330 m tall", stT0, factcheck.Supported)
	b := stCheck("cli", "bob", "Vaccines cause autism\nreally", stT0.Add(time.Hour), factcheck.Contradicted)
	b.Report.Claims[0].Cached = true
	other := stCheck("T9", "ann", "The Eiffel Tower is in Paris", stT0.Add(2*time.Hour), factcheck.Supported)
	e.seed(a, b, other)

	stdout, stderr, code := e.run("history")
	if code != exitOK {
		t.Fatalf("history: code %d, stderr %q", code, stderr)
	}
	want := b.ID + "  2026-11-29 13:00Z  bob  C1  1 contradicted (cached)  Vaccines cause autism really\n" +
		a.ID + "  2026-11-29 12:00Z  ann  C1  1 supported              The Eiffel Tower is 330 m tall\n"
	if diff := cmp.Diff(want, stdout); diff != "" {
		t.Errorf("history lines (-want +got):\n%s", diff)
	}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--verdict", "supported"}, []string{a.ID}},
		{[]string{"--user", "bob"}, []string{b.ID}},
		{[]string{"--search", "eiffel"}, []string{a.ID}},
		{[]string{"--limit", "1"}, []string{b.ID}},
		{[]string{"--since", "2026-11-29T12:30:00Z"}, []string{b.ID}},
		{[]string{"--tenant", "T9"}, []string{other.ID}},
		{[]string{"--tenant", "T9", "--user", "bob"}, []string{}},
		{[]string{"--search", "paris"}, []string{}}, // T9's words are not in cli's history
	}
	for _, tt := range tests {
		stdout, stderr, code := e.run(append([]string{"history", "--json"}, tt.args...)...)
		if code != exitOK {
			t.Errorf("history %v: code %d, stderr %q", tt.args, code, stderr)
			continue
		}
		var got []store.CheckSummary
		if err := jsonUnmarshal(stdout, &got); err != nil {
			t.Errorf("history %v: %v", tt.args, err)
		}
		ids := []string{}
		for _, s := range got {
			ids = append(ids, s.ID)
		}
		if diff := cmp.Diff(tt.want, ids); diff != "" {
			t.Errorf("history --json %v (-want +got):\n%s", tt.args, diff)
		}
	}
	for _, args := range [][]string{{"--verdict", "true"}, {"--since", "someday"}, {"--limit", "0"}, {"extra"}} {
		if _, stderr, code := e.run(append([]string{"history"}, args...)...); code != exitUsage || stderr == "" {
			t.Errorf("history %v: code %d, stderr %q; want a usage error", args, code, stderr)
		}
	}
}
