package search

import (
	"bytes"
	_ "embed"
	"net/url"
	"strings"
	"sync"
)

// Leak-free checking of dated claims: the rules that keep published
// fact-checks away from a check. Three layers, applied by
// Restriction.Excluded to every search result and page read:
//
//   - mirrors are unwrapped first (Unwrap): the Wayback Machine,
//     archive.today and its other names, Google Translate's proxy hosts,
//     Google's AMP caches, Google's web cache, and amp./m./mobile. hosts;
//   - the domains of fact-checking organisations (FactCheckers: the
//     shipped list, with their subdomains);
//   - with FactCheckPaths, the fact-check sections of news sites, named by
//     a word in the host or a path segment (factCheckWords), so that
//     usatoday.com/story/news/factcheck/… goes and usatoday.com's news
//     stays.

//go:embed factcheckers.txt
var factCheckersList []byte

// FactCheckers returns the shipped list of fact-checking organisations'
// domains (search/factcheckers.txt): the signatories of the International
// Fact-Checking Network, the sites AVeriTeC's claims were taken from, and
// the dedicated fact-checking desks of news agencies.
func FactCheckers() []string {
	sites, err := ReadSites(bytes.NewReader(factCheckersList))
	if err != nil {
		panic("search: factcheckers.txt: " + err.Error()) // a test guards this
	}
	return sites
}

// factCheckWords name a fact-check section when a host label or a path
// segment contains one of them (after lowercasing and with "_" read as
// "-"): /factcheck/, /fact-check/, /fact-checker/, a slug
// "fact-check-did-…", reuters.com/article/uk-factcheck-…, and the
// sections' names at other desks.
var factCheckWords = []string{
	"factcheck", "fact-check", "fakecheck",
	"reality-check", "realitycheck", // BBC
	"webqoof",                     // The Quint
	"faktencheck", "faktenfinder", // German desks
	"checknews", "les-decodeurs", "desintox", "vrai-ou-fake", // French desks
	"cek-fakta", "cekfakta", // Indonesian desks
	"hoax-buster", "hoaxbuster", "fact-or-fiction", "truth-o-meter",
}

// factCheckPath reports whether u, unwrapped, is under a fact-check
// section: a factCheckWords word in a host label (not the public suffix)
// or in a path segment.
func factCheckPath(u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	labels := strings.Split(host, ".")
	if len(labels) > 1 {
		labels = labels[:len(labels)-1]
	}
	for _, l := range labels {
		if hasFactCheckWord(l) {
			return true
		}
	}
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		if s, err := url.PathUnescape(seg); err == nil {
			seg = s
		}
		if hasFactCheckWord(seg) {
			return true
		}
	}
	return false
}

func hasFactCheckWord(s string) bool {
	s = strings.ReplaceAll(strings.ToLower(s), "_", "-")
	for _, w := range factCheckWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// maxUnwrap bounds how many mirrors deep Unwrap looks (a Wayback copy of
// an AMP cache of a translated page is three).
const maxUnwrap = 6

// Unwrap returns the URL a mirror copies, itself when it is no mirror, or
// "" when it cannot be parsed: web.archive.org/web/2020…/https://x/…,
// archive.today (.ph, .is, .li, .md, .vn, .fo)/…/https://x/…,
// www-x-com.translate.goog/… (x's host with "-" for "." and "--" for "-"),
// translate.google.com/translate?u=…, *.cdn.ampproject.org/c/s/x/…,
// google.com/amp/s/x/…, webcache.googleusercontent.com/search?q=cache:…,
// and amp., m. or mobile. before a host.
func Unwrap(rawURL string) string {
	cur := strings.TrimSpace(rawURL)
	for range maxUnwrap {
		u, err := url.Parse(cur)
		if err != nil || u.Host == "" {
			if err == nil && u.Scheme == "" && strings.Contains(cur, ".") {
				cur = "http://" + cur // a bare host/path
				continue
			}
			return cur
		}
		next := unwrapOnce(u)
		if next == "" {
			return u.String()
		}
		cur = next
	}
	return cur
}

// archiveToday are archive.today's names.
var archiveToday = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"archive.today": true, "archive.ph": true, "archive.is": true, "archive.li": true,
		"archive.md": true, "archive.vn": true, "archive.fo": true,
	}
})

// unwrapOnce returns the URL u copies when u is a mirror, "" when it is
// not.
func unwrapOnce(u *url.URL) string {
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	host = strings.TrimPrefix(host, "www.")
	path := u.EscapedPath()
	switch {
	case host == "web.archive.org" || host == "archive.org" || host == "wayback.archive.org":
		if rest, ok := strings.CutPrefix(path, "/web/"); ok {
			if _, orig, ok := strings.Cut(rest, "/"); ok {
				return embedded(orig, u.RawQuery)
			}
		}
	case archiveToday()[host]:
		return archiveTodayOrig(path, u.RawQuery)
	case strings.HasSuffix(host, ".translate.goog"):
		v := *u
		v.Host = translateGoogHost(strings.TrimSuffix(host, ".translate.goog"))
		q := v.Query()
		for k := range q {
			if strings.HasPrefix(k, "_x_tr_") {
				q.Del(k)
			}
		}
		v.RawQuery = q.Encode()
		return v.String()
	case host == "translate.google.com" || host == "translate.googleusercontent.com":
		if t := u.Query().Get("u"); t != "" {
			return t
		}
	case strings.HasSuffix(host, ".cdn.ampproject.org") || host == "cdn.ampproject.org":
		return ampCacheOrig(path)
	case (host == "google.com" || strings.HasPrefix(host, "google.")) && strings.HasPrefix(path, "/amp/"):
		return ampCacheOrig(strings.TrimPrefix(path, "/amp"))
	case host == "webcache.googleusercontent.com":
		q := strings.TrimPrefix(u.Query().Get("q"), "cache:")
		if i := strings.Index(q, ":"); i > 0 && !strings.Contains(q[:i], ".") && !strings.Contains(q[:i], "/") && q[:i] != "http" && q[:i] != "https" {
			q = q[i+1:] // cache:ID:url
		}
		return q
	default:
		return mobileHost(u)
	}
	return ""
}

// embedded reads the URL at the start of s, with or without a scheme, and
// with the slash of its scheme that archives collapse ("https:/x").
func embedded(s, rawQuery string) string {
	if s == "" {
		return ""
	}
	for _, p := range []string{"https:/", "http:/"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			s = p + "/" + strings.TrimPrefix(rest, "/")
			break
		}
	}
	if !strings.Contains(s, "://") {
		host, _, _ := strings.Cut(s, "/")
		if !strings.Contains(host, ".") {
			return ""
		}
		s = "http://" + s
	}
	if rawQuery != "" {
		s += "?" + rawQuery
	}
	return s
}

// archiveTodayOrig reads archive.today's paths: /2020.08.25-123456/URL,
// /20200825123456/URL, /o/ID/URL, /newest/URL, /oldest/URL, /timegate/URL.
// A short link (/AbCdE) names no URL: it is no mirror to unwrap.
func archiveTodayOrig(path, rawQuery string) string {
	p := strings.TrimPrefix(path, "/")
	if i := strings.Index(p, "http"); i >= 0 && (strings.HasPrefix(p[i:], "http:/") || strings.HasPrefix(p[i:], "https:/")) {
		return embedded(p[i:], rawQuery)
	}
	segs := strings.SplitN(p, "/", 3)
	switch {
	case len(segs) >= 3 && segs[0] == "o":
		return embedded(segs[2], rawQuery)
	case len(segs) >= 2:
		return embedded(strings.Join(segs[1:], "/"), rawQuery)
	}
	return ""
}

// translateGoogHost turns Google Translate's proxy label back into a host:
// "www-snopes-com" is www.snopes.com, "my--site-org" my-site.org.
func translateGoogHost(label string) string {
	const dash = "\x00"
	s := strings.ReplaceAll(label, "--", dash)
	s = strings.ReplaceAll(s, "-", ".")
	return strings.ReplaceAll(s, dash, "-")
}

// ampCacheOrig reads an AMP cache path: /c/s/host/path (s: https), /v/…,
// /i/…, /wp/…, or /s/host/path and /host/path after google.com/amp.
func ampCacheOrig(path string) string {
	p := strings.TrimPrefix(path, "/")
	for _, kind := range []string{"c/", "v/", "i/", "wp/", "r/"} {
		if rest, ok := strings.CutPrefix(p, kind); ok {
			p = rest
			break
		}
	}
	scheme := "http://"
	if rest, ok := strings.CutPrefix(p, "s/"); ok {
		p, scheme = rest, "https://"
	}
	host, _, _ := strings.Cut(p, "/")
	if !strings.Contains(host, ".") {
		return ""
	}
	return scheme + p
}

// mobileHost drops amp., m. and mobile. before a host with at least two
// more labels (m.example.com is example.com; m.com stays).
func mobileHost(u *url.URL) string {
	host := strings.ToLower(u.Hostname())
	for _, p := range []string{"amp.", "m.", "mobile."} {
		if rest, ok := strings.CutPrefix(host, p); ok && strings.Contains(rest, ".") {
			v := *u
			v.Host = rest
			if port := u.Port(); port != "" {
				v.Host += ":" + port
			}
			return v.String()
		}
	}
	return ""
}
