package search

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"
)

// Restriction narrows the searches of one check: nothing published after
// Before (a claim's date, when checking it as of then), nothing from the
// ExcludeSites. Providers that have request parameters for it pass it on
// (Tavily end_date and exclude_domains, Brave freshness and -site: terms,
// SearXNG -site: terms); Filter is the guarantee, applied to what comes
// back whatever the provider did.
type Restriction struct {
	// Before, if not zero, is the last day whose results are wanted
	// (day precision: results published on that day are kept).
	Before time.Time
	// ExcludeSites are domains (lowercase, no "www."); a site's
	// subdomains are excluded with it.
	ExcludeSites []string
	// FactCheckPaths also excludes the fact-check sections of any site,
	// named by their host or path (usatoday.com/story/news/factcheck/…).
	FactCheckPaths bool
	// ExcludeURLs are pages excluded by address, and so are their copies
	// on mirrors: an address is compared once unwrapped (Unwrap), by host
	// (no "www."), path (no trailing slash) and query, whatever its scheme
	// and fragment. An evaluation on AVeriTeC passes a claim's own
	// fact_checking_article so.
	ExcludeURLs []string
}

// IsZero reports whether r restricts nothing.
func (r Restriction) IsZero() bool {
	return r.Before.IsZero() && len(r.ExcludeSites) == 0 && !r.FactCheckPaths && len(r.ExcludeURLs) == 0
}

// key is r as part of a cache key: answers to restricted searches are
// kept apart from unrestricted ones.
func (r Restriction) key() string {
	if r.IsZero() {
		return ""
	}
	s := "\x00"
	if !r.Before.IsZero() {
		s += r.Before.Format(time.DateOnly)
	}
	s += "\x00" + strings.Join(r.ExcludeSites, ",")
	if r.FactCheckPaths {
		s += "\x00paths"
	}
	if len(r.ExcludeURLs) > 0 {
		s += "\x00urls\x00" + strings.Join(r.ExcludeURLs, "\x00")
	}
	return s
}

// lastDay is the end of the day r.Before falls on, in UTC.
func (r Restriction) lastDay() time.Time {
	y, m, d := r.Before.UTC().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC).Add(-time.Nanosecond)
}

// After reports whether t, a publication time, is known and later than
// the restriction's date.
func (r Restriction) After(t time.Time) bool {
	return !r.Before.IsZero() && !t.IsZero() && t.After(r.lastDay())
}

// AddressAfter reports whether rawURL's own address dates its page
// (AddressDate) later than the restriction's date, and that date. A page
// whose path says /2020/10/14/ was not there to be read on October 7th,
// whatever a search provider says its date is; a copy is dated by the
// page it copies, never by when it was archived. The day itself is not
// later: a page from the as-of day is kept, as After keeps it.
func (r Restriction) AddressAfter(rawURL string) (time.Time, bool) {
	if r.Before.IsZero() {
		return time.Time{}, false
	}
	t := AddressDate(rawURL)
	return t, r.After(t)
}

// Excluded reports whether rawURL, once unwrapped from any mirror
// (Unwrap), is on one of the excluded sites or a subdomain of one, or,
// with FactCheckPaths, under a fact-check section of a site. So an
// archived or proxied copy is judged as the page it copies, and is
// excluded with it. An archive's copy whose address does not name the
// page (OpaqueCopy: archive.ph/AbCdE, perma.cc/…) is excluded whenever
// anything is: it may be a copy of an excluded page, and nothing says
// otherwise.
func (r Restriction) Excluded(rawURL string) bool {
	if len(r.ExcludeSites) == 0 && !r.FactCheckPaths && len(r.ExcludeURLs) == 0 {
		return false
	}
	u, err := parseURL(Unwrap(rawURL))
	if err != nil {
		return false
	}
	if opaqueCopy(u) {
		return true
	}
	if len(r.ExcludeURLs) > 0 {
		key := pageKey(u)
		for _, x := range r.ExcludeURLs {
			if xu, err := parseURL(Unwrap(x)); err == nil && pageKey(xu) == key {
				return true
			}
		}
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	for _, d := range r.ExcludeSites {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return r.FactCheckPaths && factCheckPath(u)
}

func (r Restriction) addressLate(rawURL string) bool {
	_, late := r.AddressAfter(rawURL)
	return late
}

// pageKey is what ExcludeURLs compares of an (unwrapped) address: host
// without "www." or a trailing dot, path without a trailing slash, and
// query.
func pageKey(u *url.URL) string {
	host := strings.TrimRight(strings.ToLower(u.Hostname()), ".")
	for strings.HasPrefix(host, "www.") {
		host = strings.TrimPrefix(host, "www.")
	}
	k := host + strings.TrimRight(u.EscapedPath(), "/")
	if u.RawQuery != "" {
		k += "?" + u.RawQuery
	}
	return k
}

// Filter returns the results r allows, and how many it dropped because
// they were published after its date (by the provider's date or by their
// address: AddressAfter) or came from an excluded site. A result without
// a readable date is kept.
func (r Restriction) Filter(res []Result) (kept []Result, late, excluded int) {
	kept = make([]Result, 0, len(res))
	for _, x := range res {
		switch {
		case r.Excluded(x.URL):
			excluded++
		case !r.Before.IsZero() && (r.After(x.PublishedAt) || x.PublishedAt.IsZero() && r.After(parsePublished(x.Published))):
			late++
		case r.addressLate(x.URL):
			late++
		default:
			kept = append(kept, x)
		}
	}
	return kept, late, excluded
}

// siteTerms is the query with a -site: term for each excluded site, for
// providers whose API has no exclusion parameter, within maxLen bytes and
// maxWords words (0: no word limit). Long lists are cut: the filter still
// drops what the query let through.
func (r Restriction) siteTerms(query string, maxLen, maxWords int) string {
	words := len(strings.Fields(query))
	for _, d := range r.ExcludeSites {
		t := " -site:" + d
		if len(query)+len(t) > maxLen || (maxWords > 0 && words+1 > maxWords) {
			break
		}
		query += t
		words++
	}
	return query
}

// NormalizeSites lowercases the domains, strips a scheme, path, "www."
// and "*.", and drops empty and repeated entries, keeping the order (the
// first sites are the ones providers with a bounded query length are
// sure to get). An entry that is not a domain is an error.
func NormalizeSites(sites []string) ([]string, error) {
	var out []string
	for _, s := range sites {
		d := strings.ToLower(strings.TrimSpace(s))
		if d == "" {
			continue
		}
		if i := strings.Index(d, "://"); i >= 0 {
			d = d[i+3:]
		}
		if i := strings.IndexAny(d, "/?#"); i >= 0 {
			d = d[:i]
		}
		d = strings.TrimPrefix(strings.TrimPrefix(d, "*."), "www.")
		d = strings.TrimSuffix(d, ".")
		if d == "" || !strings.Contains(d, ".") || strings.ContainsAny(d, " \t:@") {
			return nil, fmt.Errorf("%q is not a domain", s)
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out, nil
}

// ReadSites reads an exclusion list: one domain a line, most important
// first; blank lines and everything after a "#" are ignored.
func ReadSites(r io.Reader) ([]string, error) {
	var raw []string
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		d, err := NormalizeSites([]string{line})
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		raw = append(raw, d...)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return NormalizeSites(raw)
}

// ReadSitesFile is ReadSites for a file.
func ReadSitesFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sites, err := ReadSites(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return sites, nil
}
