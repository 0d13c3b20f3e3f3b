package search

import (
	"encoding/json"
	"strings"

	"golang.org/x/net/html"
)

// maxLDDepth bounds how deep declaresClaimReview looks into a JSON-LD
// document.
const maxLDDepth = 8

// hasClaimReview reports whether a parsed page declares itself a
// published fact-check: a schema.org ClaimReview in its JSON-LD (at the
// top, in an array, or under @graph, mainEntity or hasPart) or as a
// microdata itemtype. Fact-checkers mark their articles up so for search
// engines, whatever the address (the Washington Post's Fact Checker
// under /politics/…), so a leak-free check can refuse such a page once
// read.
func hasClaimReview(doc *html.Node) bool {
	found := false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if found || n == nil {
			return
		}
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				if a.Key == "itemtype" && isClaimReviewType(a.Val) {
					found = true
					return
				}
			}
			if n.Data == "script" && isLDJSON(n) {
				var b strings.Builder
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.TextNode {
						b.WriteString(c.Data)
					}
				}
				var v any
				if json.Unmarshal([]byte(b.String()), &v) == nil && declaresClaimReview(v, 0) {
					found = true
					return
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return found
}

func isLDJSON(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Key == "type" {
			t, _, _ := strings.Cut(a.Val, ";")
			return strings.EqualFold(strings.TrimSpace(t), "application/ld+json")
		}
	}
	return false
}

func declaresClaimReview(v any, depth int) bool {
	if depth > maxLDDepth {
		return false
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if declaresClaimReview(e, depth+1) {
				return true
			}
		}
	case map[string]any:
		switch t := x["@type"].(type) {
		case string:
			if isClaimReviewType(t) {
				return true
			}
		case []any:
			for _, e := range t {
				if s, ok := e.(string); ok && isClaimReviewType(s) {
					return true
				}
			}
		}
		for _, k := range []string{"@graph", "mainEntity", "hasPart"} {
			if declaresClaimReview(x[k], depth+1) {
				return true
			}
		}
	}
	return false
}

// isClaimReviewType reports whether t names schema.org's ClaimReview
// ("ClaimReview", "schema:ClaimReview", "https://schema.org/ClaimReview"),
// and for an itemtype, whether one of its space-separated types does.
func isClaimReviewType(t string) bool {
	for _, f := range strings.Fields(t) {
		f = strings.TrimSuffix(f, "/")
		if i := strings.LastIndexAny(f, "/:"); i >= 0 {
			f = f[i+1:]
		}
		if strings.EqualFold(f, "ClaimReview") {
			return true
		}
	}
	return false
}
