package search

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

func TestDropBoilerplateLines(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "further reading labels and the titles they link to",
			in:   "The council voted on Monday.\n\nRead more: Council delays the vote\n\nLesen Sie auch:\n\nVEA TAMBIÉN: Otra noticia\n\n[Related: An older story]\n\nIt passed by four votes.",
			want: "The council voted on Monday.\n\nIt passed by four votes.",
		},
		{
			name: "newsletter and subscription prompts",
			in:   "Prices rose.\n\nGet the latest updates right in your inbox. Subscribe to our newsletters.\n\nSign up for free today!\n\nPrices fell.",
			want: "Prices rose.\n\nPrices fell.",
		},
		{
			name: "comments, sharing and following",
			in:   "The end.\n\n11 Antworten zu\n\nKeine Kommentare\n\nView Comments\n\nShare this article\n\nFollow us on Twitter @example.",
			want: "The end.",
		},
		{
			name: "copyright, advertisement and metadata labels",
			in:   "Advertisement\n\nThe text.\n\nCopyright © 2020 Example Media. All rights reserved.\n\nLast Modified:\n\nKategorie: News",
			want: "The text.",
		},
		{
			name: "lines that are only a date or a time",
			in:   "23.10.2018\n\nJanuary 13\n\n19:49 Uhr\n\nThe text.",
			want: "The text.",
		},
		{
			name: "article text that mentions the same words stays",
			in: "Read more about the plan in the council's report, which was published on Friday after a long delay.\n\n" +
				"Related to this, the mayor said nothing.\n\n" +
				"January was the coldest month.\n\n" +
				"More money for schools\n\n" +
				"4,35 4,58 4,86\n\n1.\n\n2021\n\n" +
				"The newsletter of the society, which has been published every month since 1950 and is read by its twelve thousand members, as well as by many others, said the same.",
			want: "Read more about the plan in the council's report, which was published on Friday after a long delay.\n\n" +
				"Related to this, the mayor said nothing.\n\n" +
				"January was the coldest month.\n\n" +
				"More money for schools\n\n" +
				"4,35 4,58 4,86\n\n1.\n\n2021\n\n" +
				"The newsletter of the society, which has been published every month since 1950 and is read by its twelve thousand members, as well as by many others, said the same.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, dropBoilerplateLines(tt.in)); diff != "" {
				t.Errorf("dropBoilerplateLines() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExtractBoilerplateSwitch checks that the reader's boilerplate rule
// applies to a page's main text only when it is switched on.
func TestExtractBoilerplateSwitch(t *testing.T) {
	page := []byte(`<html><head><title>Vote</title></head><body><article>
<h1>The council votes</h1>
<p>The council voted on Monday to keep the library open for another five years, after a long debate in which every member spoke.</p>
<p>Read more: Council delays the vote</p>
<p>The library had been threatened with closure since the spring, when the budget was cut by a fifth and the staff were told to expect the worst.</p>
<p>Sign up for our newsletter today!</p>
<p>It passed by four votes, and the mayor said she would not ask for it to be reconsidered before the end of her term next year.</p>
</article></body></html>`)
	u, err := url.Parse("https://example.org/vote")
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		p, err := extractWith(readerConfig{lib: readerOptions, boilerplate: on}, page, "html", "text/html", u)
		if err != nil {
			t.Fatal(err)
		}
		for _, furniture := range []string{"Read more: Council delays the vote", "Sign up for our newsletter today!"} {
			if got := containsLine(p.Text, furniture); got == on {
				t.Errorf("boilerplate %v: text has %q = %v, want %v\n%s", on, furniture, got, !on, p.Text)
			}
		}
		if !containsLine(p.Text, "It passed by four votes, and the mayor said she would not ask for it to be reconsidered before the end of her term next year.") {
			t.Errorf("boilerplate %v: the article's last paragraph is missing:\n%s", on, p.Text)
		}
	}
}

func containsLine(text, line string) bool {
	return slices.Contains(strings.Split(text, "\n"), line)
}

func TestDropLinkLines(t *testing.T) {
	page := `<html><head><title>Council keeps the library open - Example News</title></head><body>
<nav><a href="/">Home</a> <a href="/news/council-keeps-the-library-open">Council keeps the library open</a></nav>
<ul class="toc"><li><a href="#vote">How the council voted on it</a></li>
<li><a href="https://example.org/news/vote#budget">What the budget cut means</a></li></ul>
<aside><a href="/news/mayor-plans-new-park">Mayor plans a new park in the north</a>
<a href="https://other.example/story">Prices of houses rise again this spring</a>
<a href="/files/report.pdf">The full report of the council</a>
<a href="mailto:desk@example.org">Write to the news desk</a></aside>
</body></html>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse("https://example.org/news/vote")
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		"Council keeps the library open", // the headline: the title holds it
		"How the council voted on it",    // a heading the table of contents links to
		"What the budget cut means",      // the same, by the page's own address
		"Mayor plans a new park in the north",
		"The council voted on Monday.",
		"Prices of houses rise again this spring",
		"The full report of the council", // a document the article offers
		"Write to the news desk",
		"Home",
	}, "\n\n")
	want := strings.Join([]string{
		"Council keeps the library open",
		"How the council voted on it",
		"What the budget cut means",
		"The council voted on Monday.",
		"The full report of the council",
		"Write to the news desk",
		"Home",
	}, "\n\n")
	if diff := cmp.Diff(want, dropLinkLines(in, doc, u, titleOf(doc))); diff != "" {
		t.Errorf("dropLinkLines() mismatch (-want +got):\n%s", diff)
	}
}

// TestExtractLinkLinesSwitch checks that the reader drops the titles of
// other pages' links from a page's main text only when linkLines is on.
func TestExtractLinkLinesSwitch(t *testing.T) {
	page := []byte(`<html><head><title>Vote</title></head><body><article>
<h1>The council votes</h1>
<p>The council voted on Monday to keep the library open for another five years, after a long debate in which every member spoke.</p>
<p><a href="/news/mayor-plans-new-park">Mayor plans a new park in the north</a></p>
<p>The library had been threatened with closure since the spring, when the budget was cut by a fifth and the staff were told to expect the worst.</p>
<p>It passed by four votes, and the mayor said she would not ask for it to be reconsidered before the end of her term next year.</p>
</article></body></html>`)
	u, err := url.Parse("https://example.org/vote")
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		p, err := extractWith(readerConfig{lib: readerOptions, linkLines: on}, page, "html", "text/html", u)
		if err != nil {
			t.Fatal(err)
		}
		if got := containsLine(p.Text, "Mayor plans a new park in the north"); got == on {
			t.Errorf("linkLines %v: text has the link's line = %v, want %v\n%s", on, got, !on, p.Text)
		}
		if !containsLine(p.Text, "It passed by four votes, and the mayor said she would not ask for it to be reconsidered before the end of her term next year.") {
			t.Errorf("linkLines %v: the article's last paragraph is missing:\n%s", on, p.Text)
		}
	}
}
