package search

import (
	"bytes"
	"net/url"
	"strings"
	"testing"

	readability "github.com/go-shiori/go-readability"
	"github.com/google/go-cmp/cmp"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

func TestTrimEdges(t *testing.T) {
	long := "The council voted on Monday to keep the library open for another five years, after a long debate."
	other := "The council votes on the library. " + long + " It passed by four votes, and the mayor said she would not ask for it to be reconsidered before the end of her term next year, whatever the budget."
	tests := []struct {
		name, text, other, want string
	}{
		{
			name:  "short lines readability lacks, at both edges",
			text:  "Politik\n\nBreaking news\n\n" + long + "\n\nIt passed by four votes\n\nMost read\n\nRams top Bears as offenses struggle",
			other: other,
			want:  long + "\n\nIt passed by four votes",
		},
		{
			name:  "a short line readability has stops the trimming, spaced its own way",
			text:  "The  council\nvotes on the library.\n\n" + long + "\n\nMost read",
			other: other,
			want:  "The  council\nvotes on the library.\n\n" + long,
		},
		{
			name:  "short lines in the middle stay",
			text:  long + "\n\nA short line\n\nAnother one\n\n" + long,
			other: other,
			want:  long + "\n\nA short line\n\nAnother one\n\n" + long,
		},
		{
			name:  "a long line at the edge stays",
			text:  "This line is longer than eighty characters and readability does not have it on the page at all.\n\n" + long,
			other: other,
			want:  "This line is longer than eighty characters and readability does not have it on the page at all.\n\n" + long,
		},
		{
			name:  "more than two short lines at the start are the page's own list",
			text:  "Aroma: red berries\n\nAcidity: medium\n\nOrigin: Sidamo\n\n" + long,
			other: other,
			want:  "Aroma: red berries\n\nAcidity: medium\n\nOrigin: Sidamo\n\n" + long,
		},
		{
			name:  "readability with too little text does not vote",
			text:  "Politik\n\n" + long,
			other: "The council votes.",
			want:  "Politik\n\n" + long,
		},
		{
			name:  "nothing is left: readability found another part of the page",
			text:  "Politik\n\nWirtschaft",
			other: other,
			want:  "Politik\n\nWirtschaft",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, trimEdges(tt.text, tt.other)); diff != "" {
				t.Errorf("trimEdges() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// edgesPara and edgesPage are a story under its headline, which readability
// leaves out as the page's title, with other stories' headlines after it.
var edgesPara = []string{
	"The council voted on Monday to keep the library open for another five years, after a long debate in which every member spoke.",
	"The library had been threatened with closure since the spring, when the budget was cut by a fifth and the staff were told to expect the worst.",
	"It passed by four votes, and the mayor said she would not ask for it to be reconsidered before the end of her term next year.",
}

var edgesPage = []byte(`<html><head><title>Council keeps the library open</title></head><body>
<nav><a href="/">Home</a> <a href="/politics">Politics</a></nav>
<div class="main"><div class="story">
<h2>Council keeps the library open</h2>
<p>` + strings.Join(edgesPara, "</p>\n<p>") + `</p>
<p>Most read</p>
<p><a href="/sport/rams">Rams top Bears as offenses struggle</a></p>
<p><a href="/sport/chiefs">Chiefs hold on to their lead</a></p>
</div></div>
<footer><p>Contact us</p></footer>
</body></html>`)

// TestExtractEdgesSwitch checks that the reader trims the edges of a
// page's main text only when the rule is switched on, by readability's
// text of the page, and that the article's paragraphs stay either way.
func TestExtractEdgesSwitch(t *testing.T) {
	u, err := url.Parse("https://example.org/vote")
	if err != nil {
		t.Fatal(err)
	}
	const headline = "Council keeps the library open"
	var texts [2]string
	for i, on := range []bool{false, true} {
		p, err := extractWith(readerConfig{lib: readerOptions, edges: on}, edgesPage, "html", "text/html", u)
		if err != nil {
			t.Fatal(err)
		}
		if p.Title != headline {
			t.Errorf("edges %v: title %q, want %q", on, p.Title, headline)
		}
		if got := containsLine(p.Text, headline); got == on { // the library keeps it; readability does not
			t.Errorf("edges %v: headline in the text %v, want %v:\n%s", on, got, !on, p.Text)
		}
		for _, l := range edgesPara {
			if !containsLine(p.Text, l) {
				t.Errorf("edges %v: text lacks %q:\n%s", on, l, p.Text)
			}
		}
		texts[i] = p.Text
	}
	doc, err := html.Parse(bytes.NewReader(edgesPage))
	if err != nil {
		t.Fatal(err)
	}
	opts := readerOptions
	opts.OriginalURL = u
	read := readabilityText(doc, &opts)
	if read == "" {
		t.Fatal("readability found no text")
	}
	if diff := cmp.Diff(trimEdges(texts[0], read), texts[1]); diff != "" {
		t.Errorf("edges on: text is not the text without them, trimmed (-want +got):\n%s", diff)
	}
}

// TestReadabilityCandidateKeepsTheLibrarysText checks that handing the
// library readability's result (readabilityText), so that it does not run
// readability again, leaves the library's text as it is without: the
// edges rule only trims what the plain library finds.
func TestReadabilityCandidateKeepsTheLibrarysText(t *testing.T) {
	u, _ := url.Parse("https://www.dailyexample.com/news/story")
	pages := savedPages(t)
	pages["edges"] = edgesPage
	for name, body := range pages {
		text := func(handed bool) string {
			doc, err := html.Parse(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			opts := readerOptions
			opts.OriginalURL = u
			if handed {
				readabilityText(doc, &opts)
				if opts.FallbackCandidates == nil {
					t.Fatalf("%s: no readability candidate handed to the library", name)
				}
			}
			res, err := trafilatura.ExtractDocument(doc, opts)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return nodeText(res.ContentNode)
		}
		if diff := cmp.Diff(text(false), text(true)); diff != "" {
			t.Errorf("%s: the library's text changes with readability handed to it (-without +with):\n%s", name, diff)
		}
	}
}

// BenchmarkEdgesRule measures what the edges rule adds to a page read:
// laying out readability's result as text and trimming the library's text
// by it. Readability itself is not counted: the library runs it on every
// page in its default mode with fall-backs, and the reader hands it the
// result instead (readabilityText).
func BenchmarkEdgesRule(b *testing.B) {
	u, _ := url.Parse("https://www.dailyexample.com/news/story")
	for name, body := range savedPages(b) {
		p, err := extractWith(readerConfig{lib: readerOptions, boilerplate: true}, body, "html", "text/html; charset=utf-8", u)
		if err != nil {
			b.Fatal(err)
		}
		doc, err := html.Parse(bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		r, err := readability.FromDocument(doc, u)
		if err != nil || r.Node == nil {
			b.Fatalf("%s: readability found nothing: %v", name, err)
		}
		b.Run(strings.TrimSuffix(name, ".html"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				trimEdges(p.Text, nodeText(r.Node))
			}
		})
	}
}
