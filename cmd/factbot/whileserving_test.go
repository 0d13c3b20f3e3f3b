package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/store"
)

var savedAs = regexp.MustCompile(`Saved as (\S+):`)

// TestCommandsWhileServing: while 'factbot serve' holds the bbolt file,
// every command that reads or writes history works unchanged, through
// serve's admin socket: check (saving its check and using the caches),
// history, show (and a page snapshot), export (JSON Lines and CSV), web
// --link and --history. None says the database is locked.
func TestCommandsWhileServing(t *testing.T) {
	var w *world
	w = newWorld(t, wallFirst(func(r *geminitest.Request) geminitest.Reply {
		switch r.Turns() {
		case 0:
			return searchCall("great wall visible from space")
		case 1:
			return readCall(w.url("/nasa/great-wall"))
		default:
			return verdictReply("contradicted", "high", "NASA says the wall is not visible to the unaided eye from orbit.",
				map[string]any{"source_url": w.url("/nasa/great-wall"), "source_title": "NASA", "supports": false,
					"quote_or_summary": "frequently billed as the only man-made object visible from space, generally isn't"})
		}
	}))
	w.env["FACTBOT_PUBLIC_URL"], w.env["FACTBOT_WEB_SECRET"] = "https://factbot.example", testWebSecret
	startServe(t, w.env)
	if _, err := store.Open(w.env["FACTBOT_DB"], store.Options{Timeout: 10 * time.Millisecond}); err == nil {
		t.Fatal("the database is not held by serve: the test would prove nothing")
	}
	run := func(args ...string) string {
		t.Helper()
		stdout, stderr, code := w.run(args...)
		if code != exitOK || strings.Contains(stderr, "locked") {
			t.Fatalf("factbot %s while serving: exit %d, stderr:\n%s", strings.Join(args, " "), code, stderr)
		}
		return stdout
	}

	out := run("check", wallClaim)
	m := savedAs.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("check while serving did not save its check:\n%s", out)
	}
	id := m[1]
	models := w.gemini.Calls()
	if out := run("check", wallClaim); !strings.Contains(out, "cached answer from") || w.gemini.Calls() != models {
		t.Errorf("second check while serving: %d more model calls, want 0 (the verdict cache through serve):\n%s", w.gemini.Calls()-models, out)
	}

	var hist []store.CheckSummary
	if err := json.Unmarshal([]byte(run("history", "--json")), &hist); err != nil || len(hist) != 2 || hist[0].ID != id && hist[1].ID != id {
		t.Errorf("history --json while serving = %+v (%v), want 2 checks, one %s", hist, err, id)
	}
	if out := run("history", "--search", "great wall"); !strings.Contains(out, id) {
		t.Errorf("history --search while serving lacks %s:\n%s", id, out)
	}
	if out := run("show", id); !strings.Contains(out, "NASA says the wall") || !strings.Contains(out, "snapshot kept") {
		t.Errorf("show while serving:\n%s", out)
	}
	var c store.Check
	if err := json.Unmarshal([]byte(run("show", "--json", id)), &c); err != nil || len(c.Report.Claims) != 1 || len(c.Report.Claims[0].Sources) == 0 {
		t.Fatalf("show --json while serving: %v, %+v", err, c)
	}
	if out := run("show", id, "--page", c.Report.Claims[0].Sources[0].SHA256[:12]); !strings.Contains(out, "unaided eye") {
		t.Errorf("show --page while serving:\n%s", out)
	}
	if _, stderr, code := w.run("show", "nosuch"); code != exitFailed || !strings.Contains(stderr, `no check "nosuch"`) {
		t.Errorf("show of a missing check while serving: exit %d, stderr %q; want the usual message", code, stderr)
	}

	sc := bufio.NewScanner(strings.NewReader(run("export")))
	sc.Buffer(nil, 1<<20)
	var lines int
	for sc.Scan() {
		var c store.Check
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil || c.Report == nil {
			t.Errorf("export line %d: %v", lines+1, err)
		}
		lines++
	}
	if lines != 2 {
		t.Errorf("export while serving wrote %d checks, want 2", lines)
	}
	rows, err := csv.NewReader(strings.NewReader(run("export", "--format", "csv"))).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Errorf("export --format csv while serving: %d rows (%v), want a header and 2", len(rows), err)
	}

	if link := run("web", "--link", id); !strings.HasPrefix(link, "https://factbot.example/web/") {
		t.Errorf("web --link while serving = %q", link)
	}
	if _, stderr, code := w.run("web", "--link", "nosuch"); code != exitUsage || !strings.Contains(stderr, "no check nosuch") {
		t.Errorf("web --link to a missing check while serving: exit %d, stderr %q", code, stderr)
	}
	if out := run("web", "--history"); !strings.HasPrefix(out, "https://factbot.example/web/") {
		t.Errorf("web --history while serving = %q", out)
	}
}
