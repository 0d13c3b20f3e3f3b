package factcheck

import "github.com/factbot-dev/factbot/factcheck/evidence"

// QuotePlace says in which of the texts retrieved for a source a quote was
// found (evidence.Place).
type QuotePlace = evidence.Place

// The places a quote can be found in, best first: a match in the text of
// the document itself outranks one in what a search engine said about it.
const (
	// QuoteOnPage is the readable text of a web page the run read.
	QuoteOnPage = evidence.OnPage
	// QuoteInPDF is one page of a PDF the run read; QuoteMatch.Page says
	// which (counting from 1).
	QuoteInPDF = evidence.InPDF
	// QuoteInSnippet is the snippet a search engine returned for the URL.
	QuoteInSnippet = evidence.InSnippet
	// QuoteInTitle is the title of the page or of the search result.
	QuoteInTitle = evidence.InTitle
	// QuoteInSummary is what a model wrote about the URL as a search
	// result (Gemini's grounding): never the source's words, so never a
	// found quote.
	QuoteInSummary = evidence.InSummary
)

// QuoteMatch says whether and where a quote was found (evidence.Match).
// The zero value means not found. Its fields are tagged to be embedded in
// Evidence beside quote_found.
type QuoteMatch = evidence.Match
