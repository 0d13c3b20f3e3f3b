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

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/web/webtest"
	"github.com/google/go-cmp/cmp"
)

var screenshots = flag.Bool("screenshots", false, "write the screenshots of docs/web.md to ../docs/web-check.png, ../docs/web-history.png and ../docs/web-check-phone.png")

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
	evidence, sources := counts(f.sample.Report)
	// The two-column map is drawn: its edges have a size on the page.
	if n := eval[int](t, ctx, `document.querySelector("svg.evmap.stacked").getBoundingClientRect().width`); n != 0 {
		t.Errorf("the phones' map is shown on a wide screen (width %d)", n)
	}
	edges := eval[[]float64](t, ctx, `[...document.querySelectorAll("svg.evmap.wide path.edge")].map(e => e.getBoundingClientRect().width)`)
	if len(edges) != evidence {
		t.Errorf("the evidence map draws %d edges, want one per piece of evidence (%d)", len(edges), evidence)
	}
	for i, w := range edges {
		if w <= 0 {
			t.Errorf("edge %d is not drawn (width %v)", i, w)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("svg.evmap.wide path.edge.unverified").length`); n != 1 {
		t.Errorf("%d dashed edges, want 1 (the quote not found)", n)
	}
	if dash := eval[string](t, ctx, `getComputedStyle(document.querySelector("svg.evmap path.edge.unverified")).strokeDasharray`); dash == "none" || dash == "" {
		t.Errorf("the unverified edge is not dashed (stroke-dasharray %q): is the stylesheet loaded?", dash)
	}
	if over := eval[[]string](t, ctx, textOutsideBoxes); len(over) > 0 {
		t.Errorf("map text overflows its box: %q", over)
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

// counts are a report's pieces of evidence and its distinct sources.
func counts(rep *factcheck.Report) (evidence, sources int) {
	seen := map[string]bool{}
	for _, v := range rep.Claims {
		evidence += len(v.Evidence)
		for _, s := range v.Sources {
			if !seen[s.URL] {
				seen[s.URL] = true
				sources++
			}
		}
	}
	return evidence, sources
}

// textOutsideBoxes lists the texts of the shown evidence map that reach
// past their node's box.
const textOutsideBoxes = `[...document.querySelectorAll("svg.evmap g.node")].filter(g => g.getBoundingClientRect().width > 0).flatMap(g => {
	const r = g.querySelector("rect").getBBox();
	return [...g.querySelectorAll("text")].filter(t => { const b = t.getBBox(); return b.x < r.x || b.x + b.width > r.x + r.width; }).map(t => t.textContent);
})`

// On a 390 px phone the page never scrolls sideways: the evidence map is
// stacked in one column, long claims wrap inside their boxes, and the
// sources table is one card per source, listing the claims that cite it.
// It writes the screenshot to the test's temporary directory (and with
// -screenshots to ../docs/web-check-phone.png).
func TestBrowserCheckPageOnAPhone(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	c, _ := webtest.Sample("T1", "C1", "U1", t0)
	first := c.Report.Claims[0]
	long := strings.Repeat("The Eiffel Tower, in Paris, is taller than any building ever built in the city before 1973 ", 3) +
		"https://example.org/" + strings.Repeat("very-long-path-", 12) + " 埃菲尔铁塔高三百三十米，是巴黎最高的建筑物之一，建于一八八九年。"
	c.Report.Claims = append(c.Report.Claims, &factcheck.Verdict{Claim: long, Verdict: factcheck.Supported, Confidence: factcheck.Medium,
		Reasoning: "The operator gives its height; " + long, Evidence: first.Evidence[:1], Sources: first.Sources[:1], CheckedAt: t0, Model: first.Model})
	c.ID = ""
	if err := f.db.SaveCheck(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(f.srv)
	defer ts.Close()
	if _, err := chromedp.Run(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	if status := open(t, ctx, ts.URL+local(f.links.CheckURL("T1", "U1", c.ID))); status != 200 {
		t.Fatalf("check page: status %d", status)
	}
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(t.TempDir(), "web-check-phone.png"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if *screenshots {
		write(t, "web-check-phone.png", b)
	}
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %d px wide on a 390 px screen", w)
	}
	if over := eval[[]string](t, ctx, outsideViewport); len(over) > 0 {
		t.Errorf("%d elements overflow the 390 px viewport: %q", len(over), over)
	}
	if w := eval[int](t, ctx, `document.querySelector("svg.evmap.wide").getBoundingClientRect().width`); w != 0 {
		t.Errorf("the two-column map is shown on a phone (width %d)", w)
	}
	evidence, sources := counts(c.Report)
	edges := eval[[]float64](t, ctx, `[...document.querySelectorAll("svg.evmap.stacked path.edge")].map(e => e.getBoundingClientRect().height)`)
	if len(edges) != evidence {
		t.Errorf("the stacked map draws %d edges, want %d", len(edges), evidence)
	}
	for i, h := range edges {
		if h <= 0 {
			t.Errorf("edge %d is not drawn", i)
		}
	}
	if over := eval[[]string](t, ctx, textOutsideBoxes); len(over) > 0 {
		t.Errorf("map text overflows its box: %q", over)
	}
	rows := eval[[][]string](t, ctx, `[...document.querySelectorAll(".sources tbody tr")].map(r => [r.querySelector("td:nth-child(2) a").innerText, r.querySelector("td:first-child").innerText])`)
	if len(rows) != sources {
		t.Errorf("the sources table has %d rows, want one per source (%d): %q", len(rows), sources, rows)
	}
	if !slices.ContainsFunc(rows, func(r []string) bool { return slices.Equal(r, []string{first.Sources[0].Title, "1, 4"}) }) {
		t.Errorf("the sources table does not list claims 1 and 4 under %q: %q", first.Sources[0].Title, rows)
	}
}

// outsideViewport lists the elements that reach past the viewport's sides.
const outsideViewport = `[...document.querySelectorAll("body *")].filter(e => {
	const r = e.getBoundingClientRect();
	return r.width > 0 && (r.right > window.innerWidth + 0.5 || r.left < -0.5);
}).map(e => e.tagName + "." + e.className.baseVal + e.className + " " + (e.textContent || "").slice(0, 40))`

// A browser asking for Arabic gets the check page right to left, in
// Arabic, and on a 390 px phone nothing leaves the screen.
func TestBrowserArabicOnAPhone(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	ts := httptest.NewServer(f.srv)
	defer ts.Close()
	arabic := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": "ar"}})
		return err
	})
	for _, a := range []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(390, 844), arabic} {
		if _, err := chromedp.Run(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if status := open(t, ctx, ts.URL+local(f.links.CheckURL("T1", "U1", f.sample.ID))); status != 200 {
		t.Fatalf("check page: status %d", status)
	}
	if dir := eval[string](t, ctx, `getComputedStyle(document.body).direction`); dir != "rtl" {
		t.Errorf("the page runs %s, want rtl", dir)
	}
	if h := eval[string](t, ctx, `document.querySelector(".claims h2").innerText`); h != "الادعاءات" {
		t.Errorf("the claims are headed %q, want الادعاءات", h)
	}
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %d px wide on a 390 px screen", w)
	}
	if over := eval[[]string](t, ctx, outsideViewport); len(over) > 0 {
		t.Errorf("%d elements overflow the 390 px viewport: %q", len(over), over)
	}
	if over := eval[[]string](t, ctx, textOutsideBoxes); len(over) > 0 {
		t.Errorf("map text overflows its box: %q", over)
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
