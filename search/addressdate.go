package search

import (
	"strconv"
	"strings"
	"time"
)

// AddressDate returns the earliest day rawURL's own address lets its page
// have been published, read from the path of the page it names once
// unwrapped from any mirror (Unwrap): a copy's archiving date (a Wayback
// timestamp, archive.today's /2020.09.02-000000/) is not the page's and
// never counts. It is the zero time when the path carries no date. The
// forms read, with years 1990–2039 and real calendar days:
//
//   - /YYYY/MM/DD/ as three whole path segments (/politics/2020/10/14/slug/;
//     one-digit month and day too), and /YYYYMM/DD/ (/a/202009/04/…);
//   - YYYY-MM-DD, YYYY_MM_DD or YYYYMMDD opening or closing a path segment,
//     with no letter or digit joined to it (/20201014-slug,
//     /news/20200925/…, /slug-1720302-2020-09-15, /slug-20201014.html);
//   - /YYYY/MM/ as two whole segments with no day after them, the month in
//     two digits (/2020/10/slug/): the first of the month, the earliest
//     the page can be. A one-digit number after a year is often no month
//     (legislation.gov.uk/ukpga/2020/7/: the act numbered 7 of 2020).
//
// The first date in the path counts. A date inside a segment's words
// (/what-happens-on-2020-11-03-explained/) is not read: such a slug names
// the day it writes about, not the day it was published. Day-first and
// month-first forms (14-10-2020, 10-14-2020) are not read either, being
// ambiguous. An identifier that happens to read as a date (/p/20210512)
// is taken for one: nothing in the address tells them apart.
func AddressDate(rawURL string) time.Time {
	u, err := parseURL(Unwrap(rawURL))
	if err != nil || u.Host == "" {
		return time.Time{}
	}
	host := archiveHost(u)
	if internetArchive()[host] || waybackArchives()[host] || archiveToday()[host] || opaqueArchives()[host] {
		return time.Time{} // an archive's own page, or a copy Unwrap could not read: its dates are the archive's
	}
	segs := strings.Split(u.Path, "/")
	for i, s := range segs {
		next := func(k int) string {
			if i+k < len(segs) {
				return segs[i+k]
			}
			return ""
		}
		if y, ok := number(s, 4); ok {
			m, ok := number(next(1), 1, 2)
			if !ok {
				continue
			}
			if d, ok := number(next(2), 1, 2); ok {
				if t, ok := calendarDay(y, m, d); ok {
					return t
				}
				continue
			}
			if len(next(1)) == 2 { // a month alone is written with two digits: /ukpga/2020/7/ is an act's number
				if t, ok := calendarDay(y, m, 1); ok {
					return t
				}
			}
			continue
		}
		if ym, ok := number(s, 6); ok {
			if d, ok := number(next(1), 2); ok {
				if t, ok := calendarDay(ym/100, ym%100, d); ok {
					return t
				}
			}
			continue
		}
		if t, ok := segmentDate(s); ok {
			return t
		}
	}
	return time.Time{}
}

// segmentDate reads a date that opens or closes a path segment, a file
// extension (".html") aside: YYYY-MM-DD, YYYY_MM_DD or YYYYMMDD, with no
// letter or digit joined to it.
func segmentDate(seg string) (time.Time, bool) {
	if i := strings.LastIndexByte(seg, '.'); i > 0 && isLetters(seg[i+1:]) {
		seg = seg[:i]
	}
	for _, n := range []int{10, 8} { // YYYY-MM-DD, YYYYMMDD
		if len(seg) < n {
			continue
		}
		if len(seg) == n || !isAlnum(seg[n]) {
			if t, ok := dateForm(seg[:n]); ok {
				return t, true
			}
		}
		if k := len(seg) - n; len(seg) == n || !isAlnum(seg[k-1]) {
			if t, ok := dateForm(seg[k:]); ok {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// dateForm reads s whole as YYYY-MM-DD, YYYY_MM_DD or YYYYMMDD.
func dateForm(s string) (time.Time, bool) {
	var y, m, d int
	var ok1, ok2, ok3 bool
	switch len(s) {
	case 10:
		if s[4] != s[7] || (s[4] != '-' && s[4] != '_') {
			return time.Time{}, false
		}
		y, ok1 = number(s[:4], 4)
		m, ok2 = number(s[5:7], 2)
		d, ok3 = number(s[8:], 2)
	case 8:
		y, ok1 = number(s[:4], 4)
		m, ok2 = number(s[4:6], 2)
		d, ok3 = number(s[6:], 2)
	}
	if !ok1 || !ok2 || !ok3 {
		return time.Time{}, false
	}
	return calendarDay(y, m, d)
}

// number reads s as a decimal number of one of the given lengths, digits
// only.
func number(s string, lengths ...int) (int, bool) {
	ok := false
	for _, n := range lengths {
		ok = ok || len(s) == n
	}
	if !ok {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.Atoi(s)
	return v, err == nil
}

// calendarDay is the day y-m-d in UTC, if it is one (no February 30th)
// and y is within 1990–2039.
func calendarDay(y, m, d int) (time.Time, bool) {
	if y < 1990 || y > 2039 || m < 1 || m > 12 || d < 1 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return time.Time{}, false
	}
	return t, true
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isLetters(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('a' <= s[i] && s[i] <= 'z' || 'A' <= s[i] && s[i] <= 'Z') {
			return false
		}
	}
	return true
}
