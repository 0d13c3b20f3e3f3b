package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/goldentest"
)

// TestWriteReportSaysWhereQuotesWereFound compares the terminal report of
// one claim cited from every place a quote can be found, with each stance,
// with testdata/report/quote-places.golden. A title or a search summary is
// never a found quote.
func TestWriteReportSaysWhereQuotesWereFound(t *testing.T) {
	stances := []factcheck.Stance{factcheck.StanceSupports, factcheck.StanceRefutes, factcheck.StanceContext}
	n := 0
	ev := func(title string, m factcheck.QuoteMatch) factcheck.Evidence {
		st := stances[n%3]
		n++
		found := m.Found() && m.Place != factcheck.QuoteInTitle && m.Place != factcheck.QuoteInSummary
		return factcheck.Evidence{SourceURL: "https://example.org/" + string(m.Place), SourceTitle: title, Supports: st == factcheck.StanceSupports, Stance: st,
			QuoteOrSummary: "Revenue grew by 130 percent in 2023, the annual report says.", QuoteFound: found, QuoteMatch: m}
	}
	rep := &factcheck.Report{Claims: []*factcheck.Verdict{{
		Claim: "Revenue grew by 130 percent in 2023.", Verdict: factcheck.Supported, Confidence: factcheck.Medium,
		Reasoning: "The annual report says so.",
		Evidence: []factcheck.Evidence{
			ev("Annual report", factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}),
			ev("Annual report (PDF)", factcheck.QuoteMatch{Place: factcheck.QuoteInPDF, Page: 3}),
			ev("News search result", factcheck.QuoteMatch{Place: factcheck.QuoteInSnippet}),
			ev("Revenue grew by 130 percent in 2023", factcheck.QuoteMatch{Place: factcheck.QuoteInTitle}),
			ev("Search through Gemini", factcheck.QuoteMatch{Place: factcheck.QuoteInSummary}),
			ev("A blog", factcheck.QuoteMatch{}),
			{SourceURL: "https://example.org/old", SourceTitle: "A record saved before stances", Supports: false, QuoteOrSummary: "It was flat.", QuoteFound: true},
		},
	}}}
	var b bytes.Buffer
	writeReport(&b, rep, "20261130T000000Z-abcd")
	goldentest.Golden(t, filepath.Join("testdata", "report", "quote-places.golden"), b.Bytes(), *update)
}
