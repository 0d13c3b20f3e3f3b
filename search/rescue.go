package search

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/go-shiori/dom"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

// This file replaces go-trafilatura's last resort on short pages. When the
// library's extraction and its fall-backs find less than 250 characters
// (Config.MinExtractedSize), it throws their result away and runs its
// "baseline": the text of the page's <article>, else its <p>, <pre>,
// <blockquote>, <q> and <code> elements, else the whole body. Each of these
// runs blocks together (an article's or a body's text comes as one line
// with no break at all), the paragraph step drops headings, list items,
// table cells and every line that is not in a <p>, and the two whole-body
// steps add the body's text after the paragraphs already found, so a page
// of two paragraphs is read twice, once glued ("ShortShort pageFirst
// sentence here.Second sentence here."). rescueText reads such a page
// again, once, with its blocks apart and without its furniture.

// minBaselineText is the length, in characters, above which a step of the
// library's baseline is taken (utf8.RuneCountInString > 100 in
// go-trafilatura's baseline.go).
const minBaselineText = 100

// baselineStep is the step of go-trafilatura's baseline that gave its text.
type baselineStep int

const (
	fromArticle    baselineStep = iota + 1 // the <article>'s text, in one paragraph
	fromParagraphs                         // the <p>, <pre>, <blockquote>, <q> and <code> elements
	fromBody                               // the body's text, after the paragraphs already found
	fromDocument                           // the document's text, glued, after the paragraphs
)

// baselineText is the text go-trafilatura's baseline gives for doc (its
// ExtractResult.ContentText), for a page without a JSON-LD articleBody: the
// reader compares it with the library's text to tell that the library fell
// back to it. It follows go-trafilatura v1.12.2's baseline.go step by step.
func baselineText(doc *html.Node) (string, baselineStep) {
	doc = dom.Clone(doc, true)
	cleaned := dom.QuerySelectorAll(doc, `aside, footer, div[id*="footer"], div[class*="footer"], script, style`)
	for i := len(cleaned) - 1; i >= 0; i-- {
		if cleaned[i].Parent != nil {
			cleaned[i].Parent.RemoveChild(cleaned[i])
		}
	}
	if article := dom.QuerySelector(doc, "article"); article != nil {
		if t := squashSpaces(dom.TextContent(article)); utf8.RuneCountInString(t) > minBaselineText {
			return t, fromArticle
		}
	}
	var paras []string
	seen := map[string]bool{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "blockquote", "pre", "q", "code", "p":
				if t := squashSpaces(dom.TextContent(n)); !seen[t] {
					seen[t] = true
					paras = append(paras, t)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if t := squashSpaces(strings.Join(paras, " ")); utf8.RuneCountInString(t) > minBaselineText {
		return t, fromParagraphs
	}
	if body := dom.QuerySelector(doc, "body"); body != nil {
		if t := squashSpaces(iterText(body, "\n")); utf8.RuneCountInString(t) > minBaselineText {
			return t, fromBody
		}
	}
	return squashSpaces(dom.TextContent(doc)), fromDocument
}

// squashSpaces is go-trafilatura's trim: words joined by one space.
func squashSpaces(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// iterText is go-trafilatura's etree.IterText: the text nodes under n,
// with sep where the depth changes and for each void element.
func iterText(n *html.Node, sep string) string {
	var b strings.Builder
	last := 0
	var walk func(*html.Node, int)
	walk = func(n *html.Node, level int) {
		if n.Type == html.ElementNode && dom.IsVoidElement(n) {
			b.WriteString(sep)
		} else if n.Type == html.TextNode {
			if level != last {
				b.WriteString(sep)
			}
			b.WriteString(n.Data)
		}
		last = level
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, level+1)
		}
	}
	walk(n, 0)
	return strings.TrimSpace(b.String())
}

// hasArticleBody reports whether the page declares its text in JSON-LD
// (an articleBody), which the library's baseline takes first: the reader
// leaves such a page's text to the library.
func hasArticleBody(doc *html.Node) bool {
	for _, s := range dom.QuerySelectorAll(doc, `script[type="application/ld+json"]`) {
		if strings.Contains(strings.ToLower(dom.TextContent(s)), "articlebody") {
			return true
		}
	}
	return false
}

// fellBack says which step of its baseline the library's result comes
// from, or 0 when it is not the baseline's: the baseline's content is only
// paragraphs of plain text, and its text is baselineText's for the page.
func fellBack(content *html.Node, libText string, doc *html.Node) baselineStep {
	if content == nil {
		return 0
	}
	for c := content.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.Data != "p" {
			return 0
		}
		for g := c.FirstChild; g != nil; g = g.NextSibling {
			if g.Type == html.ElementNode {
				return 0
			}
		}
	}
	if hasArticleBody(doc) {
		return 0
	}
	if text, step := baselineText(doc); text == libText {
		return step
	}
	return 0
}

// maxRescuedParagraphs is the longest text, in characters, of the
// baseline's paragraph step that rescueText reads again: the library's own
// least text (Config.MinExtractedSize). A page with more text in <p>
// elements is read by the baseline as paragraphs apart, and its
// paragraphs were the better text on the long pages it was tried on
// (docs/reader.md).
const maxRescuedParagraphs = 250

// rescues says whether the reader reads a page again with rescueText,
// given the baseline's step that gave the library's text: always when that
// text is glued or repeated (the article's text, the body's or the
// document's), and for the paragraph step only on a short page, where the
// headings, list items and table cells the step leaves out are much of
// the page.
func rescues(step baselineStep, libText string) bool {
	switch step {
	case fromArticle, fromBody, fromDocument:
		return true
	case fromParagraphs:
		return utf8.RuneCountInString(libText) < maxRescuedParagraphs
	}
	return false
}

// maxShortPage is the most text, in characters, of a short page: all the
// text of its body, its furniture included (pageTextLen). shortPageText
// reads only such a page whole. Short pages of the kinds people paste have
// a few hundred (testdata/shortpages: at most 663, counted with single
// spaces); on the tuning halves of the two long-page corpora, reading
// pages of up to 2,000 characters of extracted text whole lost on both,
// and every page it lost on had more than 1,900 (docs/reader.md).
const maxShortPage = 1500

// readAgain is the reader's text of a page, given the library's result
// and text laid out (text): the page read again whole by rescueText where
// the library fell back to its baseline (rescues), or where the page is
// short and its text holds all the library's (shortPageText, which drops
// a cookie notice's lines from the library's text of a short page it does
// not read whole); else text.
// Where the library fell back, the page is read again only when that
// finds at least half as much text as the baseline (compared without
// white space). It reports whether it read the page again.
func readAgain(text string, res *trafilatura.ExtractResult, doc *html.Node) (string, bool) {
	if rescues(fellBack(res.ContentNode, res.ContentText, doc), res.ContentText) {
		// a page whose text is where rescueText does not look (in a
		// <noscript>, which the parser keeps as raw text) keeps the
		// library's text
		if again := rescueText(doc); 2*len(squash(again)) >= len(squash(res.ContentText)) {
			return again, true
		}
	}
	return shortPageText(text, doc)
}

// shortPageText reads a short page (pageTextLen at most maxShortPage)
// whole (rescueText) when that holds every line of the library's text
// (compared without white space), a cookie notice's lines aside: on a short
// page the library leaves out headings, list items and FAQ questions, and
// runs inline elements into the next word, that the page's own text has.
// A short page that it does not read whole keeps the library's text
// without the lines of a cookie notice (isCookieLine), and any other page
// the library's text as it is; whole says which.
func shortPageText(text string, doc *html.Node) (out string, whole bool) {
	if utf8.RuneCountInString(text) > maxShortPage || pageTextLen(doc, maxShortPage) > maxShortPage {
		return text, false
	}
	again := rescueText(doc)
	held := squash(again)
	lines := strings.Split(text, "\n")
	kept := make([]string, 0, len(lines))
	whole = true
	for _, l := range lines {
		if isCookieLine(l) {
			continue
		}
		kept = append(kept, l)
		if l != "" && !strings.Contains(held, squash(l)) {
			whole = false
		}
	}
	if whole {
		return again, true
	}
	return tidyText(strings.Join(kept, "\n")), false
}

// pageTextLen counts the characters of the text of doc's body, without
// white space and without the text of elements that are not shown (head,
// script, style, noscript, template), up to a little past limit.
func pageTextLen(doc *html.Node, limit int) int {
	n := 0
	var walk func(*html.Node)
	walk = func(x *html.Node) {
		if n > limit {
			return
		}
		switch x.Type {
		case html.ElementNode:
			switch x.Data {
			case "head", "script", "style", "noscript", "template":
				return
			}
		case html.TextNode:
			for _, r := range x.Data {
				if !unicode.IsSpace(r) {
					n++
				}
			}
		}
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return n
}

// rescueText lays out the page the library's baseline reads: the page's
// <article> when its text is longer than minBaselineText (as the baseline
// takes it), else its <main> (or the element with role="main"), else its
// body, without the page's furniture (dropFurniture) and with every block
// apart, as a browser shows it (innerText): paragraphs, headings,
// list items, table rows (cells apart by a tab), definition terms and
// descriptions, <br> lines and block-level divs. Lines of a cookie or
// consent notice are dropped (isCookieLine).
func rescueText(doc *html.Node) string {
	doc = dom.Clone(doc, true)
	dropFurniture(doc)
	breakAfterBlocks(doc)
	root := dom.QuerySelector(doc, "article")
	if root == nil || utf8.RuneCountInString(squashSpaces(dom.TextContent(root))) <= minBaselineText {
		root = dom.QuerySelector(doc, `main, [role="main"]`)
	}
	if root == nil {
		root = dom.QuerySelector(doc, "body")
	}
	if root == nil {
		root = doc
	}
	lines := strings.Split(tidyText(innerText(root)), "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !isCookieLine(l) {
			kept = append(kept, l)
		}
	}
	return tidyText(strings.Join(kept, "\n"))
}

// isBlock reports whether a browser lays out the element named tag as a
// block.
func isBlock(tag string) bool {
	switch tag {
	case "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "li", "dt", "dd", "table", "tr", "caption",
		"blockquote", "pre", "hr", "section", "article", "header", "main", "address", "details", "summary",
		"figure", "figcaption", "form", "fieldset", "center":
		return true
	}
	return false
}

// breakAfterBlocks puts a line break after each block element that text
// or an inline element follows (a heading, then a line of text ended by
// <br>): innerText breaks a line before a block but not after it,
// and would run the heading into the line.
func breakAfterBlocks(doc *html.Node) {
	var blocks []*html.Node
	for _, n := range dom.GetElementsByTagName(doc, "*") {
		if !isBlock(n.Data) {
			continue
		}
		next := n.NextSibling
		for next != nil && next.Type == html.TextNode && strings.TrimSpace(next.Data) == "" {
			next = next.NextSibling
		}
		if next != nil && (next.Type == html.TextNode || next.Type == html.ElementNode && !isBlock(next.Data) && next.Data != "br") {
			blocks = append(blocks, n)
		}
	}
	for _, n := range blocks {
		n.Parent.InsertBefore(&html.Node{Type: html.ElementNode, Data: "br"}, n.NextSibling)
	}
}

// furnitureTag reports whether the element named tag never holds a
// page's own text: scripts, forms' controls, navigation, side bars and
// footers (the library's baseline drops asides and footers too).
func furnitureTag(tag string) bool {
	switch tag {
	case "script", "style", "noscript", "template", "head", "nav", "aside", "footer", "dialog",
		"button", "select", "textarea", "svg", "iframe":
		return true
	}
	return false
}

// furnitureRole reports whether role is the ARIA role of page furniture.
func furnitureRole(role string) bool {
	switch strings.ToLower(strings.TrimSpace(role)) {
	case "navigation", "banner", "contentinfo", "search", "dialog", "alertdialog", "complementary", "menu", "menubar":
		return true
	}
	return false
}

// rescuePatterns are the regular expressions of the rescue, compiled on
// first use: furnitureName matches an id or a class that names page
// furniture (a cookie or consent notice anywhere in the name, or a word of
// it that names navigation, a menu, a footer, a breadcrumb trail, a skip
// link, sharing buttons, a form to comment, or text meant only for screen
// readers); hiddenStyle an inline style that hides its element; cookieWord
// and cookieVerb, together, a line of a cookie or consent notice whose
// element does not say what it is (isCookieLine).
var rescuePatterns = sync.OnceValue(func() *struct{ furnitureName, hiddenStyle, cookieWord, cookieVerb *regexp.Regexp } {
	return &struct{ furnitureName, hiddenStyle, cookieWord, cookieVerb *regexp.Regexp }{
		furnitureName: regexp.MustCompile(`(?i)cookie|consent|gdpr|(^|[^a-z])(nav|navbar|navigation|menu|breadcrumbs?|skip|skip-link|skiplink|share|sharing|sharedaddy|share-buttons|social|respond|comment-respond|comment-form|footer|site-footer|sr-only|visually-hidden|screen-reader-text|masthead|topbar|toolbar|sidebar)([^a-z]|$)`),
		hiddenStyle:   regexp.MustCompile(`(?i)display\s*:\s*none|visibility\s*:\s*hidden`),
		cookieWord:    regexp.MustCompile(`(?i)\bcookies?\b`),
		cookieVerb:    regexp.MustCompile(`(?i)(^|\PL)(use|uses|using|accept\pL*|consent|agree|utilis\pL*|acept\pL*|utiliz\pL*|usamos|usa|verwende\pL*|nutz\pL*|akzept\pL*|zustimm\pL*|einverstanden|privacy|datenschutz\pL*|confidentialit\pL*|privacidad|consentimiento|consentement)(\PL|$)`),
	}
})

// dropFurniture removes from doc the elements that are page furniture:
// furnitureTag; elements with a furniture role, id or class
// (furnitureRole, rescuePatterns' furnitureName); hidden elements; and a <header> that is
// a site's bar, not an article's heading: one with a navigation or a list
// in it, or without a heading.
func dropFurniture(doc *html.Node) {
	var drop []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if isFurniture(c) {
				drop = append(drop, c)
				continue
			}
			walk(c)
		}
	}
	walk(doc)
	for _, n := range drop {
		n.Parent.RemoveChild(n)
	}
}

func isFurniture(n *html.Node) bool {
	if furnitureTag(n.Data) {
		return true
	}
	if n.Data == "body" || n.Data == "html" || n.Data == "main" || n.Data == "article" {
		return false
	}
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "aria-hidden":
			if a.Val == "" || a.Val == "true" {
				return true
			}
		case "role":
			if furnitureRole(a.Val) {
				return true
			}
		case "style":
			if rescuePatterns().hiddenStyle.MatchString(a.Val) {
				return true
			}
		case "id", "class":
			if rescuePatterns().furnitureName.MatchString(a.Val) {
				return true
			}
		}
	}
	if n.Data == "header" {
		hasHeading := false
		for _, d := range dom.GetElementsByTagName(n, "*") {
			switch d.Data {
			case "nav", "ul", "ol", "form":
				return true
			case "h1", "h2", "h3", "h4", "h5", "h6":
				hasHeading = true
			}
		}
		return !hasHeading
	}
	return false
}

// maxCookieLine is the longest line, in characters, that isCookieLine
// takes for a cookie notice.
const maxCookieLine = 300

// isCookieLine reports whether line is a line of a cookie or consent
// notice: a line of at most maxCookieLine characters that speaks of
// cookies and of using, accepting or consenting to them, in the languages
// the reader meets most.
func isCookieLine(line string) bool {
	re := rescuePatterns()
	return utf8.RuneCountInString(line) <= maxCookieLine && re.cookieWord.MatchString(line) && re.cookieVerb.MatchString(line)
}
