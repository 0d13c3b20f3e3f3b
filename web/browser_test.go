package web

import (
	"context"
	"flag"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/factbot-dev/factbot/web/webtest"
	"github.com/google/go-cmp/cmp"
)

var screenshots = flag.Bool("screenshots", false, "write the README's screenshots to ../docs/web-check.png and ../docs/web-history.png")

// chromiumPath finds Debian's chromium, or skips the test.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium found: apt-get install chromium (as root) to run the browser tests")
	return ""
}

// browser starts headless Chromium with a fresh profile and returns a
// context for its first tab.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 900),
	}
	// The deadline only keeps a wedged browser from hanging the run.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return bctx
}

// eval evaluates a JavaScript expression in the page (DevTools ignores the
// page's CSP) and returns its JSON value as T.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// open navigates to target and returns the document's HTTP status.
func open(t *testing.T, ctx context.Context, target string) int64 {
	t.Helper()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(target))
	if err != nil {
		t.Fatalf("open %s: %v", target, err)
	}
	return resp.Status
}

func TestBrowserCheckPage(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	ts := httptest.NewServer(f.srv)
	defer ts.Close()

	if status := open(t, ctx, ts.URL+local(f.links.CheckURL("T1", "U1", f.sample.ID))); status != 200 {
		t.Fatalf("check page: status %d", status)
	}
	badges := eval[[]string](t, ctx, `[...document.querySelectorAll(".claim-card header .badge")].map(e => e.innerText.trim())`)
	if diff := cmp.Diff([]string{"✅ Supported", "❌ Contradicted", "⚖️ Contested"}, badges); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	if q := eval[string](t, ctx, `document.querySelector("blockquote.question").innerText`); q != f.sample.Text {
		t.Errorf("question shown %q, want %q", q, f.sample.Text)
	}
	evidence, sources := 0, 0
	for _, v := range f.sample.Report.Claims {
		evidence += len(v.Evidence)
		sources += len(v.Sources)
	}
	// The map is drawn: its edges have a size on the page.
	edges := eval[[]float64](t, ctx, `[...document.querySelectorAll("svg.evmap path.edge")].map(e => e.getBoundingClientRect().width)`)
	if len(edges) != evidence {
		t.Errorf("the evidence map draws %d edges, want one per piece of evidence (%d)", len(edges), evidence)
	}
	for i, w := range edges {
		if w <= 0 {
			t.Errorf("edge %d is not drawn (width %v)", i, w)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("svg.evmap path.edge.unverified").length`); n != 1 {
		t.Errorf("%d dashed edges, want 1 (the quote not found)", n)
	}
	if dash := eval[string](t, ctx, `getComputedStyle(document.querySelector("svg.evmap path.edge.unverified")).strokeDasharray`); dash == "none" || dash == "" {
		t.Errorf("the unverified edge is not dashed (stroke-dasharray %q): is the stylesheet loaded?", dash)
	}
	rows := eval[[]string](t, ctx, `[...document.querySelectorAll(".sources tbody tr td:nth-child(2) a")].map(e => e.innerText)`)
	if len(rows) != sources {
		t.Errorf("the sources table has %d rows, want %d: %q", len(rows), sources, rows)
	}
	for _, want := range []string{"The Eiffel Tower's key figures", "Is the Great Wall of China Visible from Space?"} {
		if !slices.Contains(rows, want) {
			t.Errorf("the sources table lacks %q: %q", want, rows)
		}
	}
	if *screenshots {
		// Open one page as read and one trace, to show them.
		eval[bool](t, ctx, `document.querySelector(".snapshots details").open = document.querySelectorAll(".trace details")[2].open = true`)
		shoot(t, ctx, "web-check.png")
		if err := f.db.SaveChecks(t.Context(), webtest.Stories("T1", t0)); err != nil {
			t.Fatal(err)
		}
		if status := open(t, ctx, ts.URL+local(f.links.HistoryURL("T1", "U1", "C1"))); status != 200 {
			t.Fatalf("history page: status %d", status)
		}
		shoot(t, ctx, "web-history.png")
	}
}

func TestBrowserTamperedLink(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	ts := httptest.NewServer(f.srv)
	defer ts.Close()

	link := ts.URL + local(f.links.CheckURL("T1", "U1", f.sample.ID))
	// Change one character of the signature.
	i := len(link) - 10
	tampered := link[:i] + string(otherSpelling(link[i])) + link[i+1:]
	for _, target := range []string{tampered, ts.URL + CheckPath("T1", f.sample.ID)} {
		if status := open(t, ctx, target); status != 403 {
			t.Errorf("%s: status %d, want 403", target, status)
		}
		body := eval[string](t, ctx, `document.body.innerText`)
		if strings.Contains(body, "Eiffel") || eval[int](t, ctx, `document.querySelectorAll(".claim-card, svg").length`) > 0 {
			t.Errorf("a tampered link shows the check: %q", body)
		}
		if !strings.Contains(body, "not valid") {
			t.Errorf("page says %q, want that the link is not valid", body)
		}
	}
}

func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	write(t, name, b)
}

func write(t *testing.T, name string, b []byte) {
	t.Helper()
	p := filepath.Join("..", "docs", name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", p)
}
