package web

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"html/template"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/web/webtest"
)

// renderMap renders the evidence map's SVG alone.
func renderMap(t *testing.T, m *evidenceMap) string {
	t.Helper()
	var b bytes.Buffer
	p := &checkPage{Map: m, Check: &store.Check{}}
	if err := pages().ExecuteTemplate(&b, "check.html", p); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	i, j := strings.Index(s, "<svg"), strings.Index(s, "</svg>")
	if i < 0 || j < 0 {
		t.Fatalf("no svg in %s", s)
	}
	return s[i : j+len("</svg>")]
}

func TestEvidenceMap(t *testing.T) {
	c, _ := webtest.Sample("T1", "C1", "U1", t0)
	tests := []struct {
		name           string
		claims         []*factcheck.Verdict
		edges, sources int
		dashed         int
	}{
		{"sample", c.Report.Claims, 6, 5, 1},
		{"two claims cite one source", []*factcheck.Verdict{
			{Claim: "a", Verdict: factcheck.Supported, Evidence: []factcheck.Evidence{{SourceURL: "https://x.test/1", Supports: true, QuoteFound: true}}},
			{Claim: "b", Verdict: factcheck.Contradicted, Evidence: []factcheck.Evidence{{SourceURL: "https://x.test/1"}, {SourceURL: "https://x.test/2.pdf"}}},
		}, 3, 2, 2},
		{"a claim without evidence", []*factcheck.Verdict{
			{Claim: "a", Verdict: factcheck.Unverifiable},
			{Claim: "b", Verdict: factcheck.Supported, Evidence: []factcheck.Evidence{{SourceURL: "https://x.test/1", Supports: true, QuoteFound: true}}},
			nil,
		}, 1, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := drawMap(words.English, tt.claims, isPDF)
			svg := renderMap(t, m)
			got := []int{strings.Count(svg, `<path class="edge`), strings.Count(svg, `class="node source`), strings.Count(svg, `unverified"`)}
			if diff := cmp.Diff([]int{tt.edges, tt.sources, tt.dashed}, got); diff != "" {
				t.Errorf("edges, sources, dashed edges (-want +got):\n%s", diff)
			}
			for _, n := range append(m.Claims, m.Sources...) {
				if n.Y < 0 || n.Y+n.H > m.Height || n.X < 0 || n.X+n.W > m.Width {
					t.Errorf("node %q at %d,%d size %dx%d is outside the %dx%d map", n.Title, n.X, n.Y, n.W, n.H, m.Width, m.Height)
				}
			}
		})
	}
	if m := drawMap(words.English, []*factcheck.Verdict{{Claim: "a"}}, isPDF); m != nil {
		t.Errorf("a map without evidence: %+v, want none", m)
	}
	// Marks: the fact-check and the PDF.
	svg := renderMap(t, drawMap(words.English, c.Report.Claims, isPDF))
	for _, want := range []string{`class="node source factcheck"`, `class="node source pdf"`, "fact-check: False", ">PDF<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("map lacks %s", want)
		}
	}
}

const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)>`

func TestEvidenceMapEscapes(t *testing.T) {
	svg := renderMap(t, drawMap(words.English, []*factcheck.Verdict{{
		Claim: hostile, Verdict: factcheck.Contradicted,
		Evidence: []factcheck.Evidence{{SourceURL: "https://x.test/\"><script>", SourceTitle: hostile, QuoteOrSummary: hostile, Rating: "</text><script>"}},
	}}, isPDF))
	for _, bad := range []string{"<script", "<img", "</text><script"} {
		if strings.Contains(svg, bad) {
			t.Errorf("the map contains %q unescaped:\n%s", bad, svg)
		}
	}
	if !strings.Contains(svg, "&lt;script&gt;") {
		t.Errorf("the map does not show the hostile text as text:\n%s", svg)
	}
}

// TestHostileText: text from users, models and web pages is shown as text
// on every page, never run or rendered as HTML.
func TestHostileText(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	page := webtest.Page("https://evil.test/page", hostile, hostile, hostile, "Page text "+hostile+"\n<style>body{display:none}</style>", t0)
	b, _ := json.Marshal(page)
	if err := f.db.Put(ctx, search.PageBucket, page.URL, b, nil); err != nil {
		t.Fatal(err)
	}
	c := &store.Check{Tenant: "T1", Channel: "C1", User: "U1", Text: hostile, CreatedAt: t0.Add(time.Hour), Link: "javascript:alert(1)",
		Report: &factcheck.Report{Input: hostile, Notice: hostile, NotCheckable: []factcheck.NotCheckable{{Text: hostile, Reason: hostile}},
			Trace: []factcheck.TraceEvent{{At: t0, Kind: "note", Note: hostile}},
			Claims: []*factcheck.Verdict{{Claim: hostile, Verdict: factcheck.Contested, Confidence: "<b>", Reasoning: hostile, Model: hostile, Error: hostile,
				Evidence: []factcheck.Evidence{{SourceURL: "javascript:alert(1)", SourceTitle: hostile, QuoteOrSummary: hostile, Publisher: hostile, Rating: hostile}},
				Sources:  []factcheck.Source{{URL: page.URL, Title: hostile, Via: hostile, SHA256: page.SHA256, FetchedAt: t0}},
				Trace:    []factcheck.TraceEvent{{At: t0, Kind: "tool", Tool: hostile, Args: hostile, Error: hostile}}}}},
		Feedback: []store.Feedback{{User: hostile, Claim: 0, Note: hostile, At: t0}}}
	if err := f.db.SaveCheck(ctx, c); err != nil {
		t.Fatal(err)
	}
	bearer := []string{"Authorization", "Bearer " + testAdmin}
	for _, target := range []string{CheckPath("T1", c.ID), HistoryPath("T1") + "?q=" + "%3Cscript%3E", "/web/?channel=%3Cscript%3E"} {
		w := f.get(t, target, bearer...)
		if w.Code != 200 {
			t.Fatalf("%s: status %d", target, w.Code)
		}
		body := w.Body.String()
		for _, bad := range []string{"<script", "<img", "<style>body", "<b>", `="javascript:`} {
			if strings.Contains(body, bad) {
				i := strings.Index(body, bad)
				t.Errorf("%s contains %q unescaped: …%s…", target, bad, body[max(0, i-80):min(len(body), i+80)])
			}
		}
		if !strings.Contains(body, template.HTMLEscapeString(`<script>alert("x")</script>`)) && !strings.Contains(body, "&lt;script&gt;") {
			t.Errorf("%s does not show the hostile text as text", target)
		}
	}
	// The snapshot is shown, as text.
	if body := f.get(t, CheckPath("T1", c.ID), bearer...).Body.String(); !strings.Contains(body, "Page text &lt;script&gt;") {
		t.Error("the page as read is not shown as escaped text")
	}
}

func TestCheckPage(t *testing.T) {
	f := newFixture(t)
	w := f.get(t, local(f.links.CheckURL("T1", "U1", f.sample.ID)))
	if w.Code != 200 {
		t.Fatalf("status %d", w.Code)
	}
	body := w.Body.String()
	for _, want := range []string{
		"✅ Supported", "❌ Contradicted", "⚖️ Contested", "high confidence",
		"The tower&#39;s operator and Britannica",                     // reasoning
		"quote found on the page", "quote not found in what was read", // chat's words
		"Snopes", "2019-10-02", // publisher, published date from the snapshot
		f.sample.Report.Claims[0].Sources[0].SHA256[:12],       // hashes
		"Height: 330 metres since 2022, with the new antenna.", // as read then
		"web_search", "1200 prompt tokens", "stopped early: the search limit was reached", // trace
		"depends on the dose", "on claim 3", // feedback
		"PDF, 2 pages.", `<p class="pdf-page small">Page 2</p>`, // a PDF as read, page by page
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the check page lacks %q", want)
		}
	}
	if strings.Contains(body, `href="/web/history`) {
		t.Error("a check link offers the history")
	}
}

func TestExport(t *testing.T) {
	f := newFixture(t)
	hist := func(viewer string) string { return local(f.links.HistoryURL("T1", viewer, "C1")) }
	jsonl := func(target string) []string {
		w := f.get(t, target)
		if w.Code != 200 {
			t.Fatalf("%s: status %d", target, w.Code)
		}
		var ids []string
		for _, line := range strings.Split(strings.TrimSpace(w.Body.String()), "\n") {
			var c store.Check
			if err := json.Unmarshal([]byte(line), &c); err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			ids = append(ids, c.ID)
		}
		return ids
	}
	exportOf := func(link, q string) string {
		_, tok, _ := strings.Cut(link, "?t=")
		return ExportPath("T1") + "?" + q + "&t=" + tok
	}
	tests := []struct {
		name, target string
		want         []string
	}{
		{"asker sees their private check", exportOf(hist("U1"), "format=jsonl"), []string{f.private.ID, f.sample.ID}},
		{"another viewer does not", exportOf(hist("U2"), "format=jsonl"), []string{f.sample.ID}},
		{"filters apply", exportOf(hist("U1"), "verdict=contested"), []string{f.sample.ID}},
		{"a check link exports its check", exportOf(local(f.links.CheckURL("T1", "U2", f.sample.ID)), "format=jsonl"), []string{f.sample.ID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, jsonl(tt.target)); diff != "" {
				t.Errorf("exported (-want +got):\n%s", diff)
			}
		})
	}
	w := f.get(t, exportOf(hist("U2"), "format=csv"))
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := w.Header().Get("Content-Disposition"); cd != `attachment; filename="factbot-T1.csv"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	rows, err := csv.NewReader(w.Body).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[1][1] != f.sample.ID || rows[3][9] != "contested" {
		t.Errorf("CSV rows %q, want the header and a row per claim of %s", rows, f.sample.ID)
	}
	if got := csvSafe("=HYPERLINK(1)"); got != "'=HYPERLINK(1)" {
		t.Errorf("csvSafe = %q", got)
	}
}

// A source is marked as a PDF when the page as read has pages, whatever
// its URL.
func TestPDFBySnapshot(t *testing.T) {
	f := newFixture(t)
	pg := webtest.Page("https://example.org/report?id=7", "Annual report", "Example", "", "page one\n\npage two", t0)
	pg.PageCount, pg.Pages = 2, []search.PageText{{N: 1, Text: "page one"}, {N: 2, Text: "page two"}}
	b, _ := json.Marshal(pg)
	if err := f.db.Put(t.Context(), search.PageBucket, pg.URL, b, nil); err != nil {
		t.Fatal(err)
	}
	c := &store.Check{Tenant: "T1", Channel: "C1", User: "U1", Text: "x", CreatedAt: t0.Add(time.Hour), Visibility: store.VisibilityPublic,
		Report: &factcheck.Report{Claims: []*factcheck.Verdict{{Claim: "x", Verdict: factcheck.Supported,
			Evidence: []factcheck.Evidence{{SourceURL: pg.URL, SourceTitle: pg.Title, Supports: true, QuoteOrSummary: "page two", QuoteFound: true}},
			Sources:  []factcheck.Source{{URL: pg.URL, Title: pg.Title, Via: "read", SHA256: pg.SHA256, FetchedAt: t0, Cited: true}}}}}}
	if err := f.db.SaveCheck(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	body := f.get(t, CheckPath("T1", c.ID), "Authorization", "Bearer "+testAdmin).Body.String()
	for _, want := range []string{`class="node source pdf"`, `<span class="chip">PDF</span>`, "PDF, 2 pages.", "Page 1", "page two"} {
		if !strings.Contains(body, want) {
			t.Errorf("the check page lacks %s", want)
		}
	}
}

// TestCheckPageShowsPictures: the pictures a check read are listed with
// their SHA-256, and a claim read from one says so.
func TestCheckPageShowsPictures(t *testing.T) {
	f := newFixture(t)
	sum := strings.Repeat("ab12", 16)
	c := &store.Check{Tenant: "T1", Channel: "C1", User: "U1", CreatedAt: t0.Add(time.Hour), Message: "1700000000.000001",
		Report: &factcheck.Report{
			Attachments: []factcheck.Attachment{{Name: "chart.png", MIME: "image/png", Bytes: 1234, SHA256: sum, Picture: 1, Read: true}},
			Claims:      []*factcheck.Verdict{{Claim: "Unemployment fell to 2%", Verdict: factcheck.Unverifiable, Picture: 1, CheckedAt: t0}}}}
	if err := f.db.SaveCheck(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	body := f.get(t, CheckPath("T1", c.ID), "Authorization", "Bearer "+testAdmin).Body.String()
	for _, want := range []string{"Picture 1: chart.png", sum, "read from picture 1"} {
		if !strings.Contains(body, want) {
			t.Errorf("the check page lacks %q", want)
		}
	}
}
