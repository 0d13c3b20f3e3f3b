package search

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// BenchmarkDropBoilerplateLines measures the boilerplate rule alone on the
// text the reader without it takes from each saved page.
func BenchmarkDropBoilerplateLines(b *testing.B) {
	u, _ := url.Parse("https://www.dailyexample.com/news/story")
	for name, body := range savedPages(b) {
		p, err := extractWith(readerConfig{lib: readerOptions}, body, "html", "text/html; charset=utf-8", u)
		if err != nil {
			b.Fatal(err)
		}
		dropBoilerplateLines(p.Text) // its expressions are compiled on first use
		b.Run(strings.TrimSuffix(name, ".html"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				dropBoilerplateLines(p.Text)
			}
		})
	}
}
