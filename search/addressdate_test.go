package search

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestAddressDate: the page's own path dates it; an archive's timestamp
// never does; numbers that are no date, or an ambiguous one, give none.
func TestAddressDate(t *testing.T) {
	d := func(y, m, dd int) string {
		return time.Date(y, time.Month(m), dd, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	}
	tests := []struct{ url, want string }{
		// /YYYY/MM/DD/ segments, as the Washington Post and WordPress sites write them.
		{"https://www.washingtonpost.com/politics/2020/10/14/fact-checking-biden/", d(2020, 10, 14)},
		{"https://www.nytimes.com/2020/09/25/us/politics/x.html", d(2020, 9, 25)},
		{"https://example.com/2020/9/7/x", d(2020, 9, 7)},
		{"https://example.com/2020/10/14", d(2020, 10, 14)},
		// /YYYYMM/DD/ (China Daily).
		{"https://www.chinadaily.com.cn/a/202009/04/WS5f51a3b3a310675eafc57a6a.html", d(2020, 9, 4)},
		// A date opening or closing a segment.
		{"https://www.france24.com/en/europe/20201014-covid-x", d(2020, 10, 14)},
		{"https://www.webmd.com/lung/news/20200925/x", d(2020, 9, 25)},
		{"https://www.indiatoday.in/fact-check/story/x-1720302-2020-09-15", d(2020, 9, 15)},
		{"https://example.com/news/2020-10-14-x", d(2020, 10, 14)},
		{"https://example.com/news/x_2020_10_14.html", d(2020, 10, 14)},
		{"https://example.com/news/x-20201014.shtml", d(2020, 10, 14)},
		// A month alone: the first of it.
		{"https://example.com/2020/10/x/", d(2020, 10, 1)},
		// The first date in the path counts.
		{"https://example.com/2020/09/01/2020-11-03-x/", d(2020, 9, 1)},
		// Copies are dated by the page they copy, not by their archiving.
		{"https://web.archive.org/web/20201103000000/https://www.washingtonpost.com/politics/2020/11/02/x/", d(2020, 11, 2)},
		{"https://web.archive.org/web/20210101000000id_/https%3A%2F%2Fwww.washingtonpost.com%2Fpolitics%2F2020%2F10%2F09%2Fx%2F", d(2020, 10, 9)},
		{"https://archive.ph/2021.01.01-000000/https://example.com/2020/09/17/x", d(2020, 9, 17)},
		{"https://web.archive.org/web/20210101000000/https://www.bbc.co.uk/news/election-us-2020-54434575", ""},
		{"https://web.archive.org/web/20201020000000/https://www.cdc.gov/coronavirus/2019-ncov/e.html", ""},
		{"https://web.archive.org/web/20201020000000/", ""},
		{"https://archive.ph/AbCdE", ""},
		{"https://wayback.archive-it.org/1234/20201019000000/https://example.com/x", ""},
		// No date: IDs, ambiguous or impossible digits, dates inside a slug's words, a query.
		{"https://www.bbc.co.uk/news/54633147", ""},                      // 5463-31-47
		{"https://example.com/p/20201341", ""},                           // month 13
		{"https://example.com/2021/02/30/x", ""},                         // no February 30th
		{"https://example.com/p/202010141", ""},                          // nine digits
		{"https://example.com/t20201014_123.html", ""},                   // a letter joined to it
		{"https://example.com/news/14-10-2020-x", ""},                    // day first
		{"https://example.com/news/10-14-2020-x", ""},                    // month first
		{"https://example.com/what-happens-on-2020-11-03-explained", ""}, // inside the words
		{"https://example.com/x?date=2020-10-14", ""},
		{"https://www.legislation.gov.uk/ukpga/2020/7/contents", ""}, // an act's number, not July
		{"https://example.com/1989/10/14/x", ""},                     // before 1990
		{"https://example.com/2020/123/x", ""},
		{"https://example.com/2020-1-5-x", ""},
		{"not a url", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got := ""
		if t := AddressDate(tt.url); !t.IsZero() {
			got = t.Format(time.DateOnly)
		}
		if got != tt.want {
			t.Errorf("AddressDate(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

// TestAddressAfter: with an as-of date, an address dated later is late; the
// same day, an earlier day, an undated address, and any address without an
// as-of date are not.
func TestAddressAfter(t *testing.T) {
	r := Restriction{Before: day(2020, 10, 7)}
	tests := []struct {
		url  string
		late bool
	}{
		{"https://web.archive.org/web/20201008000000/https://www.washingtonpost.com/politics/2020/10/08/x/", true},
		{"https://www.washingtonpost.com/politics/2020/10/07/x/", false}, // the as-of day itself
		{"https://www.washingtonpost.com/politics/2020/10/06/x/", false},
		{"https://web.archive.org/web/20211231000000/https://www.washingtonpost.com/politics/2020/10/06/x/", false},
		{"https://example.com/2020/10/x/", false}, // October: maybe before the 7th
		{"https://example.com/2020/11/x/", true},  // November: after
		{"https://www.bbc.co.uk/news/54633147", false},
	}
	for _, tt := range tests {
		if _, late := r.AddressAfter(tt.url); late != tt.late {
			t.Errorf("AddressAfter(%q) = %v, want %v", tt.url, late, tt.late)
		}
		if _, late := (Restriction{}).AddressAfter(tt.url); late {
			t.Errorf("no as-of date: AddressAfter(%q) = true", tt.url)
		}
	}
}

// TestRestrictionFilterAddressDate: a result whose address dates it after
// the as-of day is dropped as late, whatever date the provider gave.
func TestRestrictionFilterAddressDate(t *testing.T) {
	r := Restriction{Before: day(2020, 10, 7)}
	in := []Result{
		{URL: "https://www.washingtonpost.com/politics/2020/10/09/x/", PublishedAt: day(2020, 10, 1)},
		{URL: "https://www.france24.com/en/20201014-x"},
		{URL: "https://www.washingtonpost.com/politics/2020/10/07/same-day/"},
		{URL: "https://web.archive.org/web/20211231000000/https://example.com/2020/10/01/x"},
	}
	kept, late, excluded := r.Filter(in)
	want := []string{"https://www.washingtonpost.com/politics/2020/10/07/same-day/", "https://web.archive.org/web/20211231000000/https://example.com/2020/10/01/x"}
	if d := cmp.Diff(want, resultURLs(kept)); d != "" {
		t.Errorf("kept (-want +got):\n%s", d)
	}
	if late != 2 || excluded != 0 {
		t.Errorf("late, excluded = %d, %d; want 2, 0", late, excluded)
	}
	if kept, late, _ := (Restriction{ExcludeSites: []string{"snopes.com"}}).Filter(in); len(kept) != 4 || late != 0 {
		t.Errorf("no as-of date: kept %d, late %d; want 4, 0", len(kept), late)
	}
}
