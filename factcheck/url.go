package factcheck

import (
	"regexp"
	"strings"
	"sync"

	"github.com/factbot-dev/factbot/search"
)

// urlKey is the form in which URLs are compared: the canonical URL, so that
// a cited URL matches the retrieved one despite case, trailing slashes or
// tracking parameters.
func urlKey(u string) string { return search.Canonical(u) }

var urlRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`https?://[^\s<>"'()\[\]{}|\\^` + "`" + `]+`)
})

// urlsIn returns the http(s) URLs written in text, without trailing
// punctuation.
func urlsIn(text string) []string {
	var out []string
	for _, u := range urlRE().FindAllString(text, -1) {
		out = append(out, strings.TrimRight(u, ".,;:!?'\""))
	}
	return out
}
