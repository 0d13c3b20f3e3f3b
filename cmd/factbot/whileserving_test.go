package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/store"
)

var savedAs = regexp.MustCompile(`Saved as (\S+):`)

// TestCommandsWhileServing: while 'factbot serve', 'factbot web' or
// 'factbot mcp' (on stdio or over HTTP) holds the bbolt file, every command
// that reads or writes history works unchanged, through the server's admin
// socket: check (saving its check and using the caches), history, show
// (and a page snapshot), export (JSON Lines and CSV), web --link and
// --history. None says the database is locked; a process that opens the
// file itself is told which command holds it.
func TestCommandsWhileServing(t *testing.T) {
	for _, server := range []string{"serve", "web", "mcp", "mcp --addr"} {
		t.Run(server, func(t *testing.T) { commandsBeside(t, server) })
	}
}

// commandsBeside starts server and runs every command beside it.
func commandsBeside(t *testing.T, server string) {
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
	switch server {
	case "serve":
		startServe(t, w.env)
	case "web":
		startWeb(t, w.env)
	case "mcp":
		startMCPStdio(t, w)
	case "mcp --addr":
		startMCPHTTP(t, w)
	}
	_, err := store.Open(w.env["FACTBOT_DB"], store.Options{Timeout: 10 * time.Millisecond})
	if err = namedHolder(err, w.env["FACTBOT_DB"]); err == nil {
		t.Fatal("the database is not held by " + server + ": the test would prove nothing")
	}
	if holder := "in use by factbot " + strings.Fields(server)[0] + " (pid "; !strings.Contains(err.Error(), holder) {
		t.Errorf("opening the file beside %s: %v; want it to say %q", server, err, holder)
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

// startWeb starts 'factbot web' on a free loopback port, on the database
// of env (created first: web opens an existing one), until the test ends.
func startWeb(t *testing.T, env map[string]string) string {
	t.Helper()
	db, err := store.Open(env["FACTBOT_DB"], store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	restore := webListening
	t.Cleanup(func() { webListening = restore })
	addrc := make(chan net.Addr, 1)
	webListening = func(a net.Addr) { addrc <- a }
	full := map[string]string{"FACTBOT_HTTP_ADDR": "127.0.0.1:0"}
	for k, v := range env {
		full[k] = v
	}
	a, errb := testApp(full)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, a, []string{"web"}) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("factbot web: exit %d, stderr:\n%s", code, errb)
		}
	})
	select {
	case addr := <-addrc:
		return "http://" + addr.String()
	case code := <-done:
		t.Fatalf("factbot web: exit %d before listening, stderr:\n%s", code, errb)
	}
	return ""
}

// TestLockedNamesHolder: a command that finds the bbolt file held by a
// process that serves no admin socket says which command holds it.
func TestLockedNamesHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer holdBolt(db, "factbot check").Close()
	_, stderr, code := runOut(map[string]string{"FACTBOT_DB": path}, "history")
	want := "factbot history: FACTBOT_DB: database is locked: " + path + " is in use by factbot check (pid " + strconv.Itoa(os.Getpid()) + ", since "
	if code != exitUsage || !strings.Contains(stderr, want) || strings.Contains(stderr, "factbot serve") {
		t.Errorf("history while factbot check holds the file: exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
}
