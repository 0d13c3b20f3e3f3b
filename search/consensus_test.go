package search

import (
	"bytes"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

func TestTrimEdges(t *testing.T) {
	long := "The council voted on Monday to keep the library open for another five years, after a long debate."
	other := "The council votes on the library. " + long + " It passed by four votes, and the mayor said she would not ask for it to be reconsidered before the end of her term next year, whatever the budget."
	tests := []struct {
		name, text string
		others     []string
		want       string
	}{
		{
			name:   "short lines no other extractor has, at both edges",
			text:   "Politik\n\nBreaking news\n\n" + long + "\n\nIt passed by four votes\n\nMost read\n\nRams top Bears as offenses struggle",
			others: []string{other, ""},
			want:   long + "\n\nIt passed by four votes",
		},
		{
			name:   "a short line another extractor has stops the trimming, spaced its own way",
			text:   "The  council\nvotes on the library.\n\n" + long + "\n\nMost read",
			others: []string{"", other},
			want:   "The  council\nvotes on the library.\n\n" + long,
		},
		{
			name:   "short lines in the middle stay",
			text:   long + "\n\nA short line\n\nAnother one\n\n" + long,
			others: []string{other},
			want:   long + "\n\nA short line\n\nAnother one\n\n" + long,
		},
		{
			name:   "a long line at the edge stays",
			text:   "This line is longer than eighty characters and no other extractor has it on the page at all.\n\n" + long,
			others: []string{other},
			want:   "This line is longer than eighty characters and no other extractor has it on the page at all.\n\n" + long,
		},
		{
			name:   "more than two short lines at the start are the page's own list",
			text:   "Aroma: red berries\n\nAcidity: medium\n\nOrigin: Sidamo\n\n" + long,
			others: []string{other},
			want:   "Aroma: red berries\n\nAcidity: medium\n\nOrigin: Sidamo\n\n" + long,
		},
		{
			name:   "another extractor with too little text does not vote",
			text:   "Politik\n\n" + long,
			others: []string{"The council votes.", ""},
			want:   "Politik\n\n" + long,
		},
		{
			name:   "nothing is left: the others found another part of the page",
			text:   "Politik\n\nWirtschaft",
			others: []string{other},
			want:   "Politik\n\nWirtschaft",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, trimEdges(tt.text, tt.others...)); diff != "" {
				t.Errorf("trimEdges() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExtractEdgesSwitch checks that the reader trims the edges of a
// page's main text only when the rule is switched on, and that the
// article's paragraphs stay either way.
func TestExtractEdgesSwitch(t *testing.T) {
	para := []string{
		"The council voted on Monday to keep the library open for another five years, after a long debate in which every member spoke.",
		"The library had been threatened with closure since the spring, when the budget was cut by a fifth and the staff were told to expect the worst.",
		"It passed by four votes, and the mayor said she would not ask for it to be reconsidered before the end of her term next year.",
	}
	page := []byte(`<html><head><title>Vote</title></head><body>
<nav><a href="/">Home</a> <a href="/politics">Politics</a></nav>
<div class="main"><div class="story">
<p>` + strings.Join(para, "</p>\n<p>") + `</p>
<p>Most read</p>
<p><a href="/sport/rams">Rams top Bears as offenses struggle</a></p>
<p><a href="/sport/chiefs">Chiefs hold on to their lead</a></p>
</div></div>
<footer><p>Contact us</p></footer>
</body></html>`)
	u, err := url.Parse("https://example.org/vote")
	if err != nil {
		t.Fatal(err)
	}
	var texts [2]string
	for i, on := range []bool{false, true} {
		p, err := extractWith(readerConfig{lib: readerOptions, edges: on}, page, "html", "text/html", u)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range para {
			if !containsLine(p.Text, l) {
				t.Errorf("edges %v: text lacks %q:\n%s", on, l, p.Text)
			}
		}
		texts[i] = p.Text
	}
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	opts := readerOptions
	opts.OriginalURL = u
	read, dist := readabilityText(doc, &opts), distillerText(doc, u)
	if read == "" || dist == "" {
		t.Fatalf("the fall-back extractors found no text: readability %q, distiller %q", read, dist)
	}
	if diff := cmp.Diff(trimEdges(texts[0], read, dist), texts[1]); diff != "" {
		t.Errorf("edges on: text is not the text without them, trimmed (-want +got):\n%s", diff)
	}
}
