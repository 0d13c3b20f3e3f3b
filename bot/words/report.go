package words

import (
	"strings"

	"github.com/factbot-dev/factbot/factcheck"
)

// Label returns the verdict's display name ("Checking…" for none).
func (l Lang) Label(v factcheck.Label) string {
	switch v {
	case factcheck.Supported:
		return l.Text(LabelSupported, nil)
	case factcheck.Contradicted:
		return l.Text(LabelContradicted, nil)
	case factcheck.Contested:
		return l.Text(LabelContested, nil)
	case factcheck.Unverifiable:
		return l.Text(LabelUnverifiable, nil)
	}
	return l.Text(LabelChecking, nil)
}

// Stance says a stance toward a claim (supports, refutes, context) in l's
// words.
func (l Lang) Stance(s factcheck.Stance) string {
	switch s {
	case factcheck.StanceSupports:
		return l.Text(StanceSupports, nil)
	case factcheck.StanceContext:
		return l.Text(StanceContext, nil)
	}
	return l.Text(StanceRefutes, nil)
}

// Confidence says the confidence, e.g. "high confidence"; "" for none.
func (l Lang) Confidence(c factcheck.Confidence) string {
	switch c {
	case factcheck.High:
		return l.Text(ConfidenceHigh, nil)
	case factcheck.Medium:
		return l.Text(ConfidenceMedium, nil)
	case factcheck.Low:
		return l.Text(ConfidenceLow, nil)
	}
	return ""
}

// QuoteNote says where the evidence's quote was found, e.g. "quote found
// on page 3 of the PDF" or "quote not found in what was read"; "" when
// there is no quote. Every report (Slack, Discord, the terminal, the web
// view) uses these words; this is them in English.
func QuoteNote(e factcheck.Evidence) string {
	return English.QuoteNote(e.QuoteOrSummary, e.QuoteFound, e.QuoteMatch)
}

// QuoteNote says where a quote was found (factcheck.WhereFound: the place
// the engine decided once), in l.
func (l Lang) QuoteNote(quote string, found bool, m factcheck.QuoteMatch) string {
	if strings.TrimSpace(quote) == "" {
		return ""
	}
	switch factcheck.WhereFound(found, m) {
	case factcheck.QuoteOnPage:
		return l.Text(QuoteOnPage, nil)
	case factcheck.QuoteInPDF:
		if m.Page > 0 {
			return l.Text(QuoteOnPDFPage, map[string]any{"Page": m.Page})
		}
		return l.Text(QuoteInPDF, nil)
	case factcheck.QuoteInSnippet:
		return l.Text(QuoteSnippet, nil)
	case factcheck.QuoteInTitle:
		if !found {
			return l.Text(QuoteTitleOnly, nil)
		}
		return l.Text(QuoteTitle, nil)
	case factcheck.QuoteInSummary:
		return l.Text(QuoteSummary, nil)
	case factcheck.QuoteUnknown:
		return l.Text(QuoteRetrieved, nil) // saved before matches had a place
	}
	if found { // a place this version does not know
		return l.Text(QuoteRetrieved, nil)
	}
	return l.Text(QuoteNotFound, nil)
}

// Stopped explains a budget that ended a run, or "".
func (l Lang) Stopped(by string) string {
	switch by {
	case "":
		return ""
	case factcheck.BudgetSteps:
		return l.Text(StoppedSteps, nil)
	case factcheck.BudgetSearches:
		return l.Text(StoppedSearches, nil)
	case factcheck.BudgetReads:
		return l.Text(StoppedReads, nil)
	case factcheck.BudgetPromptTokens:
		return l.Text(StoppedTokens, nil)
	case factcheck.BudgetTime:
		return l.Text(StoppedTime, nil)
	}
	return l.Text(StoppedOther, map[string]any{"Budget": by})
}

// MoreSources is the summary line for n sources that did not fit.
func (l Lang) MoreSources(n int) string { return l.Count(MoreSources, n, nil) }

// SourceLink is the label of a link to a source.
func (l Lang) SourceLink() string { return l.Text(SourceLink, nil) }

// ClaimPending heads claim i (from 0) while it is being checked.
func (l Lang) ClaimPending(i int) string { return l.Text(ClaimPending, map[string]any{"N": i + 1}) }

// AskedBy says who asked, given how the platform shows them.
func (l Lang) AskedBy(who string) string { return l.Text(AskedBy, map[string]any{"User": who}) }

// NotCheckableHeading heads the parts of the text not checked.
func (l Lang) NotCheckableHeading() string { return l.Text(NotCheckable, nil) }

// CheckRef names a saved check, e.g. "Check 2026-…".
func (l Lang) CheckRef(id string) string { return l.Text(CheckRef, map[string]any{"ID": id}) }

// AckPrivate, AckChannel and AckReply acknowledge a command: the report
// will be seen by the asker alone, in the channel, or as a reply to the
// message checked.
func (l Lang) AckPrivate() string { return l.Text(AckPrivate, nil) }

// AckChannel: see AckPrivate.
func (l Lang) AckChannel() string { return l.Text(AckChannel, nil) }

// AckReply: see AckPrivate.
func (l Lang) AckReply() string { return l.Text(AckReply, nil) }

// WrongVerdict is the "Wrong verdict?" form: its title, question and
// example answer.
func (l Lang) WrongVerdict() (title, question, example string) {
	return l.Text(ButtonWrong, nil), l.Text(FeedbackQuestion, nil), l.Text(FeedbackExample, nil)
}

// Where a history lists the checks of (HistoryTitle, HistoryEmpty).
const (
	InWorkspace = "workspace" // a Slack workspace
	InServer    = "server"    // a Discord server
	InDMs       = "dms"       // the direct messages with the bot
)

// Where names where a history lists the checks of (InWorkspace…).
func (l Lang) Where(w string) string {
	switch w {
	case InServer:
		return l.Text(WhereServer, nil)
	case InDMs:
		return l.Text(WhereDMs, nil)
	}
	return l.Text(WhereWorkspace, nil)
}

// HistoryEmpty answers a history with no checks in where.
func (l Lang) HistoryEmpty(where string) string {
	return l.Text(HistoryEmpty, map[string]any{"Where": l.Where(where)})
}

// HistoryCached marks a cached check in a history.
func (l Lang) HistoryCached() string { return l.Text(HistoryCached, nil) }

// OpenHistory is the label of the link to the history's web page.
func (l Lang) OpenHistory() string { return l.Text(ButtonOpenHistory, nil) }
