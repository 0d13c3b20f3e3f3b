package search

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnwrap(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://www.snopes.com/fact-check/x/", "https://www.snopes.com/fact-check/x/"},
		{"https://web.archive.org/web/20200101000000/https://www.snopes.com/x", "https://www.snopes.com/x"},
		{"https://web.archive.org/web/20200101000000id_/http:/politifact.com/x", "http://politifact.com/x"},
		{"http://archive.org/web/2020/www.fullfact.org/a?b=1", "http://www.fullfact.org/a?b=1"},
		{"https://archive.ph/2020.08.25-123456/https://www.snopes.com/fact-check/x/", "https://www.snopes.com/fact-check/x/"},
		{"https://archive.today/20200825123456/https://www.usatoday.com/story/news/factcheck/x", "https://www.usatoday.com/story/news/factcheck/x"},
		{"https://archive.is/o/AbCdE/https://factcheck.org/x", "https://factcheck.org/x"},
		{"https://archive.li/newest/https://fullfact.org/x", "https://fullfact.org/x"},
		{"https://archive.md/AbCdE", "https://archive.md/AbCdE"},
		{"https://archive.vn/2021.01.01-000000/politifact.com/x", "http://politifact.com/x"},
		{"https://www-snopes-com.translate.goog/fact-check/x/?_x_tr_sl=en&_x_tr_tl=fr", "https://www.snopes.com/fact-check/x/"},
		{"https://my--site-org.translate.goog/a", "https://my-site.org/a"},
		{"https://translate.google.com/translate?sl=en&u=https://www.snopes.com/x", "https://www.snopes.com/x"},
		{"https://www-usatoday-com.cdn.ampproject.org/c/s/www.usatoday.com/amp/123", "https://www.usatoday.com/amp/123"},
		{"https://cdn.ampproject.org/v/www.example.com/a", "http://www.example.com/a"},
		{"https://www.google.com/amp/s/www.snopes.com/x/amp/", "https://www.snopes.com/x/amp/"},
		{"https://webcache.googleusercontent.com/search?q=cache:Ab1_cd:https://www.snopes.com/x", "https://www.snopes.com/x"},
		{"https://webcache.googleusercontent.com/search?q=cache:https://fullfact.org/x", "https://fullfact.org/x"},
		{"https://amp.theguardian.com/world/x", "https://theguardian.com/world/x"},
		{"https://m.facebook.com/story", "https://facebook.com/story"},
		{"https://m.com/x", "https://m.com/x"},
		{"https://web.archive.org/web/2020/https://archive.ph/2020/https://www-snopes-com.translate.goog/x", "https://www.snopes.com/x"},
	}
	for _, tt := range tests {
		if got := Unwrap(tt.in); got != tt.want {
			t.Errorf("Unwrap(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExcludedLeakFree(t *testing.T) {
	r := Restriction{ExcludeSites: FactCheckers(), FactCheckPaths: true}
	tests := []struct {
		url  string
		want bool
	}{
		// Fact-checking organisations, their desks and subdomains.
		{"https://www.politifact.com/factchecks/2020/jan/01/x/", true},
		{"https://factuel.afp.com/x", true},
		{"https://www.aap.com.au/make-the-call/x", true},
		{"https://www.newsmeter.in/top-stories/x", true},
		// Fact-check sections of news sites.
		{"https://eu.usatoday.com/story/news/factcheck/2020/08/25/fact-check-x/3432000001/", true},
		{"https://www.indiatoday.in/fact-check/story/x-1700000-2020-08-25", true},
		{"https://www.washingtonpost.com/politics/2020/09/03/fact-checking-x/", true},
		{"https://www.washingtonpost.com/news/fact-checker/wp/2017/01/01/x/", true},
		{"https://www.reuters.com/article/uk-factcheck-x-idUSKBN25L2EE", true},
		{"https://www.reuters.com/article/factcheck-x/", true},
		{"https://thedispatch.com/newsletter/factcheck/x/", true},
		{"https://thedispatch.com/article/fact-check-x/", true},
		{"https://www.thequint.com/news/webqoof/x", true},
		{"https://www.bbc.com/news/reality_check", true},
		{"https://factcheck.thedispatch.com/p/x", true},
		{"https://apnews.com/article/fact-checking-x-123", true},
		{"https://apnews.com/hub/ap-fact-check", true},
		{"https://www.newsweek.com/fact-check-x-1530000", true},
		// The same behind mirrors.
		{"https://www-snopes-com.translate.goog/fact-check/x/", true},
		{"https://archive.ph/2020.08.25-123456/https://www.usatoday.com/story/news/factcheck/x", true},
		{"https://www-usatoday-com.cdn.ampproject.org/c/s/www.usatoday.com/story/news/factcheck/x", true},
		{"https://www.google.com/amp/s/www.indiatoday.in/amp/fact-check/story/x", true},
		{"https://webcache.googleusercontent.com/search?q=cache:https://fullfact.org/x", true},
		{"https://m.indiatoday.in/fact-check/story/x", true},
		// Reporting and records stay.
		{"https://www.usatoday.com/story/news/politics/2020/08/25/x/", false},
		{"https://www.washingtonpost.com/politics/2020/09/03/x/", false},
		{"https://www.reuters.com/article/us-health-coronavirus-x", false},
		{"https://www.bbc.com/news/world-53436329", false},
		{"https://www.indiatoday.in/india/story/x", false},
		{"https://www.congress.gov/bill/116th-congress/house-bill/748", false},
		{"https://archive.ph/AbCdE", false},
		{"https://web.archive.org/web/2020/https://www.cdc.gov/x", false},
		{"https://twitter.com/user/status/123", false},
	}
	for _, tt := range tests {
		if got := r.Excluded(tt.url); got != tt.want {
			t.Errorf("Excluded(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
	if (Restriction{ExcludeSites: FactCheckers()}).Excluded("https://www.usatoday.com/story/news/factcheck/x") {
		t.Error("without FactCheckPaths, a news site's fact-check section is excluded")
	}
}

func TestFactCheckersShipped(t *testing.T) {
	sites := FactCheckers()
	if len(sites) < 100 {
		t.Fatalf("%d sites; want the shipped list", len(sites))
	}
	for _, want := range []string{"politifact.com", "snopes.com", "fullfact.org", "afp.com", "aap.com.au", "newsmeter.in", "newsmobile.in"} {
		if !slices.Contains(sites, want) {
			t.Errorf("the shipped list lacks %s", want)
		}
	}
	norm, err := NormalizeSites(sites)
	if err != nil || !cmp.Equal(norm, sites) {
		t.Errorf("the shipped list is not normalised: %v", err)
	}
}
