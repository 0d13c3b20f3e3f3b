package search

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/go-shiori/dom"
	readability "github.com/go-shiori/go-readability"
	distiller "github.com/markusmobius/go-domdistiller"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

// minOtherText is the shortest text, in bytes, that another extractor
// must find on a page for its text to vote: with less it found nothing to
// compare (go-trafilatura's own MinExtractedSize is 250 characters).
const minOtherText = 250

// maxEdgeLine is the longest line, in characters, that trimEdges may drop:
// a heading, a label or a teaser's title, not a paragraph.
const maxEdgeLine = 80

// edgeHeadLines is the most lines trimEdges drops at the start of a text:
// the headline, a kicker, a section's name. A longer run of short lines
// there that the other extractors lack is the page's own list or table
// (a product's details), and it is kept whole.
const edgeHeadLines = 2

// readabilityText runs go-trafilatura's first fall-back extractor,
// readability, on doc as the library would, and returns its text laid out
// by nodeText. Its node is handed to the library through
// opts.FallbackCandidates, so that the library does not run it again.
func readabilityText(doc *html.Node, opts *trafilatura.Options) string {
	r, err := readability.FromDocument(doc, opts.OriginalURL)
	if err != nil || r.Node == nil {
		return ""
	}
	text := nodeText(r.Node) // before the library cleans the node if it picks it
	if opts.EnableFallback {
		opts.FallbackCandidates = &trafilatura.FallbackCandidates{Readability: r.Node}
	}
	return text
}

// distillerText runs the library's second fall-back extractor, DOM
// Distiller, on a copy of doc as the library would, and returns its text
// laid out by nodeText.
func distillerText(doc *html.Node, pageURL *url.URL) string {
	r, err := distiller.Apply(dom.Clone(doc, true), &distiller.Options{OriginalURL: pageURL, SkipPagination: true})
	if err != nil || r == nil || r.Node == nil {
		return ""
	}
	return nodeText(r.Node)
}

// trimEdgesLazily is trimEdges(text, read, dist()), which runs dist only
// when its vote can matter: not when readability votes and holds, or
// finds too long to drop, the first and the last line of text, since then
// no line is dropped whatever DOM Distiller finds.
func trimEdgesLazily(text, read string, dist func() string) string {
	if len(read) >= minOtherText {
		held := func(l string) bool {
			return utf8.RuneCountInString(l) > maxEdgeLine || strings.Contains(squash(read), squash(l))
		}
		var first, last string
		for _, l := range strings.Split(text, "\n") {
			if t := strings.TrimSpace(l); t != "" {
				if first == "" {
					first = t
				}
				last = t
			}
		}
		if first == "" || held(first) && held(last) {
			return text
		}
	}
	return trimEdges(text, read, dist())
}

// squash is s without white space: how two extractors' texts are compared,
// since each spaces inline elements its own way.
func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// trimEdges drops from the start and from the end of text the short lines
// (at most maxEdgeLine characters) that none of the other extractors'
// texts holds, up to the first line that one of them holds or that is
// longer: the page's headline (the reader keeps it as the title), labels,
// and the headlines and teasers of other stories that sit around the
// article. At the start it drops at most edgeHeadLines lines, else none.
// Other texts shorter than minOtherText do not vote; with none left, or
// when every line would go, text is returned unchanged.
func trimEdges(text string, others ...string) string {
	var voters []string
	for _, o := range others {
		if len(o) >= minOtherText {
			voters = append(voters, squash(o))
		}
	}
	if len(voters) == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	drop := func(l string) bool {
		t := strings.TrimSpace(l)
		if t == "" {
			return false
		}
		if utf8.RuneCountInString(t) > maxEdgeLine {
			return false
		}
		s := squash(t)
		for _, v := range voters {
			if strings.Contains(v, s) {
				return false
			}
		}
		return true
	}
	start, dropped := 0, 0
	for start < len(lines) && dropped <= edgeHeadLines {
		t := strings.TrimSpace(lines[start])
		if t != "" {
			if !drop(lines[start]) {
				break
			}
			dropped++
		}
		start++
	}
	if dropped > edgeHeadLines {
		start = 0 // a longer run of short lines is the page's own list
	}
	end := len(lines)
	for end > start {
		t := strings.TrimSpace(lines[end-1])
		if t != "" && !drop(lines[end-1]) {
			break
		}
		end--
	}
	if start >= end {
		return text // the others found another part of the page: no vote
	}
	return tidyText(strings.Join(lines[start:end], "\n"))
}
