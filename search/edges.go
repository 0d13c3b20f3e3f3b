package search

import (
	"strings"
	"unicode/utf8"

	readability "github.com/go-shiori/go-readability"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

// minOtherText is the shortest text, in bytes, that readability must find
// on a page for its text to vote: with less it found nothing to compare
// (go-trafilatura's own MinExtractedSize is 250 characters).
const minOtherText = 250

// maxEdgeLine is the longest line, in characters, that trimEdges may drop:
// a heading, a label or a teaser's title, not a paragraph.
const maxEdgeLine = 80

// edgeHeadLines is the most lines trimEdges drops at the start of a text:
// the headline, a kicker, a section's name. A longer run of short lines
// there that readability lacks is the page's own list or table (a
// product's details), and it is kept whole.
const edgeHeadLines = 2

// readabilityText runs go-trafilatura's first fall-back extractor,
// readability, on doc as the library would, and returns its text laid out
// by nodeText. Its node is handed to the library through
// opts.FallbackCandidates, so that the library does not run it again: the
// edges rule costs no extraction the library would not have made.
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

// squash is s without white space: how two extractors' texts are compared,
// since each spaces inline elements its own way.
func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// trimEdges drops from the start and from the end of text the short lines
// (at most maxEdgeLine characters) that other, readability's text of the
// same page, does not hold, up to the first line that it holds or that is
// longer: the page's headline (the reader keeps it as the title), labels,
// and the headlines and teasers of other stories that sit around the
// article. At the start it drops at most edgeHeadLines lines, else none.
// An other text shorter than minOtherText does not vote, and when every
// line would go, text is returned unchanged.
func trimEdges(text, other string) string {
	if len(other) < minOtherText {
		return text
	}
	voter := squash(other)
	lines := strings.Split(text, "\n")
	drop := func(l string) bool {
		t := strings.TrimSpace(l)
		return t != "" && utf8.RuneCountInString(t) <= maxEdgeLine && !strings.Contains(voter, squash(t))
	}
	start, dropped := 0, 0
	for start < len(lines) && dropped <= edgeHeadLines {
		if strings.TrimSpace(lines[start]) != "" {
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
		if strings.TrimSpace(lines[end-1]) != "" && !drop(lines[end-1]) {
			break
		}
		end--
	}
	if start >= end {
		return text // readability found another part of the page: no vote
	}
	return tidyText(strings.Join(lines[start:end], "\n"))
}
