package mcp

import (
	"fmt"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// Report is a check as the check and show tools return it (their
// structuredContent).
type Report struct {
	ID           string         `json:"id" jsonschema:"the check's id in history: show opens it again"`
	CreatedAt    time.Time      `json:"created_at" jsonschema:"when the check was made (RFC 3339)"`
	Text         string         `json:"text" jsonschema:"the text that was checked"`
	Claims       []Claim        `json:"claims" jsonschema:"one verdict per claim found in the text"`
	NotCheckable []NotCheckable `json:"not_checkable,omitempty" jsonschema:"sentences that were not checked, and why"`
	Notice       string         `json:"notice,omitempty" jsonschema:"a note about the input, e.g. that only the first claims were checked"`
}

// Claim is one claim's verdict.
type Claim struct {
	Claim      string     `json:"claim" jsonschema:"the claim, as checked"`
	Verdict    string     `json:"verdict" jsonschema:"supported, contradicted, contested (sources disagree, or true but misleading) or unverifiable"`
	Confidence string     `json:"confidence" jsonschema:"high, medium or low"`
	Reasoning  string     `json:"reasoning" jsonschema:"why, in a few sentences"`
	Evidence   []Evidence `json:"evidence" jsonschema:"the sources the verdict rests on"`
	Cached     bool       `json:"cached,omitempty" jsonschema:"the verdict was made earlier (checked_at) and reused"`
	CheckedAt  time.Time  `json:"checked_at" jsonschema:"when the verdict was made (RFC 3339)"`
	Error      string     `json:"error,omitempty" jsonschema:"why the claim could not be checked, when it could not"`
	Match      *Match     `json:"match,omitempty" jsonschema:"set when an earlier check of the same claim, in other words or another language, answered it"`
}

// Evidence is one source of a verdict.
type Evidence struct {
	URL        string `json:"url"`
	Title      string `json:"title,omitempty"`
	Stance     string `json:"stance" jsonschema:"supports, refutes, or context (true words that leave out what changes their meaning)"`
	Quote      string `json:"quote" jsonschema:"the source's own sentences when quote_found, otherwise what the model wrote of it"`
	QuoteFound bool   `json:"quote_found" jsonschema:"the quote is the source's own words, found verbatim in what was retrieved from url (the page, a PDF page or the search result's preview)"`
	QuotePlace string `json:"quote_place" jsonschema:"where the quote was found: page (on the page read), pdf (on page quote_page of the PDF read), snippet (only in the search result's preview), title (only in a title, no stance), summary (only in a search summary a model wrote), not_found, or unknown (a check saved before places were kept)"`
	QuotePage  int    `json:"quote_page,omitempty" jsonschema:"the PDF's page the quote is on, from 1, when quote_place is pdf"`
	QuoteNote  string `json:"quote_note,omitempty" jsonschema:"where the quote was found, in the words every factbot report uses"`
}

// NotCheckable is a sentence not checked.
type NotCheckable struct {
	Text   string `json:"text"`
	Reason string `json:"reason"`
}

// History is the history tool's result.
type History struct {
	Checks []Summary `json:"checks" jsonschema:"the checks, newest first"`
}

// Summary is one check in history.
type Summary struct {
	ID        string         `json:"id"`
	CreatedAt time.Time      `json:"created_at"`
	Text      string         `json:"text" jsonschema:"the text checked (its start, when long)"`
	Claims    []ClaimVerdict `json:"claims"`
}

// ClaimVerdict is a claim and its verdict, in history.
type ClaimVerdict struct {
	Claim   string `json:"claim"`
	Verdict string `json:"verdict"`
}

// reportOf is a stored check as a tool's Report.
func reportOf(c *store.Check) *Report {
	r := &Report{ID: c.ID, CreatedAt: c.CreatedAt.UTC(), Text: c.Text, Claims: []Claim{}}
	if c.Report == nil {
		return r
	}
	r.Notice = c.Report.Notice
	for _, nc := range c.Report.NotCheckable {
		r.NotCheckable = append(r.NotCheckable, NotCheckable{Text: nc.Text, Reason: nc.Reason})
	}
	for _, v := range c.Report.Claims {
		if v == nil {
			continue
		}
		cl := Claim{Claim: v.Claim, Verdict: string(v.Verdict), Confidence: string(v.Confidence), Reasoning: v.Reasoning,
			Evidence: []Evidence{}, Cached: v.Cached, CheckedAt: v.CheckedAt.UTC(), Error: v.Error, Match: matchOf(v.Match)}
		for _, e := range v.Evidence {
			ev := Evidence{URL: e.SourceURL, Title: e.SourceTitle, Stance: string(e.StanceOf()),
				Quote: e.QuoteOrSummary, QuoteFound: e.QuoteFound, QuotePlace: string(e.Where()), QuoteNote: words.QuoteNote(e)}
			if e.Where() == factcheck.QuoteInPDF {
				ev.QuotePage = e.Page
			}
			cl.Evidence = append(cl.Evidence, ev)
		}
		r.Claims = append(r.Claims, cl)
	}
	return r
}

// historyOf is history as the tool's result.
func historyOf(sums []store.CheckSummary) *History {
	h := &History{Checks: []Summary{}}
	for _, s := range sums {
		sm := Summary{ID: s.ID, CreatedAt: s.CreatedAt.UTC(), Text: s.Text, Claims: []ClaimVerdict{}}
		for i, l := range s.Verdicts {
			cv := ClaimVerdict{Verdict: string(l)}
			if i < len(s.Claims) {
				cv.Claim = s.Claims[i]
			}
			sm.Claims = append(sm.Claims, cv)
		}
		h.Checks = append(h.Checks, sm)
	}
	return h
}

// Render is the report for clients that read text only.
func (r *Report) Render() string {
	var b strings.Builder
	if len(r.Claims) == 0 {
		b.WriteString("No checkable claim was found in the text.\n")
	}
	for i, c := range r.Claims {
		fmt.Fprintf(&b, "Claim %d of %d: %s\n", i+1, len(r.Claims), c.Claim)
		fmt.Fprintf(&b, "  %s (%s confidence)", strings.ToUpper(c.Verdict), c.Confidence)
		if c.Cached {
			fmt.Fprintf(&b, ", checked %s", c.CheckedAt.Format(time.DateOnly))
		}
		b.WriteString("\n")
		renderMatch(&b, c.Match)
		if c.Error != "" {
			fmt.Fprintf(&b, "  Could not be checked: %s\n", c.Error)
		}
		if c.Reasoning != "" {
			fmt.Fprintf(&b, "  %s\n", c.Reasoning)
		}
		for _, e := range c.Evidence {
			fmt.Fprintf(&b, "  - %s: %s <%s>\n", e.Stance, orURL(e.Title, e.URL), e.URL)
			if e.Quote != "" {
				fmt.Fprintf(&b, "    “%s” (%s)\n", e.Quote, e.QuoteNote)
			}
		}
	}
	if r.Notice != "" {
		fmt.Fprintf(&b, "Note: %s\n", r.Notice)
	}
	if r.ID != "" {
		fmt.Fprintf(&b, "Saved as %s.\n", r.ID)
	}
	return b.String()
}

func orURL(title, u string) string {
	if title != "" {
		return title
	}
	return u
}

// Render is the history for clients that read text only.
func (h *History) Render() string {
	if len(h.Checks) == 0 {
		return "No checks yet.\n"
	}
	var b strings.Builder
	for _, s := range h.Checks {
		var vs []string
		for _, c := range s.Claims {
			vs = append(vs, c.Verdict)
		}
		fmt.Fprintf(&b, "%s  %s  [%s]  %s\n", s.ID, s.CreatedAt.Format("2006-01-02 15:04Z"), strings.Join(vs, ", "), s.Text)
	}
	return b.String()
}
