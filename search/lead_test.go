package search

import (
	"bytes"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// leadText is a standfirst of more than minLead characters.
const leadText = "The council voted on Tuesday to keep the central library open on Sundays, reversing a decision it took in March after a petition signed by 4,000 residents."

func TestAddLead(t *testing.T) {
	const body = "The vote was nine to four.\n\nThe library will open from noon."
	page := func(inBody string) *html.Node {
		doc, err := html.Parse(strings.NewReader(`<html><head><meta name="description" content="ignored here"></head><body>` + inBody + `</body></html>`))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	tests := []struct {
		name, text, desc, page string
		want                   string
	}{
		{"shown as a standfirst", body, leadText, `<h1>Library stays open</h1><p class="standfirst">` + leadText + `</p><article><p>The vote was nine to four.</p></article>`,
			leadText + "\n\n" + body},
		{"shown with other spacing", body, leadText, `<p>` + strings.ReplaceAll(leadText, " ", "\n  ") + `</p>`,
			leadText + "\n\n" + body},
		{"split over inline elements", body, leadText, `<p><b>The council</b> voted on Tuesday to keep the central library open on Sundays, reversing a decision it took in March after a petition signed by <a href="/p">4,000 residents</a>.</p>`,
			leadText + "\n\n" + body},
		{"already in the text", leadText + "\n\n" + body, leadText, `<p>` + leadText + `</p>`,
			leadText + "\n\n" + body},
		{"in the text with other spacing", strings.Replace(leadText, " on Sundays, ", "\non Sundays,\n", 1) + "\n\n" + body, leadText, `<p>` + leadText + `</p>`,
			strings.Replace(leadText, " on Sundays, ", "\non Sundays,\n", 1) + "\n\n" + body},
		{"only in the meta tag", body, leadText, `<p>The vote was nine to four.</p>`,
			body},
		{"only in a script", body, leadText, `<script>var d = "` + leadText + `";</script><p>The vote was nine to four.</p>`,
			body},
		{"only in a form field", body, leadText, `<textarea>` + leadText + `</textarea>`,
			body},
		{"cut short in the meta tag", body, leadText[:130] + "…", `<p>` + leadText + `</p>`,
			body},
		{"too short: a tag line", body, "Local news for the whole county, every day of the week.", `<p>Local news for the whole county, every day of the week.</p>`,
			body},
		{"no description", body, "", `<p>` + leadText + `</p>`,
			body},
		{"no text", "", leadText, `<p>` + leadText + `</p>`,
			leadText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, addLead(tt.text, tt.desc, page(tt.page))); diff != "" {
				t.Errorf("addLead (-want +got):\n%s", diff)
			}
		})
	}
}

// leadPage is a news page whose standfirst stands outside the article's
// body, where go-trafilatura leaves it out.
var leadPage = []byte(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Library stays open | Example News</title>
<meta property="og:title" content="Library stays open">
<meta property="og:description" content="` + leadText + `">
</head><body>
<header><nav><a href="/">Home</a> <a href="/local">Local</a></nav></header>
<div class="intro"><h1>Library stays open</h1><div class="standfirst">` + leadText + `</div></div>
<article>
<p>The council met for three hours before the vote, which ended a dispute that had run since the spring and filled the public gallery every week.</p>
<p>The vote was nine to four. Members who voted against said the cost of Sunday staff would fall on other services, and asked for a review in a year.</p>
<p>The library will open from noon to five on Sundays from next month. Its staff said they would recruit two part-time assistants to cover the hours.</p>
<p>The petition's organisers said they were delighted and thanked everyone who had signed it, and the council's leader said the decision was the right one.</p>
</article>
<footer><p>Example News, 1 High Street</p></footer>
</body></html>`)

// TestExtractLeadSwitch reads leadPage with the lead rule off and on: the
// library leaves the standfirst out, the rule puts it first, and the rest
// of the text is the same.
func TestExtractLeadSwitch(t *testing.T) {
	u, err := url.Parse("https://news.example.org/local/library")
	if err != nil {
		t.Fatal(err)
	}
	var texts [2]string
	for i, on := range []bool{false, true} {
		cfg := readerSettings
		cfg.lead = on
		p, err := extractWith(cfg, leadPage, "html", "text/html", u)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p.Text, "The vote was nine to four.") {
			t.Fatalf("lead %v: the article's text is missing:\n%s", on, p.Text)
		}
		texts[i] = p.Text
	}
	if strings.Contains(squash(texts[0]), squash(leadText)) {
		t.Fatalf("without the rule the library already keeps the standfirst; the page does not test the rule:\n%s", texts[0])
	}
	if diff := cmp.Diff(leadText+"\n\n"+texts[0], texts[1]); diff != "" {
		t.Errorf("lead on: text is not the standfirst before the text without it (-want +got):\n%s", diff)
	}
}

// BenchmarkLeadRule times what the lead rule adds to a read of each saved
// page: looking for the page's description in its text and on the page.
// The description is one that neither holds, so that both are searched in
// full: the rule's most costly case.
func BenchmarkLeadRule(b *testing.B) {
	u, _ := url.Parse("https://www.dailyexample.com/news/story")
	for name, body := range savedPages(b) {
		cfg := readerSettings
		cfg.lead = false
		p, err := extractWith(cfg, body, "html", "text/html; charset=utf-8", u)
		if err != nil {
			b.Fatal(err)
		}
		doc, err := html.Parse(bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		desc := strings.Repeat("a description that no page holds ", 5)
		b.Run(strings.TrimSuffix(name, ".html"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				addLead(p.Text, desc, doc)
			}
		})
	}
}
