package search

import (
	"net/url"
	"testing"
)

// TestExtractClaimReview: a page that declares a ClaimReview, in the
// JSON-LD and microdata forms fact-checkers publish, is marked so; a news
// article's mark-up, or a page that only mentions the word, is not.
func TestExtractClaimReview(t *testing.T) {
	const body = `<p>` + "Some reporting on the claim, long enough to read as an article body. " + `</p>`
	tests := []struct {
		name, head string
		want       bool
	}{
		{"JSON-LD object", `<script type="application/ld+json">{"@context":"https://schema.org","@type":"ClaimReview","claimReviewed":"x","reviewRating":{"@type":"Rating","alternateName":"False"}}</script>`, true},
		{"JSON-LD array", `<script type="application/ld+json">[{"@type":"NewsArticle"},{"@type":"ClaimReview"}]</script>`, true},
		{"JSON-LD @graph", `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":["ClaimReview"]}]}</script>`, true},
		{"JSON-LD full IRI, charset", `<script type="application/ld+json; charset=utf-8">{"@type":"http://schema.org/ClaimReview"}</script>`, true},
		{"JSON-LD mainEntity", `<script type="application/ld+json">{"@type":"WebPage","mainEntity":{"@type":"ClaimReview"}}</script>`, true},
		{"microdata", `</head><body><div itemscope itemtype="https://schema.org/ClaimReview">` + body + `</div>`, true},
		{"news article", `<script type="application/ld+json">{"@type":"NewsArticle","headline":"ClaimReview explained"}</script>`, false},
		{"broken JSON-LD", `<script type="application/ld+json">{"@type":"ClaimReview"</script>`, false},
		{"not JSON-LD", `<script>var t = {"@type":"ClaimReview"};</script>`, false},
		{"none", ``, false},
	}
	u, _ := url.Parse("https://news.example/politics/2020/10/14/made-up-slug/")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := `<html><head><title>T</title>` + tt.head + `</head><body><article>` + body + `</article></body></html>`
			p, err := extract([]byte(page), "html", "text/html; charset=utf-8", u)
			if err != nil {
				t.Fatal(err)
			}
			if p.ClaimReview != tt.want {
				t.Errorf("ClaimReview = %v, want %v", p.ClaimReview, tt.want)
			}
		})
	}
}
