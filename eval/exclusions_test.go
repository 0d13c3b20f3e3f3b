package eval

import (
	"os"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/search"
	"github.com/google/go-cmp/cmp"
)

// leakFree is the rule set factbot eval applies (cmd/factbot leakFreeSites
// without extra sites).
var leakFree = search.Restriction{ExcludeSites: search.FactCheckers(), FactCheckPaths: true}.Excluded

// TestExclusionsFixture measures the leak-free rules on the fixture: the
// claims' own articles behind a news site's fact-check section, a
// translation proxy, archive.today, Wayback copies (percent-encoded,
// scheme-less) and an archive.today short link are caught; a BBC article
// and a Wayback copy of a Washington Post column with nothing in its
// address to name it are not, and are named by their own hosts. Archived
// copies of records and posts are kept; a short link's evidence is lost.
func TestExclusionsFixture(t *testing.T) {
	f, err := os.Open("testdata/averitec_exclusions.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := Exclusions(f, leakFree)
	if err != nil {
		t.Fatal(err)
	}
	want := &ExclusionReport{
		Claims: 8, Articles: 8, ArticlesExcluded: 6, Evidence: 8, EvidenceExcluded: 2,
		Missed: []HostCount{
			{Host: "bbc.com", Count: 1},
			{Host: "washingtonpost.com", Count: 1, Via: []HostCount{{Host: "web.archive.org", Count: 1}}},
		},
		Lost: []HostCount{
			{Host: "archive.ph", Count: 1},
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
	wantOut := `claims: 8
own fact-checking article excluded: 6 of 8 (75.0%; goal ≥ 98%: NOT met)
gold evidence URLs excluded: 2 of 8 (25.0%; goal ≤ 5%: NOT met)
articles let through, by the page's own host:
     1  bbc.com
     1  washingtonpost.com (1 via web.archive.org)
evidence excluded, by the page's own host:
     1  archive.ph
     1  politifact.com (1 via web.archive.org)
`
	if d := cmp.Diff(wantOut, b.String()); d != "" {
		t.Errorf("output (-want +got):\n%s", d)
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
	rep, err := Exclusions(strings.NewReader(b.String()), func(u string) bool {
		return search.OpaqueCopy(u) // nothing else is excluded: every other article is a miss
	})
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
