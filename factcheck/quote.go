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

// Where a quote was found, beyond the places above: the rest of the one
// vocabulary every report shows (Evidence.Where). The engine never puts
// them in a QuoteMatch.
const (
	// QuoteNotFound is a quote found in nothing the run retrieved for its
	// source (nor in a title or a search summary).
	QuoteNotFound QuotePlace = "not_found"
	// QuoteUnknown is a quote found in a record saved before places were
	// kept: in the text read or the snippet, it does not say which.
	QuoteUnknown QuotePlace = "unknown"
)

// Where is where e's quote was found, in the one vocabulary every report
// shows, in words (words.Lang.QuoteNote: the terminal, chat, the web view,
// MCP's text) and as a field (MCP's quote_place; the JSON report's
// quote_place and quote_found): see WhereFound.
func (e Evidence) Where() QuotePlace { return WhereFound(e.QuoteFound, e.QuoteMatch) }

// WhereFound is where a quote was found, given whether it was and the
// match the engine decided once, when it made the verdict
// (provenance.evidenceOf): the match's place (page, pdf with its page,
// snippet, title, summary), QuoteNotFound, or QuoteUnknown for a record
// saved before places were kept, whose quote was found without a place.
func WhereFound(found bool, m QuoteMatch) QuotePlace {
	switch {
	case m.Place != "":
		return m.Place
	case found:
		return QuoteUnknown
	}
	return QuoteNotFound
}
