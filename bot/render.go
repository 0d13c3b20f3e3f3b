package bot

import (
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/factbot-dev/factbot/bot/words"
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
	// NotCheckable are the parts of the text that were not checked, with
	// why (opinions, questions, claims over the limit…).
	NotCheckable []NotCheckableView
	// CheckID identifies the saved check.
	CheckID string
	Actions []Action
	// Lang is the language of the message's words (labels, headings,
	// buttons, fixed messages); the zero Lang is English. Adapters take
	// every word they add from it.
	Lang Lang
	// Summary is the notification text of a final report: every claim's
	// verdict counted ("3 claims: 1 supported, 1 contradicted, 1
	// contested"), or the one claim's verdict and text.
	Summary string
	// AskedBy, if set, is who asked, shown on reports everyone in a
	// channel sees.
	AskedBy *Asker
}

// Asker is who asked for a report: their platform user id and, when the
// platform told it, their name.
type Asker struct {
	ID, Name string
}

// NotCheckableView is a part of the text that was not checked, and why
// (in the model's words, in the text's language).
type NotCheckableView struct {
	Text, Reason string
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
	// Match, if set, names the earlier check that answered the claim
	// (claim matching).
	Match *factcheck.Match
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
// page, labelled in l.
func (l Lang) ReportLink(url string) Action {
	return Action{ID: ActionReport, Label: l.Text(words.ButtonFullReport, nil), URL: url}
}

// ReportURL is the URL of the message's "Full report" link, "" when it
// has none.
func (m *Message) ReportURL() string {
	for _, a := range m.Actions {
		if a.ID == ActionReport && a.URL != "" {
			return a.URL
		}
	}
	return ""
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

// Stance returns the evidence's stance as a value: "supports", "refutes"
// or "context" (CSS classes, JSON).
func (e EvidenceView) Stance() string {
	return string(factcheck.Evidence{Supports: e.Supports, Stance: e.Side}.StanceOf())
}

// EvidenceStance says the evidence's stance toward its claim in l's words
// (words.Lang.Stance of its stance).
func (l Lang) EvidenceStance(e EvidenceView) string {
	return l.Lang.Stance(factcheck.Stance(e.Stance()))
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

// QuoteNote says where the view's quote was found, in English (see
// words.QuoteNote).
func (e EvidenceView) QuoteNote() string { return English.EvidenceQuoteNote(e) }

// EvidenceQuoteNote says where e's quote was found, in l (words.Lang.QuoteNote
// of its quote).
func (l Lang) EvidenceQuoteNote(e EvidenceView) string {
	return l.Lang.QuoteNote(e.Quote, e.QuoteFound, e.QuoteMatch)
}

// everyoneRE matches the plain-text mentions of everyone both platforms
// know, in any case.
var everyoneRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)@(?:here|channel|everyone)`) })

// InertMentions puts a zero-width space after the @ of every @here,
// @channel and @everyone in s, so that no client reads them as a mention
// while they look the same. Adapters escape their own mention markup
// (<@U…>, <!here>, <@&role>…) on top of this.
func InertMentions(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	return everyoneRE().ReplaceAllStringFunc(s, func(m string) string { return "@\u200b" + m[1:] })
}

// NotCheckedLines lists the parts of m's text that were not checked, with
// why, for a chat report: at most five, each part and reason on one line
// and cut to 200 runes, passed through esc (the platform's escaping). nil
// when there are none.
func NotCheckedLines(m *Message, esc func(string) string) []string {
	var lines []string
	for _, nc := range m.NotCheckable[:min(len(m.NotCheckable), 5)] {
		line := "• “" + esc(Truncate(OneLine(nc.Text), 200)) + "”"
		if nc.Reason != "" {
			line += " — " + esc(Truncate(OneLine(nc.Reason), 200))
		}
		lines = append(lines, line)
	}
	return lines
}

// OneLine joins s's words with single spaces.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

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

// MoreClaims is the summary line for n claims that did not fit: in the
// full report when the message links to it.
func (m *Message) MoreClaims(n int) string {
	if m.ReportURL() != "" {
		return m.Lang.Count(words.MoreClaimsInReport, n, nil)
	}
	return m.Lang.Count(words.MoreClaims, n, nil)
}

// SourcesElsewhere says where the sources that did not fit are: in the
// full report when the message links to it, else nowhere in chat.
func (m *Message) SourcesElsewhere() string {
	if m.ReportURL() != "" {
		return m.Lang.Text(words.SourcesInReport, nil)
	}
	return m.Lang.Text(words.SourcesNotShown, nil)
}

// HistoryTitle heads a history answer of the checks in where
// (WhereWorkspace…): the viewer's own when h.Mine, of h.Verdict if set.
func (l Lang) HistoryTitle(h *History, where string) string {
	m := words.HistoryLatest
	if h.Mine {
		m = words.HistoryYours
	}
	t := l.Text(m, map[string]any{"Where": l.Where(where)})
	if h.Verdict != "" {
		t += " (" + l.Label(h.Verdict) + ")"
	}
	return t
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

// CheckedAt says when a cached verdict was made, e.g. "cached, checked
// 2026-11-28", or which claim checked when answered one matched; "" for
// a fresh one.
func (l Lang) CheckedAt(c ClaimView) string {
	if m := c.Match; m != nil {
		return l.Text(words.MatchedOn, map[string]any{"Date": m.CheckedAt.UTC().Format("2006-01-02"), "Claim": Truncate(m.Claim, 160)})
	}
	if !c.Cached || c.CheckedAt.IsZero() {
		return ""
	}
	return l.Text(words.CachedOn, map[string]any{"Date": c.CheckedAt.UTC().Format("2006-01-02")})
}

// ClaimFromVerdict turns a verdict into its view.
func (l Lang) ClaimFromVerdict(v *factcheck.Verdict) ClaimView {
	c := ClaimView{
		Claim:      v.Claim,
		Label:      v.Verdict,
		Confidence: v.Confidence,
		Reasoning:  v.Reasoning,
		Cached:     v.Cached,
		CheckedAt:  v.CheckedAt,
		Match:      v.Match,
		StoppedBy:  v.StoppedBy,
	}
	if v.Error != "" {
		c.Error = l.ClaimFailed(v.Failed)
		if c.Error != l.Text(words.ClaimFailed, nil) {
			c.Reasoning = "" // the engine's English words for the same
		}
	}
	if v.Picture > 0 { // marked in the claim's line, which every renderer shows
		c.Claim += " " + l.Text(words.FromPicture, map[string]any{"N": v.Picture})
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
func (l Lang) RenderReport(rep *factcheck.Report, checkID string) *Message {
	m := &Message{Final: true, CheckID: checkID, Notice: l.Notice(rep), Lang: l}
	for _, v := range rep.Claims {
		if v == nil {
			continue
		}
		m.Claims = append(m.Claims, l.ClaimFromVerdict(v))
	}
	for _, nc := range rep.NotCheckable {
		if t := strings.TrimSpace(nc.Text); t != "" {
			m.NotCheckable = append(m.NotCheckable, NotCheckableView{Text: t, Reason: l.Reason(nc)})
		}
	}
	if n := len(m.Claims); n == 0 {
		m.Title = l.Text(words.TitleNoClaims, nil)
		if m.Notice == "" {
			m.Notice = l.Text(words.NoticeNoClaims, nil)
		}
	} else {
		m.Title = l.Count(words.TitleClaims, n, nil)
	}
	m.Summary = l.summary(m.Title, m.Claims)
	if checkID != "" {
		m.Actions = []Action{
			{ID: ActionRecheck, Label: l.Text(words.ButtonRecheck, nil), Value: checkID},
			{ID: ActionWrong, Label: l.Text(words.ButtonWrong, nil), Value: checkID},
		}
	}
	return m
}

// summary is the notification text of a report: the one claim's verdict
// and text, or every verdict counted, in the order of factcheck.Labels.
func (l Lang) summary(title string, claims []ClaimView) string {
	switch len(claims) {
	case 0:
		return title
	case 1:
		c := claims[0]
		return Emoji(c.Label) + " " + l.Label(c.Label) + ": " + Truncate(strings.Join(strings.Fields(c.Claim), " "), 100)
	}
	n := map[factcheck.Label]int{}
	for _, c := range claims {
		n[c.Label]++
	}
	counts := map[factcheck.Label]*i18n.Message{factcheck.Supported: words.CountSupported, factcheck.Contradicted: words.CountContradicted,
		factcheck.Contested: words.CountContested, factcheck.Unverifiable: words.CountUnverifiable}
	var parts []string
	for _, lb := range factcheck.Labels {
		if n[lb] > 0 {
			parts = append(parts, l.Count(counts[lb], n[lb], nil))
		}
	}
	return l.Count(words.Summary, len(claims), map[string]any{"Counts": strings.Join(parts, l.Text(words.ListSeparator, nil))})
}

// RenderPlaceholder is the first "Checking…" message.
func (l Lang) RenderPlaceholder() *Message {
	return &Message{Title: l.Text(words.TitleChecking, nil), Lang: l}
}

// RenderProgress renders a check in progress: the claims found so far,
// resolved ones with their verdicts.
func (l Lang) RenderProgress(claims []factcheck.ExtractedClaim, verdicts map[int]*factcheck.Verdict) *Message {
	m := &Message{Lang: l}
	done := 0
	n := max(len(claims), maxKey(verdicts)+1)
	for i := 0; i < n; i++ {
		if v, ok := verdicts[i]; ok && v != nil {
			m.Claims = append(m.Claims, l.ClaimFromVerdict(v))
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
		m.Title = l.Text(words.TitleChecking, nil)
	} else {
		m.Title = l.Count(words.TitleProgress, n, map[string]any{"Done": done})
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
func (l Lang) RenderError(text string) *Message {
	return &Message{Final: true, Title: l.Text(words.TitleFailed, nil), Error: text, Summary: text, Lang: l}
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
