package factcheck

import "github.com/factbot-dev/factbot/search"

// urlKey is the form in which URLs are compared: the canonical URL, so that
// a cited URL matches the retrieved one despite case, trailing slashes or
// tracking parameters.
func urlKey(u string) string { return search.Canonical(u) }
