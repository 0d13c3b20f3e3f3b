package textrank

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkRanker indexes the sentences of a page of about 60 KB and
// ranks them for five questions, as the reader does with every page it
// reads (-benchmem: what the index allocates).
func BenchmarkRanker(b *testing.B) {
	var page strings.Builder
	for i := range 600 {
		fmt.Fprintf(&page, "In %d the harbour of Exampleton handled %d tonnes of grain, said the port authority's report number %d. ", 1900+i%120, 1000+i*7, i)
	}
	sents := Sentences(page.String())
	qs := []Query{NewQuery("harbour grain tonnes 1950"), NewQuery("port authority report"), NewQuery("Exampleton grain"),
		NewQuery("how many tonnes in 2001"), NewQuery("who reported the harbour figures")}
	for b.Loop() {
		NewRanker(sents).Ranked(qs)
	}
}
