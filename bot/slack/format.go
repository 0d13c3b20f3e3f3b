package slack

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/factbot-dev/factbot/bot"
)

// Slack's limits for one message.
const (
	maxBlocks     = 50
	maxBlockText  = 3000
	maxTotalText  = 12000
	maxEvidence   = 3   // sources shown per claim before "+N more sources"
	maxQuote      = 300 // runes of a quote
	maxQuoteBytes = 600 // bytes of a quote once escaped
	maxReasoning  = 1200
	maxClaimText  = 500
	reserveBlocks = 4   // "+N more claims", footer, actions, and one to spare
	reserveText   = 700 // their text
	maxButtonURL  = 3000
)

// actionOpenHistory is the action id of the "Open history" link button.
const actionOpenHistory = "factbot_history"

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Escape makes s inert in Slack mrkdwn: with &, < and > escaped nothing in it
// can become a link, a user or channel mention (<@U…>, <#C…>),
// <!channel>/<!here>/<!everyone> or a group mention (<!subteam^…>); plain
// @here, @channel and @everyone get a zero-width space after the @.
// Blocks are sent with verbatim on as well, so Slack links nothing itself.
func Escape(s string) string { return escaper.Replace(bot.InertMentions(s)) }

// link formats an evidence link. Only http(s) URLs become links; the title
// is put on one line (a link's label cannot span lines, and the source's
// line must end with where its quote was found) and escaped, and the URL's
// own |, <, > are percent-encoded.
func link(rawURL, title string) string {
	title = bot.OneLine(title)
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Escape(firstNonEmpty(title, rawURL))
	}
	s := u.String()
	s = strings.NewReplacer("|", "%7C", "<", "%3C", ">", "%3E", "&", "&amp;").Replace(s)
	t := Escape(bot.Truncate(firstNonEmpty(title, u.Host), 120))
	t = strings.ReplaceAll(t, "|", "¦")
	return "<" + s + "|" + t + ">"
}

// linkButton is a button opening u (Slack opens it in the browser and
// also sends the click, which is ignored), or nil when u is not an http(s)
// URL Slack takes on a button.
func linkButton(actionID, label, u string) *slack.ButtonBlockElement {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || len(u) > maxButtonURL {
		return nil
	}
	b := slack.NewButtonBlockElement(actionID, "", slack.NewTextBlockObject(slack.PlainTextType, label, false, false))
	b.URL = u
	return b
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// cut shortens escaped mrkdwn to n bytes without splitting an entity or a
// rune.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n-len("…")]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	if i := strings.LastIndexByte(s, '&'); i >= 0 && !strings.Contains(s[i:], ";") {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '<'); i >= 0 && !strings.Contains(s[i:], ">") {
		s = s[:i]
	}
	return s + "…"
}

// mrkdwn is a text object for already escaped text, sent verbatim: Slack
// turns no URL, channel name or @mention in it into a link.
func mrkdwn(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, cut(s, maxBlockText), false, true)
}

func section(s string) slack.Block { return slack.NewSectionBlock(mrkdwn(s), nil, nil) }

func contextBlock(s string) slack.Block { return slack.NewContextBlock("", mrkdwn(s)) }

// claimBlocks renders one claim, its words in l, in at most budget bytes
// of text where it can: a claim's share of the message, so that a report
// of many claims shows every one of them, each shorter.
func claimBlocks(l bot.Lang, i int, c bot.ClaimView, budget int) []slack.Block {
	for b := budget; ; b = b * 3 / 4 {
		cb := sizedClaimBlocks(l, i, c, b)
		if blocksText(cb) <= budget || b < 400 {
			return cb
		}
	}
}

// sizedClaimBlocks renders one claim with its parts sized for budget.
func sizedClaimBlocks(l bot.Lang, i int, c bot.ClaimView, budget int) []slack.Block {
	claimMax, reasonMax := min(maxClaimText, max(budget/4, 100)), min(maxReasoning, max(budget/3, 150))
	evMax, quoteMax := min(maxBlockText, max(budget/2, 300)), min(maxQuote, max(budget/6, 80))
	var head string
	if c.Label == "" {
		head = fmt.Sprintf("%s *%s*\n%s", bot.Emoji(""), Escape(l.ClaimPending(i)), Escape(bot.Truncate(c.Claim, maxClaimText)))
		return []slack.Block{section(head)}
	}
	head = fmt.Sprintf("%s *%s*", bot.Emoji(c.Label), Escape(l.Label(c.Label)))
	if s := l.Confidence(c.Confidence); s != "" {
		head += " · " + Escape(s)
	}
	head += "\n>" + Escape(bot.Truncate(c.Claim, claimMax))
	if c.Reasoning != "" {
		head += "\n" + Escape(bot.Truncate(c.Reasoning, reasonMax))
	}
	blocks := []slack.Block{section(head)}
	if len(c.Evidence) > 0 {
		shown, more := bot.FitEvidence(c.Evidence, maxEvidence)
		var lines []string
		size := len(l.MoreSources(len(c.Evidence))) // room kept for it
		for i, e := range shown {
			line := evidenceLine(l, e, quoteMax)
			// A source that does not fit whole is counted, not cut, so
			// that where its quote was found is never cut off.
			if i > 0 && size+len(line)+1 > evMax {
				more += len(shown) - i
				break
			}
			lines = append(lines, line)
			size += len(line) + 1
		}
		if more > 0 {
			lines = append(lines, Escape(l.MoreSources(more)))
		}
		blocks = append(blocks, section(strings.Join(lines, "\n")))
	}
	var notes []string
	if s := l.CheckedAt(c); s != "" {
		notes = append(notes, Escape(s))
	}
	if s := l.Stopped(c.StoppedBy); s != "" {
		notes = append(notes, Escape(s))
	}
	if c.Error != "" {
		notes = append(notes, ":warning: "+Escape(c.Error))
	}
	if len(notes) > 0 {
		blocks = append(blocks, contextBlock(strings.Join(notes, " · ")))
	}
	return blocks
}

// evidenceLine renders one source on one line: its link, stance,
// publisher and rating, and its quote with where the quote was found.
func evidenceLine(l bot.Lang, e bot.EvidenceView, quoteMax int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "• %s — _%s_", link(e.URL, e.Title), Escape(l.EvidenceStance(e)))
	if e.Publisher != "" || e.Rating != "" {
		fmt.Fprintf(&b, " (%s)", cut(Escape(bot.Truncate(bot.OneLine(e.Publisher+" "+e.Rating), 100)), 200))
	}
	if q := bot.OneLine(e.Quote); q != "" { // a blank quote is none
		fmt.Fprintf(&b, ": “%s”", cut(Escape(bot.Truncate(q, quoteMax)), maxQuoteBytes))
		if n := l.EvidenceQuoteNote(e); n != "" {
			b.WriteString(" _(" + Escape(n) + ")_")
		}
	}
	return b.String()
}

func blocksText(bs []slack.Block) int {
	n := 0
	for _, b := range bs {
		switch b := b.(type) {
		case *slack.SectionBlock:
			n += len(b.Text.Text)
		case *slack.ContextBlock:
			for _, e := range b.ContextElements.Elements {
				if t, ok := e.(*slack.TextBlockObject); ok {
					n += len(t.Text)
				}
			}
		case *slack.ActionBlock:
			n += 40
		}
	}
	return n
}

// Render turns a neutral message into Block Kit blocks and a short fallback
// text (the notification: the report's summary), inside Slack's limits: at
// most 50 blocks, 3,000 characters per text and about 12,000 in all.
// Claims that do not fit are counted, pointing to the full report when
// there is a link to it.
func Render(m *bot.Message) (blocks []slack.Block, fallback string) {
	fallback = Escape(bot.Truncate(firstNonEmpty(m.Summary, m.Title), 150))
	blocks = append(blocks, section("*"+Escape(m.Title)+"*"))
	if m.AskedBy != nil && m.AskedBy.Name != "" {
		// The name, not <@U…>: a mention would notify.
		blocks = append(blocks, contextBlock(Escape(m.Lang.AskedBy(bot.Truncate(m.AskedBy.Name, 80)))))
	}
	if m.Error != "" {
		blocks = append(blocks, section(":warning: "+Escape(bot.Truncate(m.Error, 1000))))
		fallback = Escape(bot.Truncate(m.Error, 150))
	}
	if m.Notice != "" {
		blocks = append(blocks, contextBlock(Escape(bot.Truncate(m.Notice, 500))))
	}
	tail := notCheckedBlocks(m)
	used := blocksText(blocks) + blocksText(tail)
	for i, c := range m.Claims {
		budget := (maxTotalText - used - reserveText) / (len(m.Claims) - i)
		cb := claimBlocks(m.Lang, i, c, budget)
		if i > 0 {
			cb = append([]slack.Block{slack.NewDividerBlock()}, cb...)
		}
		t := blocksText(cb)
		if len(blocks)+len(cb)+len(tail)+reserveBlocks > maxBlocks || used+t+reserveText > maxTotalText {
			blocks = append(blocks, contextBlock(Escape(m.MoreClaims(len(m.Claims)-i))))
			break
		}
		blocks = append(blocks, cb...)
		used += t
	}
	blocks = append(blocks, tail...)
	if m.CheckID != "" {
		blocks = append(blocks, contextBlock(Escape(m.Lang.CheckRef(m.CheckID))))
	}
	if a := actionsBlock(m.Actions); a != nil {
		blocks = append(blocks, a)
	}
	return blocks, fallback
}

// notCheckedBlocks lists the parts of the text that were not checked, with
// why: a divider and one context block, or nothing.
func notCheckedBlocks(m *bot.Message) []slack.Block {
	lines := bot.NotCheckedLines(m, Escape)
	if lines == nil {
		return nil
	}
	text := strings.Join(append([]string{"*" + Escape(m.Lang.NotCheckableHeading()) + "*"}, lines...), "\n")
	return []slack.Block{slack.NewDividerBlock(), contextBlock(text)}
}

// actionsBlock is the buttons under a report, or nil.
func actionsBlock(actions []bot.Action) slack.Block {
	var els []slack.BlockElement
	for _, a := range actions {
		if a.URL != "" { // "Full report": a link button, never a link in text
			if btn := linkButton(a.ID, a.Label, a.URL); btn != nil {
				els = append(els, btn)
			}
			continue
		}
		btn := slack.NewButtonBlockElement(a.ID, a.Value, slack.NewTextBlockObject(slack.PlainTextType, a.Label, false, false))
		els = append(els, btn)
	}
	if len(els) == 0 {
		return nil
	}
	return slack.NewActionBlock("factbot_actions", els...)
}

// historyReply is the ephemeral answer to history: its lines, and under
// them an "Open history" link button when the web view is on.
func historyReply(h *bot.History) map[string]any {
	text := renderHistory(h)
	p := ephemeral(text)
	if btn := linkButton(actionOpenHistory, h.Lang.OpenHistory(), h.URL); btn != nil {
		p["blocks"] = []slack.Block{section(text), slack.NewActionBlock("factbot_history_actions", btn)}
	}
	return p
}

// renderHistory renders a history answer as mrkdwn.
func renderHistory(h *bot.History) string {
	if len(h.Lines) == 0 {
		return Escape(h.Lang.HistoryEmpty(bot.WhereWorkspace))
	}
	var b strings.Builder
	b.WriteString("*" + Escape(h.Lang.HistoryTitle(h, bot.WhereWorkspace)) + "*\n")
	for _, l := range h.Lines {
		v := l.Verdicts
		if v == "" {
			v = "–"
		}
		fmt.Fprintf(&b, "%s `%s` %s — %s\n", v, Escape(l.ID), l.When.UTC().Format("2006-01-02 15:04"), Escape(l.Text))
	}
	return cut(b.String(), maxBlockText)
}
