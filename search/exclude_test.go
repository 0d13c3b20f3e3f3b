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
		// An archive.today short link names no page: it may be a copy of
		// a fact-check, so a leak-free check keeps it out (OpaqueCopy).
		{"https://archive.ph/AbCdE", true},
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

// TestUnwrapArchives reads the page an archived copy copies, in the
// address forms archives and datasets use (AVeriTeC's
// fact_checking_article and source_url fields are Wayback copies).
func TestUnwrapArchives(t *testing.T) {
	tests := []struct{ in, want string }{
		// The Wayback Machine: timestamps, flags, wildcards.
		{"https://web.archive.org/web/20201130144023/https://checkyourfact.com/2020/11/03/fact-check-x-1998/", "https://checkyourfact.com/2020/11/03/fact-check-x-1998/"},
		{"https://web.archive.org/web/20201102234452im_/https://images-prod.misbar.com/articlebody/origin_x.jpg", "https://images-prod.misbar.com/articlebody/origin_x.jpg"},
		{"https://web.archive.org/web/20210316031824mp_/https://www.republicanleader.senate.gov/newsroom/press-releases/x", "https://www.republicanleader.senate.gov/newsroom/press-releases/x"},
		{"https://web.archive.org/web/20040225060658if_/http://www.metrokc.gov/gis/x.html", "http://www.metrokc.gov/gis/x.html"},
		{"https://web.archive.org/web/20200101000000js_/https://fullfact.org/a.js", "https://fullfact.org/a.js"},
		{"https://web.archive.org/web/20210101000000*/https://www.politifact.com/factchecks/x/", "https://www.politifact.com/factchecks/x/"},
		{"https://web.archive.org/web/*/https://www.politifact.com/factchecks/x/", "https://www.politifact.com/factchecks/x/"},
		{"https://web.archive.org/web/https://www.factcheck.org/2020/10/x/", "https://www.factcheck.org/2020/10/x/"},
		{"https://web.archive.org/web/www.factcheck.org/2020/10/x/", "http://www.factcheck.org/2020/10/x/"},
		// Scheme-less, collapsed, upper-case and scheme-less outer URLs.
		{"http://web.archive.org/web/2021/fullfact.org/health/x/", "http://fullfact.org/health/x/"},
		{"web.archive.org/web/20210101000000/https://www.snopes.com/fact-check/x/", "https://www.snopes.com/fact-check/x/"},
		{"//web.archive.org/web/20210101000000/https://www.snopes.com/fact-check/x/", "https://www.snopes.com/fact-check/x/"},
		{"https://web.archive.org/web/2020id_/http:/www.reuters.com/article/uk-factcheck-x-idUSKBN1", "http://www.reuters.com/article/uk-factcheck-x-idUSKBN1"},
		{"https://web.archive.org/web/2020/https:///www.snopes.com/x", "https://www.snopes.com/x"},
		{"https://WEB.ARCHIVE.ORG/web/2020/HTTPS://www.snopes.com/x", "https://www.snopes.com/x"},
		{"https://www.web.archive.org/web/2020/https://www.snopes.com/x", "https://www.snopes.com/x"},
		// Percent-encoded originals, once or twice, and stray "%".
		{"https://web.archive.org/web/20200101000000/https%3A%2F%2Fwww.snopes.com%2Ffact-check%2Fx%2F", "https://www.snopes.com/fact-check/x/"},
		{"https://web.archive.org/web/20200101000000/https:%2F%2Fwww.snopes.com%2Fx", "https://www.snopes.com/x"},
		{"https://web.archive.org/web/2020/www.snopes.com%2Ffact-check%2Fx", "http://www.snopes.com/fact-check/x"},
		{"https://web.archive.org/web/2020/https%253A%252F%252Ffullfact.org%252Fx", "https://fullfact.org/x"},
		{"https://web.archive.org/web/2020/https://www.snopes.com/fact-check/100%-real/", "https://www.snopes.com/fact-check/100%25-real/"},
		// The original's query, and the archive's other entry points.
		{"https://web.archive.org/web/2020/https://www.youtube.com/watch?v=abc", "https://www.youtube.com/watch?v=abc"},
		{"https://web.archive.org/save/https://www.snopes.com/x", "https://www.snopes.com/x"},
		{"https://web.archive.org/save/_embed/https://fullfact.org/x", "https://fullfact.org/x"},
		{"https://archive.org/wayback/available?url=snopes.com/fact-check/x", "http://snopes.com/fact-check/x"},
		{"https://web.archive.org/cdx/search/cdx?url=politifact.com/factchecks/x&output=json", "http://politifact.com/factchecks/x"},
		{"https://wayback.archive.org/web/2020/https://fullfact.org/x", "https://fullfact.org/x"},
		// The Internet Archive's own pages are no copies.
		{"https://archive.org/details/some-item", "https://archive.org/details/some-item"},
		{"https://archive.org/details/1234567/report.pdf", "https://archive.org/details/1234567/report.pdf"},
		{"https://web.archive.org/", "https://web.archive.org/"},
		// Other archives running the Wayback software.
		{"https://wayback.archive-it.org/1234/20200101000000/https://www.factcheck.org/x/", "https://www.factcheck.org/x/"},
		{"https://arquivo.pt/wayback/20200101000000/https://poligrafo.sapo.pt/x", "https://poligrafo.sapo.pt/x"},
		{"https://webarchive.nationalarchives.gov.uk/ukgwa/20200101000000/https://www.gov.uk/x", "https://www.gov.uk/x"},
		{"https://webarchive.loc.gov/all/20200101000000/https://www.congress.gov/x", "https://www.congress.gov/x"},
		{"https://www.webarchive.org.uk/wayback/archive/20200101000000/https://fullfact.org/x", "https://fullfact.org/x"},
		{"https://wayback.webarchiv.cz/wayback/20200101000000/https://www.example.cz/x", "https://www.example.cz/x"},
		{"https://webarchive.parliament.uk/20200101000000/https://www.parliament.uk/x", "https://www.parliament.uk/x"},
		{"http://timetravel.mementoweb.org/reconstruct/20200101000000/https://www.snopes.com/x", "https://www.snopes.com/x"},
		// archive.today: long forms read, short links left as they are.
		{"https://archive.ph/submit/?url=https://www.snopes.com/x", "https://www.snopes.com/x"},
		{"https://archive.ph/newest/https://www.snopes.com/x", "https://www.snopes.com/x"},
		{"https://archive.ph/https://www.snopes.com/x", "https://www.snopes.com/x"},
		{"https://archive.fo/www.snopes.com", "http://www.snopes.com"},
		{"https://archive.is/AbCdE", "https://archive.is/AbCdE"},
		{"https://archive.ph/AbCdE/image", "https://archive.ph/AbCdE/image"},
		// Other archives: readable queries, opaque ids.
		{"https://webcitation.org/query?url=https://fullfact.org/x&date=2020-01-01", "https://fullfact.org/x"},
		{"https://ghostarchive.org/search?term=https://www.snopes.com/x", "https://www.snopes.com/x"},
		{"https://ghostarchive.org/archive/AbCdE", "https://ghostarchive.org/archive/AbCdE"},
		{"https://perma.cc/88KW-Y98C", "https://perma.cc/88KW-Y98C"},
		// Nested: a Wayback copy of an archive.today copy of a translation.
		{"https://web.archive.org/web/2020/https://archive.ph/o/AbCdE/https://www-snopes-com.translate.goog/x?_x_tr_sl=en", "https://www.snopes.com/x"},
	}
	for _, tt := range tests {
		if got := Unwrap(tt.in); got != tt.want {
			t.Errorf("Unwrap(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOpaqueCopy(t *testing.T) {
	tests := []struct {
		url  string
		want bool
	}{
		{"https://archive.ph/AbCdE", true},
		{"http://archive.is/AbCdE", true},
		{"https://archive.today/AbCdE/image", true},
		{"https://perma.cc/88KW-Y98C", true},
		{"https://ghostarchive.org/archive/AbCdE", true},
		{"https://www.webcitation.org/6AbCdEfGh", true},
		{"https://web.archive.org/web/2020/https://archive.ph/AbCdE", true}, // a copy of a short link
		{"https://archive.ph/", false},
		{"https://archive.ph/2020.08.25-123456/https://www.cdc.gov/x", false},
		{"https://web.archive.org/web/2020/https://www.cdc.gov/x", false},
		{"https://archive.org/details/some-item", false},
		{"https://www.snopes.com/fact-check/x/", false},
	}
	for _, tt := range tests {
		if got := OpaqueCopy(tt.url); got != tt.want {
			t.Errorf("OpaqueCopy(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
}

// TestExcludedArchivedCopies: an archived copy is judged as the page it
// copies. Copies of fact-checks go, in every address form; copies of
// records, reporting and posts (the gold evidence of datasets like
// AVeriTeC, often given as Wayback copies) stay.
func TestExcludedArchivedCopies(t *testing.T) {
	r := Restriction{ExcludeSites: FactCheckers(), FactCheckPaths: true}
	tests := []struct {
		url  string
		want bool
	}{
		// Fact-checkers' articles and fact-check sections, archived.
		{"https://web.archive.org/web/20210303141100/https://misbar.com/en/factcheck/2020/10/13/x", true},
		{"https://web.archive.org/web/20210121133809/https://www.covid19facts.ca/en/fact-checked/x", true},
		{"https://web.archive.org/web/20210527102646/https://www.polygraph.info/a/30854170.html", true},
		{"https://web.archive.org/web/20210629013122/https://www.indiatoday.in/fact-check/story/x-1737276-2020-11-02", true},
		{"https://web.archive.org/web/20201103001419/https://leadstories.com/hoax-alert/2020/11/fact-check-x.html", true},
		{"http://web.archive.org/web/2021/fullfact.org/health/x/", true},
		{"https://web.archive.org/web/2020id_/http:/www.reuters.com/article/uk-factcheck-x-idUSKBN1", true},
		{"https://web.archive.org/web/20200101000000/https%3A%2F%2Fwww.snopes.com%2Ffact-check%2Fx%2F", true},
		{"https://web.archive.org/web/2020/eu.usatoday.com%2Fstory%2Fnews%2Ffactcheck%2F2020%2Fx", true},
		{"https://web.archive.org/web/2020/https://www.snopes.com/fact-check/100%-real/", true},
		{"https://web.archive.org/save/https://www.politifact.com/factchecks/x/", true},
		{"https://wayback.archive-it.org/1234/20200101000000/https://africacheck.org/fact-checks/x", true},
		{"https://arquivo.pt/wayback/20200101000000/https://poligrafo.sapo.pt/x", true},
		{"https://archive.ph/newest/https://www.washingtonpost.com/politics/2020/09/03/fact-checking-x/", true},
		{"https://archive.is/AbCdE", true}, // opaque
		{"https://perma.cc/88KW-Y98C", true},
		{"https://web.archive.org/web/2020/https://www-factcheck-org.translate.goog/x?_x_tr_sl=en", true},
		{"https://web.archive.org/web/20210116000000/https://www.icirnigeria.org/claim-that-x-is-false/", true},
		// Archived records, reporting and posts.
		{"https://web.archive.org/web/20201129141238/https://scoopertino.com/exposed-x/", false},
		{"https://web.archive.org/web/20210905081440/https://twitter.com/ImranKhanPTI/status/1320286665785704448", false},
		{"https://web.archive.org/web/20201101145631/https://nypost.com/2020/10/30/washington-post-wrongly-claims-x/", false},
		{"https://web.archive.org/web/20210119235843/https://assets.publishing.service.gov.uk/government/uploads/x.pdf#page=15", false},
		{"https://web.archive.org/web/20190617152451/http://blogs.usyd.edu.au/cru/2015/06/x.html", false},
		{"https://web.archive.org/web/20210710011712/https://www.fas.org/sgp/crs/misc/R44234.pdf", false},
		{"https://web.archive.org/web/20201022032602/https://www.facebook.com/lostinhistorypics/posts/2021427674656146", false},
		{"https://web.archive.org/web/2020/https%3A%2F%2Fwww.cdc.gov%2Fcoronavirus%2Fx", false},
		{"https://webarchive.nationalarchives.gov.uk/ukgwa/20200101000000/https://www.gov.uk/x", false},
		{"https://archive.ph/2020.08.25-123456/https://www.who.int/x", false},
		{"https://archive.org/details/some-item", false},
	}
	for _, tt := range tests {
		if got := r.Excluded(tt.url); got != tt.want {
			t.Errorf("Excluded(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
	// With no exclusion at all, nothing is excluded, opaque or not.
	if (Restriction{}).Excluded("https://archive.ph/AbCdE") {
		t.Error("an unrestricted check excludes an archive.today short link")
	}
}

// TestExcludedMoreDesks: fact-check sections named by the words and
// segments added for desks whose sites also carry news, archived or not.
func TestExcludedMoreDesks(t *testing.T) {
	r := Restriction{ExcludeSites: FactCheckers(), FactCheckPaths: true}
	tests := []struct {
		url  string
		want bool
	}{
		{"https://www.wusa9.com/article/news/verify/health-verify/x/65-1", true},
		{"https://web.archive.org/web/2020/https://www.kens5.com/article/news/verify/x/273-1", true},
		{"https://g1.globo.com/fato-ou-fake/noticia/2020/10/20/x.ghtml", true},
		{"https://politica.estadao.com.br/blogs/estadao-verifica/x/", true},
		{"https://ici.radio-canada.ca/decrypteurs/x", true},
		{"https://www.sciencepresse.qc.ca/actualite/detecteur-rumeurs/2020/10/20/x", true},
		{"https://www.20minutes.fr/societe/fake-off/x", true},
		{"https://www.br.de/nachrichten/faktenfuchs/x", true},
		{"https://www.delfi.lt/news/melo-detektorius/x", true},
		{"https://www.rmit.edu.au/news/factlab-meta/x", true},
		{"https://web.archive.org/web/2021/https://thip.media/health-news-fact-check/x/", true},
		{"https://web.archive.org/web/2020/https://www.gossipcop.com/x/", true},
		// Their reporting, and other uses of the words, stay.
		{"https://www.wusa9.com/article/news/local/x/65-1", false},
		{"https://g1.globo.com/economia/noticia/2020/10/20/x.ghtml", false},
		{"https://www.ssa.gov/myaccount/verify-identity.html", false},
		{"https://www.irs.gov/identity-theft-fraud-scams/identity-verification", false},
	}
	for _, tt := range tests {
		if got := r.Excluded(tt.url); got != tt.want {
			t.Errorf("Excluded(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
}

// FuzzUnwrap: Unwrap and Excluded never panic, whatever the address.
func FuzzUnwrap(f *testing.F) {
	for _, s := range []string{
		"https://web.archive.org/web/2020id_/https%3A%2F%2Fx.org%2Fa",
		"https://archive.ph/o/AbCdE/https://x.org/a?b=1",
		"https://wayback.archive-it.org/1/2/3/4/5",
		"web.archive.org/web/%zz/x.org",
		"https://web.archive.org/web/_/",
		"%",
	} {
		f.Add(s)
	}
	r := Restriction{ExcludeSites: []string{"x.org"}, FactCheckPaths: true}
	f.Fuzz(func(t *testing.T, s string) {
		_ = Unwrap(s)
		_ = OpaqueCopy(s)
		_ = r.Excluded(s)
	})
}

// TestExcludedOwnURL: a page excluded by address (a claim's own
// fact-check) goes with its copies on mirrors and its other spellings;
// the rest of its site stays.
func TestExcludedOwnURL(t *testing.T) {
	own := "https://web.archive.org/web/20210118000000/https://www.washingtonpost.com/politics/2020/10/14/a-made-up-slug/"
	r := Restriction{ExcludeURLs: []string{own}}
	tests := []struct {
		url  string
		want bool
	}{
		{own, true},
		{"https://www.washingtonpost.com/politics/2020/10/14/a-made-up-slug/", true},
		{"http://washingtonpost.com/politics/2020/10/14/a-made-up-slug", true},
		{"https://www.washingtonpost.com/politics/2020/10/14/a-made-up-slug/#comments", true},
		{"https://web.archive.org/web/2022id_/https://www.washingtonpost.com/politics/2020/10/14/a-made-up-slug/", true},
		{"https://archive.ph/newest/https://www.washingtonpost.com/politics/2020/10/14/a-made-up-slug/", true},
		{"https://www-washingtonpost-com.translate.goog/politics/2020/10/14/a-made-up-slug/?_x_tr_sl=en", true},
		{"https://archive.ph/AbCdE", true}, // opaque: it may be a copy
		// The rest of the site, and the same path on another, stay.
		{"https://www.washingtonpost.com/politics/2020/10/14/another-made-up-slug/", false},
		{"https://www.washingtonpost.com/politics/2020/10/14/a-made-up-slug/?page=2", false},
		{"https://www.example.com/politics/2020/10/14/a-made-up-slug/", false},
		{"https://web.archive.org/web/2021/https://www.bbc.co.uk/news/election-us-2020-12345678", false},
	}
	for _, tt := range tests {
		if got := r.Excluded(tt.url); got != tt.want {
			t.Errorf("Excluded(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
	if r.IsZero() || r.key() == (Restriction{}).key() {
		t.Error("a restriction by address alone counts as no restriction")
	}
	if (Restriction{ExcludeURLs: []string{"https://x.org/a"}}).key() == r.key() {
		t.Error("restrictions excluding different pages share a cache key")
	}
}
