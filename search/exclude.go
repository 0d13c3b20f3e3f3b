package search

import (
	"bytes"
	_ "embed"
	"net/url"
	"slices"
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
	"decrypteurs", "detecteur-rumeur", "detecteur-de-rumeur", "fake-off", // Radio-Canada, Agence Science-Presse, 20 Minutes
	"fato-ou-fake", "estadao-verifica", // Brazilian desks (G1, Estadão)
	"faktenfuchs",          // BR24
	"melo-detektorius",     // Delfi
	"detector-de-mentiras", // La Silla Vacía
	"factlab",              // RMIT FactLab
}

// factCheckSegments name a fact-check section when a whole path segment
// is one of them (a word too common to look for inside others): the
// VERIFY desk of TEGNA's stations (wusa9.com/article/news/verify/…).
var factCheckSegments = []string{"verify"}

// factCheckPath reports whether u, unwrapped, is under a fact-check
// section: a factCheckWords word in a host label (not the public suffix)
// or in a path segment, or a path segment that is a factCheckSegments
// word.
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
		if hasFactCheckWord(seg) || slices.Contains(factCheckSegments, strings.ToLower(seg)) {
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

// Unwrap returns the URL a mirror copies, itself when it is no mirror (or
// an archive's copy whose address does not name the page: see
// OpaqueCopy), or "" when it cannot be parsed. Mirrors are:
//
//   - the Wayback Machine: web.archive.org/web/TIMESTAMP[flag_]/URL (any
//     flag: id_, if_, im_, mp_, …; a "*" timestamp; no timestamp), with
//     the URL given whole, without its scheme, with the slash of its
//     scheme collapsed ("https:/x") or percent-encoded
//     ("https%3A%2F%2Fx"); /save/URL, /wayback/available?url=URL and
//     /cdx/…?url=URL; archive.org and wayback.archive.org alike;
//   - other archives running the Wayback software (Archive-It, arquivo.pt,
//     the UK National Archives, the Library of Congress, …): the URL after
//     the timestamp;
//   - archive.today (.ph, .is, .li, .md, .vn, .fo): /TIMESTAMP/URL,
//     /o/ID/URL, /newest/URL, /URL, ?url=URL;
//   - www-x-com.translate.goog/… (x's host with "-" for "." and "--" for
//     "-"), translate.google.com/…?u=URL;
//   - *.cdn.ampproject.org/c/s/x/…, google.com/amp/s/x/…;
//   - webcache.googleusercontent.com/search?q=cache:…;
//   - webcitation.org/query?url=URL, ghostarchive.org/search?term=URL;
//   - and amp., m. or mobile. before a host.
func Unwrap(rawURL string) string {
	cur := strings.TrimSpace(rawURL)
	for range maxUnwrap {
		u, err := parseURL(cur)
		if err != nil || u.Host == "" {
			if err == nil && u.Scheme == "" && strings.Contains(cur, ".") {
				cur = "http://" + strings.TrimPrefix(cur, "//") // a bare host/path
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

// parseURL is url.Parse, forgiving what archives' addresses carry and
// url.Parse refuses: a "%" that starts no escape, spaces.
func parseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err == nil {
		return u, nil
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '%' && !(i+2 < len(raw) && isHex(raw[i+1]) && isHex(raw[i+2])):
			b.WriteString("%25")
		case c == ' ':
			b.WriteString("%20")
		default:
			b.WriteByte(c)
		}
	}
	if u, err2 := url.Parse(b.String()); err2 == nil {
		return u, nil
	}
	return nil, err
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// archiveToday are archive.today's names.
var archiveToday = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"archive.today": true, "archive.ph": true, "archive.is": true, "archive.li": true,
		"archive.md": true, "archive.vn": true, "archive.fo": true,
	}
})

// internetArchive are the Internet Archive's names for the Wayback
// Machine.
var internetArchive = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"web.archive.org": true, "archive.org": true, "wayback.archive.org": true, "web-beta.archive.org": true,
	}
})

// waybackArchives run the Wayback software under another name: their
// paths are [/PREFIX][/COLLECTION]/TIMESTAMP/URL.
var waybackArchives = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"wayback.archive-it.org": true, "arquivo.pt": true, "webarchive.nationalarchives.gov.uk": true,
		"webarchive.loc.gov": true, "webarchive.org.uk": true, "wayback.webarchiv.cz": true,
		"webarchive.parliament.uk": true, "timetravel.mementoweb.org": true,
	}
})

// opaqueArchives keep copies under addresses of their own making
// (perma.cc/ABCD-1234): the page copied cannot be read from the address.
var opaqueArchives = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"perma.cc": true, "ghostarchive.org": true, "webcitation.org": true}
})

// archiveHost is u's host, lowercase, without a trailing dot or "www.".
func archiveHost(u *url.URL) string {
	return strings.TrimPrefix(strings.TrimSuffix(strings.ToLower(u.Hostname()), "."), "www.")
}

// OpaqueCopy reports whether rawURL, once unwrapped, is an archive's copy
// whose address does not name the page it copies: an archive.today short
// link (archive.ph/AbCdE), perma.cc/ABCD-1234,
// ghostarchive.org/archive/AbCdE, webcitation.org/6AbCdE. Nothing in the
// address says whose page it is, so a leak-free check cannot tell a copy
// of a fact-check from a copy of anything else.
func OpaqueCopy(rawURL string) bool {
	u, err := parseURL(Unwrap(rawURL))
	if err != nil {
		return false
	}
	return opaqueCopy(u)
}

func opaqueCopy(u *url.URL) bool {
	host := archiveHost(u)
	return (archiveToday()[host] || opaqueArchives()[host]) && strings.Trim(u.EscapedPath(), "/") != ""
}

// unwrapOnce returns the URL u copies when u is a mirror, "" when it is
// not.
func unwrapOnce(u *url.URL) string {
	host := archiveHost(u)
	path := u.EscapedPath()
	switch {
	case internetArchive()[host]:
		return internetArchiveOrig(u)
	case waybackArchives()[host]:
		return waybackOrig(strings.TrimPrefix(path, "/"), u.RawQuery)
	case archiveToday()[host]:
		if t := u.Query().Get("url"); t != "" {
			return embedded(t, "")
		}
		return archiveTodayOrig(path, u.RawQuery)
	case host == "webcitation.org":
		return embedded(u.Query().Get("url"), "")
	case host == "ghostarchive.org" && path == "/search":
		return embedded(u.Query().Get("term"), "")
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

// internetArchiveOrig reads the Wayback Machine's paths: /web/…, /save/URL
// (/save/_embed/URL), /wayback/available?url=URL, /cdx/search/cdx?url=URL.
// Its other pages (archive.org/details/…) are the archive's own.
func internetArchiveOrig(u *url.URL) string {
	path := u.EscapedPath()
	switch {
	case strings.HasPrefix(path, "/web/"):
		return waybackOrig(strings.TrimPrefix(path, "/web/"), u.RawQuery)
	case strings.HasPrefix(path, "/save/"):
		return embedded(strings.TrimPrefix(strings.TrimPrefix(path, "/save/"), "_embed/"), u.RawQuery)
	case path == "/wayback/available" || strings.HasPrefix(path, "/cdx/"):
		return embedded(u.Query().Get("url"), "")
	}
	return ""
}

// maxWaybackPrefix bounds the segments before a Wayback URL's timestamp
// (arquivo.pt/wayback/…, wayback.archive-it.org/1234/…,
// webarchive.nationalarchives.gov.uk/ukgwa/…).
const maxWaybackPrefix = 3

// waybackOrig reads the URL in a Wayback path, p without its leading
// slash: after the first timestamp segment (digits and "*", then a flag
// such as id_, if_ or im_), or from the first segment that starts a URL
// (a scheme, or a host with a dot) when there is no timestamp.
func waybackOrig(p, rawQuery string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs[:min(len(segs), maxWaybackPrefix+1)] {
		switch {
		case waybackTimestamp(seg):
			if orig := embedded(strings.Join(segs[i+1:], "/"), rawQuery); orig != "" {
				return orig
			}
		case startsURL(seg):
			return embedded(strings.Join(segs[i:], "/"), rawQuery)
		}
	}
	return ""
}

// waybackTimestamp reports whether seg is a Wayback timestamp: digits or
// "*" (20200101000000, 2020, 2020*, *), then an optional two-letter flag
// and "_" (id_, if_, im_, js_, cs_, mp_, fw_, oe_).
func waybackTimestamp(seg string) bool {
	if n := len(seg); n >= 3 && seg[n-1] == '_' && isLower(seg[n-2]) && isLower(seg[n-3]) {
		seg = seg[:n-3]
	}
	return seg != "" && strings.Trim(seg, "0123456789*") == ""
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

// startsURL reports whether seg begins a URL: a scheme (see hasScheme)
// or a host whose last label is a top-level domain (letters, or xn--).
func startsURL(seg string) bool {
	if hasScheme(seg) {
		return true
	}
	host := strings.ToLower(seg)
	if i := strings.IndexAny(host, "/?%:"); i >= 0 {
		host = host[:i]
	}
	i := strings.LastIndex(host, ".")
	if i <= 0 {
		return false
	}
	tld := host[i+1:]
	return strings.HasPrefix(tld, "xn--") || len(tld) >= 2 && strings.Trim(tld, "abcdefghijklmnopqrstuvwxyz") == ""
}

// hasScheme reports whether s starts with http: or https:, plain or
// percent-encoded (http%3A).
func hasScheme(s string) bool {
	s = strings.ToLower(s)
	for _, p := range []string{"http:", "https:", "http%3a", "https%3a"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// embedded reads the URL at the start of s, with or without a scheme,
// with the slash of its scheme that archives collapse ("https:/x"), or
// percent-encoded whole ("https%3A%2F%2Fx%2Fy"); "" when s names no host.
func embedded(s, rawQuery string) string {
	s = strings.TrimSpace(s)
	for range 2 { // encoded once, or twice
		head, _, _ := strings.Cut(s, "/")
		if !strings.Contains(head, "%") {
			break
		}
		d, err := url.PathUnescape(s)
		if err != nil {
			break
		}
		s = d
	}
	if s == "" {
		return ""
	}
	low := strings.ToLower(s)
	for _, p := range []string{"https:", "http:"} {
		if strings.HasPrefix(low, p) {
			s = p + "//" + strings.TrimLeft(s[len(p):], "/")
			break
		}
	}
	if i := strings.Index(s, "://"); i <= 0 || strings.ContainsAny(s[:i], "/?.%") {
		s = strings.TrimPrefix(s, "//")
		host, _, _ := strings.Cut(s, "/")
		host, _, _ = strings.Cut(host, "?")
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
// /20200825123456/URL, /o/ID/URL, /newest/URL, /oldest/URL, /timegate/URL,
// /URL. A short link (/AbCdE) names no URL: it is no mirror to unwrap (see
// OpaqueCopy).
func archiveTodayOrig(path, rawQuery string) string {
	p := strings.TrimPrefix(path, "/")
	if i := strings.Index(strings.ToLower(p), "http"); i >= 0 && hasScheme(p[i:]) {
		return embedded(p[i:], rawQuery)
	}
	segs := strings.SplitN(p, "/", 3)
	switch {
	case len(segs) >= 3 && segs[0] == "o":
		return embedded(segs[2], rawQuery)
	case len(segs) >= 2:
		return embedded(strings.Join(segs[1:], "/"), rawQuery)
	case len(segs) == 1 && startsURL(segs[0]):
		return embedded(strings.TrimPrefix(segs[0], "*."), rawQuery) // archive.ph/www.snopes.com lists a site's copies
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
