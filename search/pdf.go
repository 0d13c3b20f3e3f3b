package search

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ledongthuc/pdf"
)

// PageText is the text of one page of a document that has pages (a PDF).
type PageText struct {
	// N is the page number, from 1.
	N    int    `json:"n"`
	Text string `json:"text"`
}

// PDF bounds. A small PDF can hold compressed streams that unpack to far
// more than its size, and the PDF library takes about a second to lay
// out a megabyte of drawing instructions, so the total is capped before
// any page is laid out.
const (
	MaxPDFPages        = 2000
	MaxPDFContentBytes = 4 << 20
)

// contentSize is how many bytes a page's content streams unpack to,
// counting no further than limit+1.
func contentSize(v pdf.Value, limit int64) int64 {
	switch v.Kind() {
	case pdf.Stream:
		rd := v.Reader()
		defer rd.Close()
		n, _ := io.CopyN(io.Discard, rd, limit+1)
		return n
	case pdf.Array:
		var total int64
		for i := 0; i < v.Len() && total <= limit; i++ {
			total += contentSize(v.Index(i), limit-total)
		}
		return total
	}
	return 0
}

// pdfMagic starts every PDF file.
var pdfMagic = []byte("%PDF-")

// isPDF says whether body looks like a PDF: it starts with %PDF- (some
// servers put a few bytes of junk first, which readers allow).
func isPDF(body []byte) bool {
	return bytes.Contains(body[:min(len(body), 1024)], pdfMagic)
}

// extractPDF reads the text of a PDF page by page. Glyphs are placed on
// the page by coordinates and many PDFs draw no space characters, so
// words, lines and paragraphs are told apart by the gaps between glyphs.
func extractPDF(body []byte) (p *Page, err error) {
	defer func() {
		// The PDF library panics on some malformed files.
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("the PDF could not be read: %v", r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return nil, fmt.Errorf("the PDF could not be read: %w", err)
	}
	p = &Page{PageCount: r.NumPage()}
	if p.PageCount > MaxPDFPages {
		return nil, fmt.Errorf("%w: the PDF has %d pages, more than %d", ErrTooComplex, p.PageCount, MaxPDFPages)
	}
	budget := int64(MaxPDFContentBytes)
	for n := 1; n <= p.PageCount; n++ {
		if pg := r.Page(n); !pg.V.IsNull() {
			if budget -= contentSize(pg.V.Key("Contents"), budget); budget < 0 {
				return nil, fmt.Errorf("%w: the PDF's pages unpack to more than %d bytes of drawing instructions", ErrTooComplex, MaxPDFContentBytes)
			}
		}
	}
	texts := make([]string, 0, p.PageCount)
	for n := 1; n <= p.PageCount; n++ {
		pg := r.Page(n)
		if pg.V.IsNull() {
			continue
		}
		t := layoutGlyphs(pageGlyphs(pg))
		p.Pages = append(p.Pages, PageText{N: n, Text: t})
		if t != "" {
			texts = append(texts, t)
		}
	}
	p.Text = strings.Join(texts, "\n\n")
	info := r.Trailer().Key("Info")
	p.Title = strings.Join(strings.Fields(info.Key("Title").Text()), " ")
	p.Byline = strings.Join(strings.Fields(info.Key("Author").Text()), " ")
	for _, key := range []string{"CreationDate", "ModDate"} {
		if t, ok := parsePDFDate(info.Key(key).Text()); ok {
			setPublished(p, t, true)
			break
		}
	}
	if p.Title == "" {
		if first, _, _ := strings.Cut(p.Text, "\n"); first != "" {
			p.Title = clip(first, 120)
		}
	}
	if p.Text == "" && p.PageCount > 0 {
		return p, errors.New("the PDF has no text to read (it may be scanned images)")
	}
	return p, nil
}

// layoutGlyphs joins the glyphs of one page, in the order the page draws
// them, into lines and paragraphs: a gap wider than a fraction of the
// font size is a space, a drop of more than half a line a new line, and
// a drop of about two lines or a jump back up a new paragraph.
func layoutGlyphs(glyphs []glyph) string {
	var b strings.Builder
	var prev *glyph
	lastSpace := true
	for i := range glyphs {
		g := &glyphs[i]
		if g.s == "" || g.s == "\n" {
			continue
		}
		if prev != nil {
			size := math.Max(math.Max(prev.size, g.size), 1)
			dy := prev.y - g.y
			switch {
			case dy > 1.8*size || dy < -size:
				b.WriteString("\n\n")
				lastSpace = true
			case math.Abs(dy) > 0.5*size:
				b.WriteString("\n")
				lastSpace = true
			case !lastSpace && g.s != " " && (g.x-(prev.x+prev.w) > 0.15*size || g.x < prev.x-0.5*size):
				b.WriteString(" ")
				lastSpace = true
			}
		}
		s := expandLigature(g.s)
		if s == " " && lastSpace {
			prev = g
			continue
		}
		b.WriteString(s)
		lastSpace = strings.TrimSpace(s) == ""
		prev = g
	}
	return tidyText(b.String())
}

// expandLigature spells out the typographic ligatures (ﬁ, ﬂ, …) that
// fonts draw as one glyph, so that the words read as typed.
func expandLigature(s string) string {
	switch s {
	case "\ufb00":
		return "ff"
	case "\ufb01":
		return "fi"
	case "\ufb02":
		return "fl"
	case "\ufb03":
		return "ffi"
	case "\ufb04":
		return "ffl"
	case "\ufb05", "\ufb06":
		return "st"
	}
	return s
}

// pdfDate matches a PDF date string: D:YYYYMMDDHHmmSSOHH'mm', every part
// after the year optional.
var pdfDate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?'?$`)
})

// parsePDFDate reads a date from a PDF's document information.
func parsePDFDate(s string) (time.Time, bool) {
	m := pdfDate().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return time.Time{}, false
	}
	num := func(i, def int) int {
		if m[i] == "" {
			return def
		}
		n, _ := strconv.Atoi(m[i])
		return n
	}
	loc := time.UTC
	if m[7] == "+" || m[7] == "-" {
		off := num(8, 0)*3600 + num(9, 0)*60
		if m[7] == "-" {
			off = -off
		}
		loc = time.FixedZone("", off)
	}
	t := time.Date(num(1, 0), time.Month(num(2, 1)), num(3, 1), num(4, 0), num(5, 0), num(6, 0), 0, loc)
	if t.Year() < 1990 || t.Month() != time.Month(num(2, 1)) {
		return time.Time{}, false
	}
	return t.UTC(), true
}
