package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/internal/goldentest"
	"github.com/factbot-dev/factbot/search"
	"github.com/google/go-cmp/cmp"
)

// leakFree is the rule set factbot eval applies (cmd/factbot leakFreeSites
// without extra sites), as of a claim's date.
func leakFree(u string, asOf time.Time) bool {
	r := search.Restriction{Before: asOf, ExcludeSites: search.FactCheckers(), FactCheckPaths: true}
	_, late := r.AddressAfter(u)
	return r.Excluded(u) || late
}

// TestExclusionsFixture measures the leak-free rules on the fixture: the
// claims' own articles behind a news site's fact-check section, a
// translation proxy, archive.today, Wayback copies (percent-encoded,
// scheme-less) and an archive.today short link are caught; a BBC article
// and Wayback copies of Washington Post columns with nothing in their
// address to name them are not, and are named by their own hosts. Archived
// copies of records and posts are kept; a short link's evidence, and a
// fact-checker's page cited as evidence, are lost. As of each claim's
// date, a column whose address dates it after the claim's day is caught
// (not one of the claim's own day, nor one of a claim without a date),
// and so is evidence dated later: a URL two claims cite is lost once, if
// one claim's date excludes it; a Wayback copy archived later but dated
// earlier is kept. With each claim's own article excluded by address
// too, every article goes, and so does the live copy of one that a claim
// cites as its evidence.
func TestExclusionsFixture(t *testing.T) {
	read := func(asOf bool) *ExclusionReport {
		t.Helper()
		f, err := os.Open("testdata/averitec_exclusions.json")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rep, err := Exclusions(f, leakFree, asOf)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := read(true)
	want := &ExclusionReport{
		Claims: 11, Dated: 10, Articles: 11, ArticlesExcluded: 7, Evidence: 13, EvidenceExcluded: 4,
		WithoutDates: ExclusionCounts{ArticlesExcluded: 6, EvidenceExcluded: 3},
		OwnURL:       ExclusionCounts{ArticlesExcluded: 11, EvidenceExcluded: 5},
		Missed: []HostCount{
			{Host: "washingtonpost.com", Count: 3, Via: []HostCount{{Host: "web.archive.org", Count: 2}}},
			{Host: "bbc.com", Count: 1},
		},
		Lost: []HostCount{
			{Host: "archive.ph", Count: 1},
			{Host: "france24.com", Count: 1},
			{Host: "icirnigeria.org", Count: 1},
			{Host: "politifact.com", Count: 1, Via: []HostCount{{Host: "web.archive.org", Count: 1}}},
		},
	}
	if d := cmp.Diff(want, rep); d != "" {
		t.Errorf("report (-want +got):\n%s", d)
	}
	var b strings.Builder
	if err := WriteExclusions(&b, rep); err != nil {
		t.Fatal(err)
	}
	// The same text is what factbot eval --exclusions prints (cmd/factbot).
	goldentest.Golden(t, filepath.Join("testdata", "averitec_exclusions.golden"), []byte(b.String()), *update)

	// Without the dates (--no-as-of), the address-date rule is off.
	rep = read(false)
	want = &ExclusionReport{
		Claims: 11, Articles: 11, ArticlesExcluded: 6, Evidence: 13, EvidenceExcluded: 3,
		WithoutDates: ExclusionCounts{ArticlesExcluded: 6, EvidenceExcluded: 3},
		OwnURL:       ExclusionCounts{ArticlesExcluded: 11, EvidenceExcluded: 4},
		Missed: []HostCount{
			{Host: "washingtonpost.com", Count: 4, Via: []HostCount{{Host: "web.archive.org", Count: 3}}},
			{Host: "bbc.com", Count: 1},
		},
		Lost: []HostCount{
			{Host: "archive.ph", Count: 1},
			{Host: "icirnigeria.org", Count: 1},
			{Host: "politifact.com", Count: 1, Via: []HostCount{{Host: "web.archive.org", Count: 1}}},
		},
	}
	if d := cmp.Diff(want, rep); d != "" {
		t.Errorf("without dates: report (-want +got):\n%s", d)
	}
	b.Reset()
	if err := WriteExclusions(&b, rep); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.HasPrefix(out, "claims: 11\n") || strings.Contains(out, "without the claims' dates") {
		t.Errorf("without dates: output\n%s", out)
	}
}

// TestExclusionsArchivedHosts: a miss or a loss is counted under the host
// of the page an archived or proxied copy copies, whatever the address
// form, with the mirrors that copied it, most frequent first.
func TestExclusionsArchivedHosts(t *testing.T) {
	articles := []string{
		"https://web.archive.org/web/20201019000000/https://www.washingtonpost.com/politics/2020/10/19/a/",
		"https://web.archive.org/web/20201019000000id_/http:/washingtonpost.com/politics/2020/10/19/b/",
		"http://web.archive.org/web/2020/www.washingtonpost.com/politics/2020/10/19/c/",
		"https://web.archive.org/web/2020/https%3A%2F%2Fwww.washingtonpost.com%2Fpolitics%2F2020%2Fd%2F",
		"https://archive.ph/2020.10.19-000000/https://www.washingtonpost.com/politics/2020/e/",
		"https://wayback.archive-it.org/1234/20201019000000/https://www.washingtonpost.com/politics/2020/f/",
		"https://www-washingtonpost-com.translate.goog/politics/2020/g/?_x_tr_sl=en",
		"https://www.washingtonpost.com/politics/2020/h/",
		"https://web.archive.org/web/2020/https://www.bbc.co.uk/news/uk-1",
		"https://webcache.googleusercontent.com/search?q=cache:https://www.bbc.co.uk/news/uk-2",
		"https://archive.ph/AbCdE",
	}
	var b strings.Builder
	b.WriteString("[")
	for i, a := range articles {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"claim":"c","fact_checking_article":"` + a + `","questions":[]}`)
	}
	b.WriteString("]")
	rep, err := Exclusions(strings.NewReader(b.String()), func(u string, _ time.Time) bool {
		return search.OpaqueCopy(u) // nothing else is excluded: every other article is a miss
	}, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []HostCount{
		{Host: "washingtonpost.com", Count: 8, Via: []HostCount{
			{Host: "web.archive.org", Count: 4},
			{Host: "archive.ph", Count: 1},
			{Host: "wayback.archive-it.org", Count: 1},
			{Host: "www-washingtonpost-com.translate.goog", Count: 1},
		}},
		{Host: "bbc.co.uk", Count: 2, Via: []HostCount{
			{Host: "web.archive.org", Count: 1},
			{Host: "webcache.googleusercontent.com", Count: 1},
		}},
	}
	if d := cmp.Diff(want, rep.Missed); d != "" {
		t.Errorf("missed (-want +got):\n%s", d)
	}
	if rep.ArticlesExcluded != 1 {
		t.Errorf("articles excluded = %d, want 1 (the short link)", rep.ArticlesExcluded)
	}
}

func TestHostOf(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://www.PolitiFact.com/factchecks/x/", "politifact.com"},
		{"https://web.archive.org/web/2020/https://www.politifact.com/x", "web.archive.org"},
		{"http://example.com:8080/x", "example.com"},
		{"not a url", "not a url"},
		{" https://www.bbc.com/news ", "bbc.com"},
	}
	for _, tt := range tests {
		if got := hostOf(tt.in); got != tt.want {
			t.Errorf("hostOf(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
