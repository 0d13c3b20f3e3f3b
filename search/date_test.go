package search

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// datedPage is a short news page; head and byline carry its date in one
// of the forms that sites use.
func datedPage(head, byline string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Harbour bridge reopens after repairs</title>%s</head><body>
<header><nav><a href="/">Home</a> <a href="/local">Local</a></nav></header>
<main><article><h1>Harbour bridge reopens after repairs</h1>%s
`, head, byline)
	for i := range 6 {
		fmt.Fprintf(&b, "<p>The harbour bridge reopened to traffic on Friday after eleven weeks of repairs to its deck, the city council said, and paragraph %d says that the work cost 4.2 million pounds, within the budget set in the spring.</p>\n", i+1)
	}
	b.WriteString("</article></main><footer>© The Harbour Herald</footer></body></html>")
	return []byte(b.String())
}

func TestExtractPublished(t *testing.T) {
	tests := []struct {
		name   string
		url    string
		head   string
		byline string
		want   time.Time
		wantS  string
	}{
		{
			name: "meta article:published_time",
			url:  "https://herald.example/local/bridge",
			head: `<meta property="article:published_time" content="2024-03-15T09:30:00+01:00"><meta property="article:modified_time" content="2024-03-18T12:00:00Z">`,
			want: time.Date(2024, 3, 15, 8, 30, 0, 0, time.UTC), wantS: "2024-03-15T08:30:00Z",
		},
		{
			name: "JSON-LD datePublished",
			url:  "https://herald.example/local/bridge",
			head: `<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Harbour bridge reopens after repairs","datePublished":"2023-11-02T16:05:00Z","dateModified":"2023-11-03T08:00:00Z"}</script>`,
			want: time.Date(2023, 11, 2, 16, 5, 0, 0, time.UTC), wantS: "2023-11-02T16:05:00Z",
		},
		{
			name: "date in the URL",
			url:  "https://herald.example/2022/07/19/harbour-bridge-reopens",
			want: time.Date(2022, 7, 19, 0, 0, 0, 0, time.UTC), wantS: "2022-07-19",
		},
		{
			name:   "visible date in a time element",
			url:    "https://herald.example/local/bridge",
			byline: `<p class="byline">By Ann Writer, <time datetime="2021-05-04">4 May 2021</time></p>`,
			want:   time.Date(2021, 5, 4, 0, 0, 0, 0, time.UTC), wantS: "2021-05-04",
		},
		{
			name:   "visible date in words",
			url:    "https://herald.example/local/bridge",
			byline: `<div class="date">Published on 12 January 2020</div>`,
			want:   time.Date(2020, 1, 12, 0, 0, 0, 0, time.UTC), wantS: "2020-01-12",
		},
		{
			name: "no date",
			url:  "https://herald.example/local/bridge",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, _ := url.Parse(tt.url)
			p, err := extract(datedPage(tt.head, tt.byline), "html", "text/html; charset=utf-8", u)
			if err != nil {
				t.Fatal(err)
			}
			got := struct {
				At time.Time
				S  string
			}{p.PublishedAt, p.Published}
			want := struct {
				At time.Time
				S  string
			}{tt.want, tt.wantS}
			if diff := cmp.Diff(got, want); diff != "" {
				t.Errorf("published (-got +want):\n%s", diff)
			}
			if !strings.Contains(p.Text, "4.2 million pounds") {
				t.Errorf("text lacks the article:\n%s", p.Text)
			}
		})
	}
}
