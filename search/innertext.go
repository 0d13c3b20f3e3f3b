package search

import (
	"strings"
	"unicode"

	"github.com/go-shiori/dom"
	"golang.org/x/net/html"
)

// innerText lays the text of n out as a browser shows it, without style
// sheets: the words as written, each run of white space one space (a
// no-break space stays one), a line break for <br>, a line break before a
// block (not after it: rescueText's breakAfterBlocks adds those it needs),
// a blank line before a paragraph, heading, list, quote, table, <hr> and
// <pre> (whose white space is kept), a tab before a table's cell where no
// space is already due, a formula as its TeX ($…$, or $$…$$ as a block of
// its own); nothing of what never shows text (scripts, styles, media) nor
// of an element hidden with aria-hidden. It is what readeck's
// go-readability render.InnerText wrote, which it replaces.
func innerText(n *html.Node) string {
	var t textLayout
	t.node(n, false)
	return t.b.String()
}

// textLayout is innerText's text as it is written.
type textLayout struct {
	b     strings.Builder
	space rune // the space due before the next word, if any
	lines int  // the line breaks written since the last word
}

func (t *textLayout) node(n *html.Node, pre bool) {
	switch n.Type {
	case html.TextNode:
		t.text(n.Data, pre)
		return
	case html.ElementNode:
		if v := dom.GetAttribute(n, "aria-hidden"); dom.HasAttribute(n, "aria-hidden") && (v == "" || v == "true") {
			return
		}
		switch n.Data {
		case "head", "meta", "style", "iframe", "audio", "video", "track", "source", "canvas", "svg", "map", "area":
			return
		case "script", "math", "mjx-container":
			if expr, block, ok := tex(n); ok {
				t.formula(strings.TrimSpace(expr), block)
			}
			return
		case "br":
			t.breakLines(1, false)
		case "hr", "p", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "table":
			t.breakLines(2, true)
		case "pre":
			t.breakLines(2, true)
			pre = true
		case "th", "td":
			t.due('\t')
		case "div", "figure", "figcaption", "picture", "li", "dt", "dd", "header", "footer", "main", "section",
			"article", "aside", "nav", "address", "details", "summary", "dialog", "form", "fieldset", "caption",
			"thead", "tbody", "tfoot", "tr":
			t.breakLines(1, true)
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		t.node(c, pre)
	}
}

// text writes a text node's words, or, in <pre>, the text as it is.
func (t *textLayout) text(s string, pre bool) {
	if pre {
		t.word(s)
		return
	}
	start := -1 // of the word being read
	for i, r := range s {
		if !unicode.IsSpace(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			t.word(s[start:i])
			start = -1
		}
		if r == '\u00a0' {
			t.due(r) // a no-break space
		} else {
			t.due(' ')
		}
	}
	if start >= 0 {
		t.word(s[start:])
	}
}

// due makes space the space written before the next word, unless one is
// due already.
func (t *textLayout) due(space rune) {
	if t.space == 0 {
		t.space = space
	}
}

// word writes w after the space due, unless a line break came between.
func (t *textLayout) word(w string) {
	if t.space != 0 && t.lines == 0 {
		t.b.WriteRune(t.space)
	}
	t.b.WriteString(w)
	t.space, t.lines = 0, 0
}

// breakLines writes n line breaks; collapsed, only as many as it takes to
// make n since the last word, and none at the text's start.
func (t *textLayout) breakLines(n int, collapse bool) {
	if collapse {
		if t.lines >= n {
			return
		}
		n -= t.lines
	}
	t.lines += n
	if collapse && t.b.Len() == 0 {
		return
	}
	for range n {
		t.b.WriteByte('\n')
	}
}

// formula writes a formula's TeX, inline or as a block of its own.
func (t *textLayout) formula(expr string, block bool) {
	if !block {
		t.word("$" + expr + "$")
		return
	}
	t.breakLines(2, true)
	t.word("$$\n" + expr + "\n$$")
	t.breakLines(2, true)
}

// tex returns the TeX of a formula: MathML's <math> with an
// application/x-tex annotation, MathJax 2's <script type="math/tex">,
// MathJax 3's <mjx-container> (its data-latex); block when it is shown as
// a block of its own. ok is false for anything else.
func tex(n *html.Node) (expr string, block, ok bool) {
	switch n.Data {
	case "math":
		if a := dom.QuerySelector(n, `annotation[encoding="application/x-tex"]`); a != nil {
			return dom.TextContent(a), dom.GetAttribute(n, "display") == "block", true
		}
	case "script":
		if mime, params, _ := strings.Cut(dom.GetAttribute(n, "type"), ";"); mime == "math/tex" {
			return dom.TextContent(n), strings.Contains(params, "mode=display"), true
		}
	case "mjx-container":
		if l := dom.QuerySelector(n, "[data-latex]"); l != nil && dom.GetAttribute(l, "data-latex") != "" {
			return dom.GetAttribute(l, "data-latex"), dom.GetAttribute(n, "display") == "true", true
		}
	}
	return "", false, false
}
