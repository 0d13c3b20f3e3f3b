package search

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// shortPage is one page of the short-page set (testdata/shortpages):
// NAME.html, and in NAME.txt the text it must be read as, one block a line
// (a paragraph, a heading, a list item, a table cell, a definition term or
// description, a line ended by <br>, a div of text), each block as often
// as the page shows it; a line starting with "!" is text of the page's
// furniture that must not be read, and one starting with "#" says what the
// page is. A block of the page that is neither (the page's own headline,
// which the reader gives as the page's title) may be read or not.
type shortPage struct {
	name      string
	body      []byte
	blocks    []string
	furniture []string
}

func loadShortPages(t *testing.T) []shortPage {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "shortpages", "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	var pages []shortPage
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(f, ".html") + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		pg := shortPage{name: strings.TrimSuffix(filepath.Base(f), ".html"), body: body}
		for _, l := range strings.Split(string(want), "\n") {
			switch {
			case l == "" || strings.HasPrefix(l, "#"):
			case strings.HasPrefix(l, "!"):
				pg.furniture = append(pg.furniture, l[1:])
			default:
				pg.blocks = append(pg.blocks, l)
			}
		}
		pages = append(pages, pg)
	}
	return pages
}

// shortText puts a text in the form the short-page scorer compares:
// lines and tab-separated cells as they are, white space within them
// as one space.
func shortText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		for j, c := range cells {
			cells[j] = strings.Join(strings.Fields(c), " ")
		}
		lines[i] = strings.Join(cells, "\t")
	}
	return strings.Join(lines, "\n")
}

// shortProblems scores a text read from a short page: it is clean when
// it has no problem, that is when every expected block is in it as often
// as the page shows it (not left out, not read twice), standing apart
// (starting and ending a line, or a table cell: not glued to a
// neighbour), and no text of the page's furniture is in it.
func shortProblems(pg shortPage, text string) []string {
	return shortProblemsApart(pg, text, lineBreak)
}

// lineBreak says whether c ends a line or a table cell; anySpace whether
// it is white space.
func lineBreak(c byte) bool { return c == '\n' || c == '\t' }
func anySpace(c byte) bool  { return c == '\n' || c == '\t' || c == ' ' }

// shortProblemsApart is shortProblems with blocks standing apart where
// apart says they do (lineBreak, or anySpace for the looser measure
// TestShortPagesScore also logs: a block on the same line as the next,
// a space apart, is then not glued).
func shortProblemsApart(pg shortPage, text string, apart func(byte) bool) []string {
	text = shortText(text)
	var problems []string
	for i, b := range pg.blocks {
		if slices.Index(pg.blocks, b) < i {
			continue // counted at its first line
		}
		want := 0
		for _, other := range pg.blocks {
			want += strings.Count(other, b)
		}
		if got := strings.Count(text, b); got != want {
			problems = append(problems, fmt.Sprintf("%q read %d times, not %d", b, got, want))
			continue
		}
		if !standsApart(text, b, apart) {
			problems = append(problems, fmt.Sprintf("%q glued to a neighbour", b))
		}
	}
	for _, f := range pg.furniture {
		if strings.Contains(text, f) {
			problems = append(problems, fmt.Sprintf("furniture %q kept", f))
		}
	}
	return problems
}

// standsApart reports whether some occurrence of b in text starts and
// ends the text or has a byte on each side where apart says so.
func standsApart(text, b string, apart func(byte) bool) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], b)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(b)
		if (start == 0 || apart(text[start-1])) && (end == len(text) || apart(text[end])) {
			return true
		}
		from = start + 1
	}
}

// shortTokenF1 is the F1 of the words of text against the words of the
// expected blocks, each word counted as often as it occurs (lower case;
// a word is a run of letters and digits).
func shortTokenF1(pg shortPage, text string) float64 {
	words := func(s string) map[string]int {
		m := map[string]int{}
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			m[w]++
		}
		return m
	}
	want, got := words(strings.Join(pg.blocks, "\n")), words(text)
	common, nWant, nGot := 0, 0, 0
	for w, n := range want {
		common += min(n, got[w])
		nWant += n
	}
	for _, n := range got {
		nGot += n
	}
	if common == 0 {
		return 0
	}
	p, r := float64(common)/float64(nGot), float64(common)/float64(nWant)
	return 2 * p * r / (p + r)
}

// shortPageURL is the address the short pages are read at.
var shortPageURL = &url.URL{Scheme: "https", Host: "example.org", Path: "/page"}

// TestShortPages reads every page of the short-page set with the reader
// and asserts that it reads it cleanly (shortProblems): each block once,
// standing apart, and none of the page's furniture.
func TestShortPages(t *testing.T) {
	pages := loadShortPages(t)
	if len(pages) < 30 {
		t.Fatalf("the short-page set has %d pages, want at least 30", len(pages))
	}
	for _, pg := range pages {
		t.Run(pg.name, func(t *testing.T) {
			p, err := extract(pg.body, "html", "text/html; charset=utf-8", shortPageURL)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string(nil), shortProblems(pg, p.Text)); diff != "" {
				t.Errorf("problems (-want +got):\n%s\ntext:\n%s", diff, p.Text)
			}
		})
	}
}

// TestShortPagesScore logs, for the reader, the reader without reading
// short pages again (reader-norescue), the library's content laid out by
// the reader without its rules (reader-plain), and go-trafilatura called
// plainly in its default mode without and with its fall-backs (its
// ContentText, as ../shared/tools/baseline-reader prints it), how many
// pages of the short-page set each reads cleanly, how many it reads
// cleanly by the looser measure (blocks a space apart count as apart), and
// the mean word F1; and it asserts that the reader reads at least as many
// pages cleanly as each of the others, by both measures (docs/reader.md).
func TestShortPagesScore(t *testing.T) {
	pages := loadShortPages(t)
	clean, spaced := map[string]int{}, map[string]int{}
	names := []string{"reader", "reader-norescue", "reader-plain", "trafilatura", "trafilatura-fallback"}
	for _, ex := range corpusExtractors() {
		if !slices.Contains(names, ex.name) {
			continue
		}
		f1 := 0.0
		for _, pg := range pages {
			text, _, err := ex.run(pg.body, shortPageURL)
			if err != nil {
				t.Logf("%s %s: %v", ex.name, pg.name, err)
			}
			if problems := shortProblems(pg, text); len(problems) == 0 {
				clean[ex.name]++
			} else if testing.Verbose() && os.Getenv("FACTBOT_SHORT_PROBLEMS") != "" {
				t.Logf("%s %s: %s", ex.name, pg.name, strings.Join(problems, "; "))
			}
			if len(shortProblemsApart(pg, text, anySpace)) == 0 {
				spaced[ex.name]++
			}
			f1 += shortTokenF1(pg, text)
		}
		t.Logf("%-22s clean %2d of %d, a space apart %2d, word F1 %.3f", ex.name, clean[ex.name], len(pages), spaced[ex.name], f1/float64(len(pages)))
	}
	for _, n := range names[1:] {
		if clean["reader"] < clean[n] || spaced["reader"] < spaced[n] {
			t.Errorf("the reader reads %d pages cleanly (%d a space apart), %s %d (%d)", clean["reader"], spaced["reader"], n, clean[n], spaced[n])
		}
	}
}
