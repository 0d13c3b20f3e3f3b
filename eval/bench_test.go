package eval

import (
	"fmt"
	"io"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
)

func benchResults(n int) []Result {
	rs := make([]Result, n)
	for i := range rs {
		rs[i] = Result{ID: fmt.Sprint(i), Claim: "claim", Label: factcheck.Labels[i%4], Predicted: factcheck.Labels[(i/3)%4],
			PromptTokens: 9000, OutputTokens: 700, Searches: 3, Reads: 2, Seconds: 12, CitedURLs: 2, CitedRetrieved: 2}
		rs[i].Correct = rs[i].Label == rs[i].Predicted
	}
	return rs
}

// BenchmarkSummarize scores a run the size of AVeriTeC's dev split.
func BenchmarkSummarize(b *testing.B) {
	rs := benchResults(500)
	for b.Loop() {
		Summarize(rs, len(rs), DefaultPrices)
	}
}

// BenchmarkWriteHTML renders the report of a 500-claim run.
func BenchmarkWriteHTML(b *testing.B) {
	s := Summarize(benchResults(500), 500, DefaultPrices)
	for b.Loop() {
		if err := WriteHTML(io.Discard, s); err != nil {
			b.Fatal(err)
		}
	}
}
