package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// minLead is the shortest description, in characters, that addLead puts
// before the text: a sentence or two that sums the article up, not a
// site's tag line.
const minLead = 120

// addLead puts the page's description (go-trafilatura's
// Metadata.Description, from the page's meta tags: og:description,
// description, twitter:description and the like) as a
// paragraph before text when the page shows it to its readers, word for
// word, and text does not hold it: the article's lead or standfirst,
// which the library often leaves out because it stands outside the
// article's body. A description that the page does not show (a summary
// written for search engines and link previews) or that is shorter than
// minLead is not added. Texts are compared without white space.
func addLead(text, desc string, doc *html.Node) string {
	desc = strings.TrimSpace(desc)
	if utf8.RuneCountInString(desc) < minLead {
		return text
	}
	lead := squash(desc)
	if strings.Contains(squash(text), lead) || !shows(doc, lead) {
		return text
	}
	if strings.TrimSpace(text) == "" {
		return desc
	}
	return desc + "\n\n" + text
}

// shows reports whether the text of doc's body holds s, both without
// white space. The head, and the text of script, style, noscript, template
// and textarea elements, are not what the page shows, and are left out.
func shows(doc *html.Node, s string) bool {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.ElementNode:
			switch n.Data {
			case "head", "script", "style", "noscript", "template", "textarea", "title", "meta":
				return
			}
		case html.TextNode:
			for _, r := range n.Data {
				if !unicode.IsSpace(r) {
					b.WriteRune(r)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return strings.Contains(b.String(), s)
}
