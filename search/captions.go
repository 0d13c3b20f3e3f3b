package search

import (
	"strings"
	"unicode/utf8"

	"github.com/go-shiori/dom"
	"golang.org/x/net/html"
)

// A candidate rule, measured in the sixth sitting and not kept
// (docs/reader.md): it is here, behind readerConfig.captions, so that its
// measurement can be reproduced from this commit.

// captionSelector picks the elements whose text describes a picture: a
// figure's caption, and what pages mark as a caption or a photo credit.
const captionSelector = "figcaption, [class*=caption i], [class*=credit i]"

// maxCaption is the longest caption, in characters without white space,
// whose lines may be dropped: a longer element marked so is a wrapper of
// the page's content, not a caption.
const maxCaption = 300

// captionTexts returns the texts of doc's captions (captionSelector), each
// without white space. It is read before the library cleans the document.
func captionTexts(doc *html.Node) []string {
	var out []string
	for _, n := range dom.QuerySelectorAll(doc, captionSelector) {
		if s := squash(dom.TextContent(n)); s != "" && utf8.RuneCountInString(s) <= maxCaption {
			out = append(out, s)
		}
	}
	return out
}

// dropCaptionLines removes from text each line that is wholly inside one
// of caps (compared without white space): go-trafilatura drops a <figure>
// whole, and this drops the captions that pages lay out without one.
func dropCaptionLines(text string, caps []string) string {
	if len(caps) == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	kept := lines[:0]
	for _, l := range lines {
		s := squash(l)
		if s != "" && containsAny(caps, s) {
			continue
		}
		kept = append(kept, l)
	}
	return tidyText(strings.Join(kept, "\n"))
}

func containsAny(texts []string, s string) bool {
	for _, t := range texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}
