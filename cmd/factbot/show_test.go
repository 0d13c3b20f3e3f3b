package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func TestShowCommand(t *testing.T) {
	e := newStEnv(t)
	c := stCheck("cli", "ann", "The Eiffel Tower is 330 m tall", stT0, factcheck.Supported)
	c.RequestKey, c.Message = "cli:1", "1700000000.000001"
	c.Report.Attachments = []factcheck.Attachment{{Name: "chart.png", MIME: "image/png", Bytes: 12, SHA256: "feed01", Picture: 1, Read: true}}
	other := stCheck("T9", "ann", "secret", stT0, factcheck.Supported)
	e.seed(c, other)

	stdout, stderr, code := e.run("show", c.ID)
	if code != exitOK {
		t.Fatalf("show: code %d, stderr %q", code, stderr)
	}
	for _, want := range []string{
		"Check " + c.ID, "User:     ann", "Request:  cli:1", "The Eiffel Tower is 330 m tall",
		"[supports] Example A <https://example.org/a>", `"it is so" (quote found on page 2 of the PDF)`,
		"[refutes] Example B <https://example.com/b>", `"it is not" (quote not found in what was read)`,
		"2026-11-29 12:00:00Z  read       https://example.org/a sha256:abc123 cited",
		`web_search {"query":"x"}, 100 bytes`,
		"Message read: 1700000000.000001", "picture 1 chart.png (image/png, 12 bytes, read)\n    sha256 feed01",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("show output lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, code = e.run("show", "--json", c.ID)
	var got store.Check
	if err := jsonUnmarshal(stdout, &got); code != exitOK || err != nil {
		t.Fatalf("show --json: code %d, %v", code, err)
	}
	if diff := cmp.Diff(c, &got, cmpopts.IgnoreUnexported(factcheck.Verdict{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("show --json (-want +got):\n%s", diff)
	}
	// Another tenant's check is not shown to cli.
	if _, stderr, code := e.run("show", other.ID); code != exitFailed || !strings.Contains(stderr, "no check") {
		t.Errorf("show of T9's check as cli: code %d, stderr %q", code, stderr)
	}
	if _, _, code := e.run("show", other.ID, "--tenant", "T9"); code != exitOK {
		t.Errorf("show --tenant T9: code %d", code)
	}
	if _, _, code := e.run("show"); code != exitUsage {
		t.Errorf("show without ID: code %d", code)
	}
}

// seedPage stores a page as search.Reader does (keeping its snapshot), as
// read at `at`.
func (e *stEnv) seedPage(p *search.Page, at time.Time) {
	e.t.Helper()
	db, err := store.Open(e.path, store.Options{Now: func() time.Time { return at }})
	if err != nil {
		e.t.Fatal(err)
	}
	defer db.Close()
	val, err := json.Marshal(p)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := db.Put(context.Background(), search.PageBucket, p.URL, val, nil); err != nil {
		e.t.Fatal(err)
	}
}

func TestShowPage(t *testing.T) {
	e := newStEnv(t)
	const (
		shaThen = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
		shaNow  = "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"
		shaGone = "9f86d0818f3c1e5b3a3a5b0e5d6b2e0c4b0f6a1c2d3e4f5a6b7c8d9e0f1a2b3c"
	)
	then := &search.Page{
		URL: "https://example.org/tower", FinalURL: "https://www.example.org/tower", Title: "The Eiffel Tower",
		Site: "Example", Text: "The tower is 330 m tall.\nIt was \x1b[31mbuilt\x1b[0m in 1889.",
		FetchedAt: stT0.Add(-time.Minute), SHA256: shaThen, Bytes: 5120,
	}
	e.seedPage(then, stT0.Add(-time.Minute))
	// The page changed later: the cache moves on, the snapshot stays.
	now := *then
	now.Text, now.SHA256, now.FetchedAt = "The tower is 300 m tall.", shaNow, stT0.Add(48*time.Hour)
	e.seedPage(&now, now.FetchedAt)

	c := stCheck("cli", "ann", "The Eiffel Tower is 330 m tall", stT0, factcheck.Supported)
	c.Report.Claims[0].Sources = []factcheck.Source{
		{URL: then.URL, Via: "read", FetchedAt: then.FetchedAt, SHA256: shaThen, Cited: true},
		{URL: "https://example.com/gone", Via: "read", FetchedAt: stT0, SHA256: shaGone},
		{URL: "https://example.net/s", Via: "search", FetchedAt: stT0},
	}
	other := stCheck("T9", "eve", "Other tenant", stT0, factcheck.Supported)
	other.Report.Claims[0].Sources = c.Report.Claims[0].Sources
	e.seed(c, other)

	stdout, stderr, code := e.run("show", c.ID)
	if code != exitOK {
		t.Fatalf("show: code %d, stderr %q", code, stderr)
	}
	for _, want := range []string{
		"read       https://example.org/tower sha256:" + shaThen + " cited, snapshot kept\n",
		"read       https://example.com/gone sha256:" + shaGone + ", no snapshot kept\n",
		"search     https://example.net/s\n",
		"(what a kept page said then: factbot show " + c.ID + " --page 9f86d081884c)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("show output lacks %q:\n%s", want, stdout)
		}
	}
	if stdout, _, _ := e.run("show", other.ID, "--tenant", "T9"); !strings.Contains(stdout, "--tenant T9 --page 9f86d081884c") {
		t.Errorf("hint for another tenant lacks --tenant:\n%s", stdout)
	}

	wantPage := "Page sha256:" + shaThen + ", as read for check " + c.ID + "\n" +
		"  Asked for: https://example.org/tower\n" +
		"  Final URL: https://www.example.org/tower\n" +
		"  Title:     The Eiffel Tower\n" +
		"  Site:      Example\n" +
		"  Fetched:   2026-11-29 11:59:00Z\n" +
		"  Body:      5120 bytes\n" +
		"\nText as extracted:\n" +
		"  The tower is 330 m tall.\n" +
		"  It was [31mbuilt[0m in 1889.\n"
	for _, arg := range []string{shaThen, "sha256:" + shaThen, strings.ToUpper(shaThen), "9f86d081884c"} {
		stdout, stderr, code := e.run("show", c.ID, "--page", arg)
		if code != exitOK {
			t.Fatalf("show --page %s: code %d, stderr %q", arg, code, stderr)
		}
		if diff := cmp.Diff(wantPage, stdout); diff != "" {
			t.Errorf("show --page %s (-want +got):\n%s", arg, diff)
		}
	}
	stdout, _, code = e.run("show", c.ID, "--page", shaThen, "--json")
	var got search.Page
	if err := jsonUnmarshal(stdout, &got); code != exitOK || err != nil {
		t.Fatalf("show --page --json: code %d, %v", code, err)
	}
	if diff := cmp.Diff(then, &got); diff != "" {
		t.Errorf("show --page --json (-want +got):\n%s", diff)
	}

	for _, tt := range []struct {
		name     string
		args     []string
		code     int
		inStderr string
	}{
		{"ambiguous prefix", []string{"show", c.ID, "--page", "9f86d081"}, exitUsage, "matches 2 pages"},
		{"prefix too short", []string{"show", c.ID, "--page", "9f86"}, exitFailed, "read no page with SHA-256"},
		{"a page the check did not read", []string{"show", c.ID, "--page", shaNow}, exitFailed, "the pages it read:\n  " + shaThen},
		{"pruned snapshot", []string{"show", c.ID, "--page", shaGone}, exitFailed, "no snapshot of page " + shaGone + " is kept"},
		{"another tenant's check", []string{"show", other.ID, "--page", shaThen}, exitFailed, "no check"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := e.run(tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.inStderr) || stdout != "" {
				t.Errorf("%v: code %d, stdout %q, stderr %q; want code %d and %q", tt.args, code, stdout, stderr, tt.code, tt.inStderr)
			}
		})
	}
}
