package search

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

func parsePage(t testing.TB, page string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestBaselineText checks baselineText and fellBack against the library:
// on pages whose main text is too short for the library, which then falls
// back to its baseline, baselineText is the library's text and fellBack
// names the step; on a page the library reads itself, fellBack says no.
func TestBaselineText(t *testing.T) {
	long := `<p>The council met on Tuesday evening and agreed the budget for the coming year after a debate of three hours.</p>` +
		`<p>Spending on roads rises by four percent, and the library keeps its Sunday opening hours, which had been in doubt.</p>` +
		`<p>The leader of the opposition said the rise in the council tax was too steep for families already struggling with their bills.</p>`
	tests := []struct {
		name, page string
		want       baselineStep
	}{
		{"document, glued", `<html><head><title>Short</title></head><body><h1>Short page</h1><p>First sentence here.</p><p>Second sentence here.</p></body></html>`, fromDocument},
		{"body, after the paragraphs", `<html><body><p>A short first paragraph.</p><ul><li>An item of the list that is long enough</li><li>Another item of the list, long enough too</li></ul></body></html>`, fromBody},
		{"paragraphs", `<html><body><div><p>The first paragraph is here, and it says a few things.</p><p>The second paragraph is here, and it says a few more.</p></div></body></html>`, fromParagraphs},
		{"article", `<html><body><article><h2>Notice</h2><div>The library opens at nine on weekdays and at ten on Saturdays.</div><div>It is closed on Sundays and on public holidays.</div></article></body></html>`, fromArticle},
		{"the library's own text", `<html><body><article>` + long + `</article></body></html>`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parsePage(t, tt.page)
			res, err := trafilatura.ExtractDocument(doc, readerOptions)
			if err != nil {
				t.Fatal(err)
			}
			if got := fellBack(res.ContentNode, res.ContentText, doc); got != tt.want {
				t.Errorf("fellBack = %d, want %d (library's text %q)", got, tt.want, res.ContentText)
			}
			if tt.want != 0 {
				text, step := baselineText(doc)
				if diff := cmp.Diff(res.ContentText, text); diff != "" || step != tt.want {
					t.Errorf("baselineText step %d, want %d; text (-library +baselineText):\n%s", step, tt.want, diff)
				}
			}
		})
	}
}

// TestRescueText lays out pages read whole: blocks apart, furniture out.
func TestRescueText(t *testing.T) {
	tests := []struct {
		name, page, want string
	}{
		{"headings and br lines", `<body><div><h3>BANDO</h3>El alcalde<br>HACE SABER:<br>Que la calle se cierra.</div></body>`,
			"BANDO\nEl alcalde\nHACE SABER:\nQue la calle se cierra."},
		{"a heading before an inline element", `<body><h2>Notice</h2><b>Notice is given</b> that the road closes.</body>`,
			"Notice\nNotice is given that the road closes."},
		{"lists, definitions and table rows", `<body><ul><li>one</li><li>two</li></ul><dl><dt>Date</dt><dd>1 May</dd></dl><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table></body>`,
			"one\ntwo\n\nDate\n1 May\n\na\tb\nc\td"},
		{"furniture", `<body><a class="skip-link" href="#m">Skip to content</a><header><a href="/">Site</a><nav><a href="/">Home</a></nav></header>` +
			`<div id="cookie-notice">We use cookies.</div><div class="breadcrumbs">Home / News</div><main><p>The text.</p><div style="display:none">Hidden</div>` +
			`<button>Buy</button><div role="dialog">Sign in</div></main><footer>Footer</footer></body>`, "The text."},
		{"an article's header stays", `<body><header class="site"><a href="/">Site</a></header><article><header><h1>Title</h1></header><p>` +
			strings.Repeat("Text of the article, long enough for the article to be read. ", 2) + `</p></article></body>`,
			"Title\n\n" + strings.TrimSpace(strings.Repeat("Text of the article, long enough for the article to be read. ", 2))},
		{"a cookie notice without a name", `<body><p>The text.</p><div class="bottom">This website uses cookies. By continuing you agree. OK</div></body>`, "The text."},
		{"main before body", `<body><div>Menu of the site</div><main><p>Only this.</p></main></body>`, "Only this."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rescueText(parsePage(t, tt.page))); diff != "" {
				t.Errorf("rescueText (-want +got):\n%s", diff)
			}
		})
	}
}

// TestIsCookieLine tells a cookie notice's line from text that speaks of
// cookies.
func TestIsCookieLine(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"We use cookies to give you the best experience on our website.", true},
		{"Diese Website nutzt Cookies. Durch die Nutzung erklären Sie sich damit einverstanden.", true},
		{"Ce site utilise des cookies et vous donne le contrôle sur ceux que vous souhaitez activer.", true},
		{"Este sitio web utiliza cookies propias y de terceros.", true},
		{"By clicking “Accept All Cookies”, you agree to the storing of cookies on your device.", true},
		{"The bakery sold 4,000 cookies at the fair.", false},
		{"Cookies and cakes", false},
		{"We use flour from a mill in the valley.", false},
	}
	for _, tt := range tests {
		if got := isCookieLine(tt.line); got != tt.want {
			t.Errorf("isCookieLine(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestExtractRescueSwitch reads the page of issue 44 with the rescue off
// and on: off, the library's baseline gives the paragraphs and then the
// whole page glued; on, the page is read once, its blocks apart.
func TestExtractRescueSwitch(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "shortpages", "stub-two-paragraphs.html"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, on := range []bool{false, true} {
		cfg := readerSettings
		cfg.rescue = on
		p, err := extractWith(cfg, body, "html", "text/html", shortPageURL)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p.Text)
	}
	want := []string{
		"First sentence here.\n\nSecond sentence here.\n\nShortShort pageFirst sentence here.Second sentence here.",
		"Short page\n\nFirst sentence here.\n\nSecond sentence here.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("text with the rescue off, on (-want +got):\n%s", diff)
	}
}

// TestShortPageText reads a short page whole when that holds the
// library's text, else keeps the library's text without a cookie notice's
// lines; a long page's text is left as it is.
func TestShortPageText(t *testing.T) {
	doc := parsePage(t, `<body><nav><p>The menu</p></nav><p>The text.</p><div class="x">We use cookies to improve the site. Accept</div></body>`)
	long := parsePage(t, `<body><p>`+strings.Repeat("word ", maxShortPage)+`</p></body>`)
	tests := []struct {
		name, text string
		doc        *html.Node
		want       string
		whole      bool
	}{
		{"read whole", "The text.\n\nWe use cookies to improve the site. Accept", doc, "The text.", true},
		{"a line the page read whole lacks", "The menu\n\nThe text.\n\nWe use cookies to improve the site. Accept", doc, "The menu\n\nThe text.", false},
		{"a long page", "word\n\nWe use cookies to improve the site. Accept", long, "word\n\nWe use cookies to improve the site. Accept", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, whole := shortPageText(tt.text, tt.doc)
			if diff := cmp.Diff(tt.want, got); diff != "" || whole != tt.whole {
				t.Errorf("shortPageText whole %v, want %v; text (-want +got):\n%s", whole, tt.whole, diff)
			}
		})
	}
}

// BenchmarkReadShortPages times the reader on the pages of the short-page
// set, one after the other, and BenchmarkLibraryShortPages the library
// called as ../shared/tools/baseline-reader -fallback calls it, so that
// they can be compared in one run: -bench 'ShortPages'.
func BenchmarkReadShortPages(b *testing.B) {
	pages := shortPageBodies(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range pages {
			if _, err := extract(body, "html", "text/html; charset=utf-8", shortPageURL); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(pages))/b.Elapsed().Seconds(), "pages/s")
}

func BenchmarkLibraryShortPages(b *testing.B) {
	pages := shortPageBodies(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range pages {
			// the library refuses none of these pages; its errors are
			// those of a page it finds no text on
			_, _ = trafilatura.Extract(bytes.NewReader(body), trafilatura.Options{OriginalURL: shortPageURL, EnableFallback: true})
		}
	}
	b.ReportMetric(float64(b.N*len(pages))/b.Elapsed().Seconds(), "pages/s")
}

func shortPageBodies(b *testing.B) [][]byte {
	files, err := filepath.Glob(filepath.Join("testdata", "shortpages", "*.html"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no short pages: %v", err)
	}
	var pages [][]byte
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, body)
	}
	return pages
}

// BenchmarkRescueRule times what reading a page again adds to a read of
// each saved page when it does not apply (the library reads these pages
// itself): telling whether the library fell back, and whether the page is
// short.
func BenchmarkRescueRule(b *testing.B) {
	for name, body := range savedPages(b) {
		doc, err := html.Parse(bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		res, err := trafilatura.ExtractDocument(doc, readerOptions)
		if err != nil {
			b.Fatal(err)
		}
		text := nodeText(res.ContentNode)
		b.Run(strings.TrimSuffix(name, ".html"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, again := readAgain(text, res, doc); again {
					b.Fatal("the page is read again")
				}
			}
		})
	}
}
