package bot

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// Action ids carried by report buttons.
const (
	ActionRecheck = "factbot_recheck" // "Check again": Value is the check id
	ActionWrong   = "factbot_wrong"   // "Wrong verdict?": Value is the check id
	ActionReport  = "factbot_report"  // "Full report": a link (URL) to the check's web page
)

// Message is a platform-neutral answer. All text is raw (unescaped).
type Message struct {
	// Final is false for the placeholder and progress updates.
	Final bool
	// Title is the headline, e.g. "Checking…" or "Fact-check: 3 claims".
	Title string
	// Notice is a short note about the input (only the first claims checked…).
	Notice string
	// Error, if set, is a short honest error message shown instead of claims.
	Error  string
	Claims []ClaimView
	// CheckID identifies the saved check, for `factbot show ID`.
	CheckID string
	Actions []Action
}

// ClaimView is one claim as shown to users.
type ClaimView struct {
	Claim string
	// Label is empty while the claim is still being checked.
	Label      factcheck.Label
	Confidence factcheck.Confidence
	Reasoning  string
	Evidence   []EvidenceView
	Cached     bool
	CheckedAt  time.Time
	// StoppedBy names a budget that ended the run, explained to users.
	StoppedBy string
	// Error, if set, says the claim could not be checked, in words safe
	// to show (never the internal error's text).
	Error string
}

// EvidenceView is one source of a claim. URL was retrieved in the run (the
// engine guarantees it); adapters may link it.
type EvidenceView struct {
	URL, Title string
	// Supports is true when the source supports the claim; Side, when
	// set, is the stance (supports, refutes or context) and wins.
	Supports bool
	Side     factcheck.Stance
	// Quote is the source's whole sentence(s) when QuoteFound.
	Quote string
	// QuoteFound says the quote was found in a text retrieved for URL;
	// QuoteMatch says where. QuoteNote puts both in words.
	QuoteFound        bool
	QuoteMatch        factcheck.QuoteMatch
	Publisher, Rating string
}

// Action is a button under a report: one whose click the platform sends
// back (ID, Value), or a link (URL set) that opens a page and sends
// nothing.
type Action struct {
	ID    string // ActionRecheck, ActionWrong, ActionReport
	Label string
	Value string // the check id
	// URL, if set, makes the action a link button opening URL (a signed
	// page of the web view). Adapters render it as their link button,
	// never inside text they would parse, and drop a URL that is not
	// http(s) or too long for their platform.
	URL string
}

// ReportLink is the "Full report" button opening url, the check's web
// page.
func ReportLink(url string) Action {
	return Action{ID: ActionReport, Label: LabelFullReport, URL: url}
}

// Emoji returns the verdict's emoji (unicode, understood by every platform).
func Emoji(l factcheck.Label) string {
	switch l {
	case factcheck.Supported:
		return "✅"
	case factcheck.Contradicted:
		return "❌"
	case factcheck.Contested:
		return "⚖️"
	case factcheck.Unverifiable:
		return "❔"
	}
	return "⏳"
}

// LabelText returns the verdict's display name.
func LabelText(l factcheck.Label) string {
	switch l {
	case factcheck.Supported:
		return "Supported"
	case factcheck.Contradicted:
		return "Contradicted"
	case factcheck.Contested:
		return "Contested"
	case factcheck.Unverifiable:
		return "Unverifiable"
	}
	return "Checking…"
}

// Stance returns "supports", "refutes" or "context".
func (e EvidenceView) Stance() string {
	return string(factcheck.Evidence{Supports: e.Supports, Stance: e.Side}.StanceOf())
}

// StanceEmoji marks a stance: ✅ supports, ❌ refutes, ⚠️ context.
func StanceEmoji(s string) string {
	switch factcheck.Stance(s) {
	case factcheck.StanceSupports:
		return "✅"
	case factcheck.StanceContext:
		return "⚠️"
	}
	return "❌"
}

// QuoteNote says where the evidence's quote was found, e.g. "quote found
// on PDF page 3" or "quote not found in what was read"; "" when there is no
// quote. Every report (Slack, Discord, the terminal) uses these words.
func QuoteNote(e factcheck.Evidence) string {
	return quoteNote(e.QuoteOrSummary, e.QuoteFound, e.QuoteMatch)
}

// QuoteNote is the package-level QuoteNote for a view.
func (e EvidenceView) QuoteNote() string { return quoteNote(e.Quote, e.QuoteFound, e.QuoteMatch) }

func quoteNote(quote string, found bool, m factcheck.QuoteMatch) string {
	if strings.TrimSpace(quote) == "" {
		return ""
	}
	switch m.Place {
	case factcheck.QuoteOnPage:
		return msgQuoteOnPage
	case factcheck.QuoteInPDF:
		if m.Page > 0 {
			return fmt.Sprintf(msgQuoteOnPDFPage, m.Page)
		}
		return msgQuoteInPDF
	case factcheck.QuoteInSnippet:
		return msgQuoteSnippet
	case factcheck.QuoteInTitle:
		if !found {
			return msgQuoteTitleOnly
		}
		return msgQuoteTitle
	case factcheck.QuoteInSummary:
		return msgQuoteSummary
	}
	if found {
		// Saved before matches had a place, or a place this version
		// does not know.
		return msgQuoteRetrieved
	}
	return msgQuoteNotFound
}

// everyoneRE matches the plain-text mentions of everyone both platforms
// know, in any case.
var everyoneRE = regexp.MustCompile(`(?i)@(?:here|channel|everyone)`)

// InertMentions puts a zero-width space after the @ of every @here,
// @channel and @everyone in s, so that no client reads them as a mention
// while they look the same. Adapters escape their own mention markup
// (<@U…>, <!here>, <@&role>…) on top of this.
func InertMentions(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	return everyoneRE.ReplaceAllStringFunc(s, func(m string) string { return "@\u200b" + m[1:] })
}

// StoppedText explains a budget that ended a run, or "".
func StoppedText(by string) string {
	if by == "" {
		return ""
	}
	return "stopped early: " + by + " budget reached"
}

// Truncate shortens s to at most n runes, ending with "…" when cut.
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	if n == 1 {
		return "…"
	}
	return strings.TrimRightFunc(string(r[:n-1]), func(r rune) bool { return r == ' ' }) + "…"
}

// MoreSources is the summary line for n sources that did not fit.
func MoreSources(n int) string {
	if n == 1 {
		return "+1 more source"
	}
	return fmt.Sprintf("+%d more sources", n)
}

// MoreClaims is the summary line for n claims that did not fit, naming the
// check id for `factbot show`.
func MoreClaims(n int, checkID string) string {
	s := fmt.Sprintf("+%d more claims", n)
	if n == 1 {
		s = "+1 more claim"
	}
	if checkID != "" {
		s += fmt.Sprintf(" — see `factbot show %s`", checkID)
	}
	return s
}

// FitEvidence keeps the first max pieces of evidence and says how many were
// left out.
func FitEvidence(ev []EvidenceView, max int) (shown []EvidenceView, more int) {
	if max < 0 {
		max = 0
	}
	if len(ev) <= max {
		return ev, 0
	}
	return ev[:max], len(ev) - max
}

// CheckedAtText says when a cached verdict was made, e.g. "checked 2026-11-28".
func CheckedAtText(c ClaimView) string {
	if !c.Cached || c.CheckedAt.IsZero() {
		return ""
	}
	return "cached, checked " + c.CheckedAt.UTC().Format("2006-01-02")
}

// ClaimFromVerdict turns a verdict into its view.
func ClaimFromVerdict(v *factcheck.Verdict) ClaimView {
	c := ClaimView{
		Claim:      v.Claim,
		Label:      v.Verdict,
		Confidence: v.Confidence,
		Reasoning:  v.Reasoning,
		Cached:     v.Cached,
		CheckedAt:  v.CheckedAt,
		StoppedBy:  v.StoppedBy,
	}
	if v.Error != "" {
		c.Error = msgClaimFailed
	}
	if v.Picture > 0 { // marked in the claim's line, which every renderer shows
		c.Claim += " " + fmt.Sprintf(msgFromPicture, v.Picture)
	}
	if !c.Label.Valid() {
		c.Label = factcheck.Unverifiable
	}
	for _, e := range v.Evidence {
		c.Evidence = append(c.Evidence, EvidenceView{
			URL: e.SourceURL, Title: e.SourceTitle, Supports: e.Supports, Side: e.StanceOf(),
			Quote: e.QuoteOrSummary, QuoteFound: e.QuoteFound, QuoteMatch: e.QuoteMatch,
			Publisher: e.Publisher, Rating: e.Rating,
		})
	}
	return c
}

// RenderReport renders a finished report saved as checkID.
func RenderReport(rep *factcheck.Report, checkID string) *Message {
	m := &Message{Final: true, CheckID: checkID, Notice: rep.Notice}
	for _, v := range rep.Claims {
		if v == nil {
			continue
		}
		m.Claims = append(m.Claims, ClaimFromVerdict(v))
	}
	switch n := len(m.Claims); n {
	case 0:
		m.Title = "Fact-check: no checkable claims found"
		if m.Notice == "" {
			m.Notice = "I found no factual claim to check in that text. Try a concrete statement, e.g. \"The Eiffel Tower is 330 m tall.\""
		}
	case 1:
		m.Title = "Fact-check: 1 claim"
	default:
		m.Title = fmt.Sprintf("Fact-check: %d claims", n)
	}
	if checkID != "" {
		m.Actions = []Action{
			{ID: ActionRecheck, Label: "Check again", Value: checkID},
			{ID: ActionWrong, Label: "Wrong verdict?", Value: checkID},
		}
	}
	return m
}

// RenderPlaceholder is the first "Checking…" message.
func RenderPlaceholder() *Message {
	return &Message{Title: "Checking…"}
}

// RenderProgress renders a check in progress: the claims found so far,
// resolved ones with their verdicts.
func RenderProgress(claims []factcheck.ExtractedClaim, verdicts map[int]*factcheck.Verdict) *Message {
	m := &Message{}
	done := 0
	n := max(len(claims), maxKey(verdicts)+1)
	for i := 0; i < n; i++ {
		if v, ok := verdicts[i]; ok && v != nil {
			m.Claims = append(m.Claims, ClaimFromVerdict(v))
			done++
			continue
		}
		c := ClaimView{}
		if i < len(claims) {
			c.Claim = claims[i].Claim
		}
		m.Claims = append(m.Claims, c)
	}
	if n == 0 {
		m.Title = "Checking…"
	} else {
		m.Title = fmt.Sprintf("Checking %d claims… (%d done)", n, done)
		if n == 1 {
			m.Title = fmt.Sprintf("Checking 1 claim… (%d done)", done)
		}
	}
	return m
}

func maxKey(m map[int]*factcheck.Verdict) int {
	k := -1
	for i := range m {
		k = max(k, i)
	}
	return k
}

// RenderError renders a failed check: a short honest message.
func RenderError(text string) *Message {
	return &Message{Final: true, Title: "Fact-check failed", Error: text}
}

// HistoryLine is one line of a history listing.
type HistoryLine struct {
	ID       string
	When     time.Time
	Verdicts string // emoji per claim, e.g. "✅❌"
	Text     string // truncated input text
	Cached   bool
}

// HistoryLines turns summaries into display lines (text cut to 80 runes).
func HistoryLines(s []store.CheckSummary) []HistoryLine {
	out := make([]HistoryLine, 0, len(s))
	for _, c := range s {
		var b strings.Builder
		for _, l := range c.Verdicts {
			b.WriteString(Emoji(l))
		}
		out = append(out, HistoryLine{ID: c.ID, When: c.CreatedAt, Verdicts: b.String(),
			Text: Truncate(strings.Join(strings.Fields(c.Text), " "), 80), Cached: c.Cached})
	}
	return out
}
