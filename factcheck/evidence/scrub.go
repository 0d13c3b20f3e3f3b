package evidence

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"

	"github.com/factbot-dev/factbot/search"
)

// LinkRemoved replaces a link the run did not retrieve.
const LinkRemoved = "[link removed]"

// link is a piece of text that a chat client could turn into a link.
type link struct {
	start, end int // the link is text[start:end]
	// keys are the canonical forms (search.Canonical) the link may be
	// allowed under, best first: a link written without a scheme could be
	// http or https.
	keys []string
}

// ScrubLinks replaces every link in text that allowed refuses by
// LinkRemoved, and returns the new text and the links it removed, as
// written. allowed is asked about canonical forms (search.Canonical: scheme
// and host lower-cased, no "www.", no tracking parameters); a link written
// without a scheme is asked about with https:// and then http://, and an
// e-mail address as mailto:, which no retrieved page can match. Links are
// what findLinks finds.
func ScrubLinks(text string, allowed func(u string) bool) (string, []string) {
	var b strings.Builder
	var removed []string
	last := 0
	for _, l := range findLinks(text) {
		ok := false
		for _, k := range l.keys {
			if allowed(k) {
				ok = true
				break
			}
		}
		if ok {
			continue
		}
		b.WriteString(text[last:l.start])
		b.WriteString(LinkRemoved)
		removed = append(removed, text[l.start:l.end])
		last = l.end
	}
	if removed == nil {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), removed
}

// LinkKeys returns the canonical forms of every link written in text, for
// letting them through ScrubLinks.
func LinkKeys(text string) map[string]bool {
	keys := map[string]bool{}
	for _, l := range findLinks(text) {
		for _, k := range l.keys {
			keys[k] = true
		}
	}
	return keys
}

// findLinks returns what in text looks like a link, in order and not
// overlapping:
//   - anything written with a scheme ("https://", "HTTPS://", "hTtP://",
//     "ftp://", …) up to white space or one of <>"'`{}|\^[], without trailing
//     punctuation or unbalanced closing brackets;
//   - a host name without a scheme whose top-level domain is in the public
//     suffix list ("evil.co.uk", "Evil.COM") or reserved for examples and
//     private use ("evil.example", "router.local"), or that starts with
//     "www.", with an optional port, path, query and fragment;
//   - a name with dots that ends in letters and goes on with a path
//     ("evil.internal/login"), and an IPv4 address with a port or path;
//   - an e-mail address on a host of the first kind.
//
// Words with dots are not links: "e.g.", "U.S.", "3.5", "Node.js",
// "report.pdf". Full-width and ideographic dots count as dots.
func findLinks(text string) []link {
	var links []link
	gap := 0 // text[gap:] follows the last link with a scheme
	pos := 0 // text[pos:] is searched for the next "://"
	for pos < len(text) {
		i := strings.Index(text[pos:], "://")
		if i < 0 {
			break
		}
		i += pos
		pos = i + 3
		start := i
		for start > gap && schemeByte(text[start-1]) {
			start--
		}
		for start < i && !isASCIILetter(text[start]) {
			start++
		}
		end := urlEnd(text, ipv6End(text, i+3), len(text))
		if start == i || end == i+3 {
			continue
		}
		links = append(links, hostLinks(text, gap, start)...)
		links = append(links, link{start: start, end: end, keys: []string{search.Canonical(text[start:end])}})
		gap, pos = end, end
	}
	return append(links, hostLinks(text, gap, len(text))...)
}

// hostLinks finds the links without a scheme in text[from:to].
func hostLinks(text string, from, to int) []link {
	var links []link
	floor := from // text before floor belongs to a link found already
	for i := from; i < to; {
		r, n := utf8.DecodeRuneInString(text[i:to])
		if !hostRune(r) {
			i += n
			continue
		}
		runStart, runEnd := i, i
		for runEnd < to {
			r, n := utf8.DecodeRuneInString(text[runEnd:to])
			if !hostRune(r) {
				break
			}
			runEnd += n
		}
		i = runEnd
		for _, h := range hostNames(text, runStart, runEnd) {
			if l, ok := hostLink(text, h.start, h.end, floor, to); ok {
				links = append(links, l)
				floor = l.end
				i = max(i, l.end)
			}
		}
	}
	return links
}

type span struct{ start, end int }

// hostNames splits the run of host characters text[start:end] into names:
// pieces separated by two or more dots, without leading or trailing dots
// and hyphens, that have at least one dot.
func hostNames(text string, start, end int) []span {
	var out []span
	add := func(from, to int) {
		if s, ok := trimName(text, from, to); ok {
			out = append(out, s)
		}
	}
	piece := start
	for i := start; i < end; {
		r, n := utf8.DecodeRuneInString(text[i:end])
		i += n
		if !isDot(r) {
			continue
		}
		dots, j := 1, i
		for j < end {
			r, n := utf8.DecodeRuneInString(text[j:end])
			if !isDot(r) {
				break
			}
			j += n
			dots++
		}
		if dots >= 2 {
			add(piece, i-n)
			piece = j
		}
		i = j
	}
	add(piece, end)
	return out
}

// trimName trims dots and hyphens from both ends of text[start:end] and
// reports whether what is left has a dot.
func trimName(text string, start, end int) (span, bool) {
	for start < end {
		r, n := utf8.DecodeRuneInString(text[start:end])
		if !isDot(r) && r != '-' {
			break
		}
		start += n
	}
	for end > start {
		r, n := utf8.DecodeLastRuneInString(text[start:end])
		if !isDot(r) && r != '-' {
			break
		}
		end -= n
	}
	return span{start, end}, strings.IndexFunc(text[start:end], isDot) >= 0
}

// hostLink decides whether the host name text[start:end] is a link, and
// if so how far the link goes, not past to, nor before from for the local
// part of an e-mail address.
func hostLink(text string, start, end, from, to int) (link, bool) {
	host := strings.Map(func(r rune) rune {
		switch {
		case isDot(r):
			return '.'
		case unicode.Is(unicode.Cf, r):
			return -1
		}
		return unicode.ToLower(r)
	}, text[start:end])
	labels := strings.Split(host, ".")
	tld := labels[len(labels)-1]
	if slices.Contains(labels, "") {
		return link{}, false // a label of invisible characters only
	}
	ipv4 := isIPv4(labels)
	if !ipv4 && !validTLD(tld) {
		return link{}, false
	}

	// What follows the name: a port, then a path, query or fragment.
	after := end
	port := false
	if after+1 < to && text[after] == ':' && isASCIIDigit(text[after+1]) {
		after++
		for after < to && isASCIIDigit(text[after]) {
			after++
		}
		port = true
	}
	pathEnd := after
	if after < to && strings.IndexByte("/?#", text[after]) >= 0 {
		pathEnd = urlEnd(text, after, to)
	}
	// A path "with content" has more than its leading "/", "?" or "#".
	path := pathEnd > after+1

	// An e-mail address: the local part before "@".
	if start > from && text[start-1] == '@' && knownHost(tld, labels) && !port && pathEnd == after {
		local := start - 1
		for local > from && localByte(text[local-1]) {
			local--
		}
		if local < start-1 {
			return link{start: local, end: end, keys: []string{"mailto:" + strings.ToLower(text[local:start-1]) + "@" + host}}, true
		}
	}

	switch {
	case ipv4:
		if !port && !path {
			return link{}, false
		}
	case knownHost(tld, labels):
	case !path:
		return link{}, false
	}
	if !port && !path {
		pathEnd = end // a bare "/" or "?" after the name stays out
	}
	rest := text[end:pathEnd]
	return link{start: start, end: pathEnd, keys: []string{
		search.Canonical("https://" + host + rest),
		search.Canonical("http://" + host + rest),
	}}, true
}

// knownHost reports whether a host name whose last label is tld is
// clearly a host: its top-level domain is an ICANN one or reserved, or it
// starts with "www.".
func knownHost(tld string, labels []string) bool {
	if !validTLD(tld) {
		return false
	}
	if labels[0] == "www" || reservedTLD(tld) {
		return true
	}
	a, err := idna.Lookup.ToASCII(tld)
	if err != nil || a == "" {
		return false
	}
	suffix, icann := publicsuffix.PublicSuffix(a)
	return icann && suffix == a
}

// reservedTLD reports whether tld is one of the top-level domains that are not in the public suffix list
// but name hosts (RFC 2606, RFC 6761, RFC 6762, ICANN's .internal).
func reservedTLD(tld string) bool {
	switch tld {
	case "example", "test", "invalid", "localhost", "local", "internal", "onion", "home", "lan", "corp":
		return true
	}
	return false
}

// validTLD reports whether s could be a top-level domain: two or more
// letters, or an IDNA "xn--" label.
func validTLD(s string) bool {
	if strings.HasPrefix(s, "xn--") && len(s) > 4 {
		return true
	}
	n := 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
		n++
	}
	return n >= 2
}

// ipv6End returns the end of the bracketed IPv6 host, as in
// "http://[2001:db8::1]/", that text may have at start; start if none.
func ipv6End(text string, start int) int {
	if start >= len(text) || text[start] != '[' {
		return start
	}
	for i := start + 1; i < len(text); i++ {
		switch c := text[i]; {
		case c == ']':
			if i > start+1 {
				return i + 1
			}
			return start
		case isASCIIDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' || c == ':' || c == '.' || c == '%':
		default:
			return start
		}
	}
	return start
}

func isIPv4(labels []string) bool {
	if len(labels) != 4 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 3 {
			return false
		}
		v := 0
		for i := 0; i < len(l); i++ {
			if !isASCIIDigit(l[i]) {
				return false
			}
			v = v*10 + int(l[i]-'0')
		}
		if v > 255 {
			return false
		}
	}
	return true
}

// urlEnd returns where a URL whose scheme or host ends at start stops: at
// white space, a character that cannot be in a URL, or to, less trailing
// punctuation and closing brackets without an opening one in the URL.
func urlEnd(text string, start, to int) int {
	end := start
	for end < to {
		r, n := utf8.DecodeRuneInString(text[end:to])
		if !urlRune(r) {
			break
		}
		end += n
	}
	// Unbalanced: how many more ")" than "(" the URL has.
	unbalanced := strings.Count(text[start:end], ")") - strings.Count(text[start:end], "(")
	for end > start {
		r, n := utf8.DecodeLastRuneInString(text[start:end])
		switch {
		case strings.ContainsRune(".,;:!?*~…”’»›」』）】〉》。、，．：；！？", r):
		case r == ')' && unbalanced > 0:
			unbalanced--
		default:
			return end
		}
		end -= n
	}
	return end
}

// urlRune reports whether r may be part of a URL written in text.
func urlRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r > ' ' && r != 0x7f && !strings.ContainsRune("<>\"'`{}|\\^[]", r)
	}
	return !unicode.IsSpace(r) && r != utf8.RuneError
}

// hostRune reports whether r may be part of a host name: a letter, digit,
// combining mark, hyphen or dot, or an invisible format character (soft
// hyphen, zero-width space, …) that a client may drop, hiding a name.
func hostRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '-' || isDot(r) || unicode.Is(unicode.Cf, r)
}

// isDot reports whether r is a full stop that browsers read as a dot in a
// host name.
func isDot(r rune) bool { return r == '.' || r == '。' || r == '．' || r == '｡' }

func schemeByte(c byte) bool {
	return isASCIILetter(c) || isASCIIDigit(c) || c == '+' || c == '-' || c == '.'
}

// localByte reports whether c may be in the local part of an e-mail
// address as written in prose.
func localByte(c byte) bool {
	return isASCIILetter(c) || isASCIIDigit(c) || strings.IndexByte(".+-_%", c) >= 0
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isASCIIDigit(c byte) bool  { return '0' <= c && c <= '9' }
