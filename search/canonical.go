package search

import (
	"net/url"
	"strings"
	"sync"
	"unicode"
)

// trackingParams are query parameters that identify a campaign or a
// click, not a page.
var trackingParams = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"fbclid": true, "gclid": true, "dclid": true, "gbraid": true, "wbraid": true,
		"msclkid": true, "yclid": true, "twclid": true, "ttclid": true, "li_fat_id": true,
		"igshid": true, "igsh": true, "mc_cid": true, "mc_eid": true, "mkt_tok": true,
		"_ga": true, "_gl": true, "_hsenc": true, "_hsmi": true, "oly_anon_id": true, "oly_enc_id": true,
		"ref": true, "ref_src": true, "ref_url": true, "referrer": true,
		"cmpid": true, "ocid": true, "ncid": true, "s_cid": true, "spm": true, "smid": true,
		"sr_share": true, "at_medium": true, "at_campaign": true, "guccounter": true,
	}
})

func isTracking(key string) bool {
	k := strings.ToLower(key)
	return strings.HasPrefix(k, "utm_") || trackingParams()[k]
}

// Canonical returns the form of a URL used to tell whether two URLs name
// the same page: lowercase scheme and host, no "www." prefix, no default
// port, no user info, no fragment, no trailing slash, tracking parameters
// (utm_*, fbclid, gclid, ref, …) removed and the remaining parameters
// sorted. A string that does not parse as an absolute URL is returned
// trimmed but otherwise unchanged.
func Canonical(raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return raw
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	// Every trailing dot and every leading "www.", so that the form of a
	// canonical URL is itself (FuzzCanonical).
	host = strings.TrimRight(host, ".")
	for strings.HasPrefix(host, "www.") {
		host = strings.TrimPrefix(host, "www.")
	}
	port := u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") { // IPv6 literal
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	path := u.EscapedPath()
	path = strings.TrimRight(path, "/")

	var b strings.Builder
	b.WriteString(scheme)
	b.WriteString("://")
	b.WriteString(host)
	b.WriteString(path)
	if u.RawQuery != "" {
		q, err := url.ParseQuery(u.RawQuery)
		if err != nil {
			b.WriteString("?")
			b.WriteString(u.RawQuery)
		} else {
			for k := range q {
				if isTracking(k) {
					delete(q, k)
				}
			}
			if enc := q.Encode(); enc != "" {
				b.WriteString("?")
				b.WriteString(enc)
			}
		}
	}
	return b.String()
}

// titleKey is the normalised form of a result title used to spot copies of
// one article on several sites: lowercase letters and digits only, with a
// trailing " - Site Name" or " | Site Name" removed. Titles too short to
// identify an article give "".
func titleKey(title string) string {
	t := strings.TrimSpace(title)
	for _, sep := range []string{" | ", " - ", " — ", " – "} {
		if i := strings.LastIndex(t, sep); i > 0 && len(t)-i <= 40 {
			t = t[:i]
		}
	}
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(t) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	k := b.String()
	if len(strings.Fields(k)) < 5 || len(k) < 25 {
		return ""
	}
	return k
}

// Dedupe removes results whose canonical URL was already seen, and later
// copies of the same article on other sites (same normalised title). The
// first, best-ranked, result of each group is kept.
func Dedupe(res []Result) []Result {
	seenURL := make(map[string]bool, len(res))
	seenTitle := make(map[string]bool, len(res))
	out := res[:0:0]
	for _, r := range res {
		c := Canonical(r.URL)
		if seenURL[c] {
			continue
		}
		k := titleKey(r.Title)
		if k != "" && seenTitle[k] {
			continue
		}
		seenURL[c] = true
		if k != "" {
			seenTitle[k] = true
		}
		out = append(out, r)
	}
	return out
}
