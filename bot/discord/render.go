package discord

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
)

// Discord's message limits.
const (
	maxContent     = 2000
	maxEmbeds      = 10
	maxEmbedsTotal = 6000 // characters in all embeds of a message
	maxTitle       = 256
	maxDescription = 4096
	maxFields      = 25
	maxFieldName   = 256
	maxFieldValue  = 1024
	maxFooter      = 2048
	maxCustomID    = 100
	maxButtonURL   = 512

	// evidencePerClaim bounds the sources shown per claim before
	// "+N more sources".
	evidencePerClaim = 5
)

// Embed colours by verdict.
const (
	colorSupported    = 0x2ECC71
	colorContradicted = 0xE74C3C
	colorContested    = 0xF39C12
	colorUnverifiable = 0x95A5A6
	colorPending      = 0x5865F2
	colorError        = 0x992D22
)

// Color returns the embed colour for a verdict (blurple while pending).
func Color(l factcheck.Label) int {
	switch l {
	case factcheck.Supported:
		return colorSupported
	case factcheck.Contradicted:
		return colorContradicted
	case factcheck.Contested:
		return colorContested
	case factcheck.Unverifiable:
		return colorUnverifiable
	}
	return colorPending
}

// noMentions is set on every message the bot sends: nothing pings anyone.
func noMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

// rendered is a bot.Message in Discord's form.
type rendered struct {
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
}

var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, `*`, `\*`, `_`, `\_`, "`", "\\`", `~`, `\~`, `|`, `\|`,
	`>`, `\>`, `<`, `\<`, `#`, `\#`, `[`, `\[`, `]`, `\]`, `(`, `\(`, `)`, `\)`,
	`:`, `\:`,
)

// Escape makes user, page or model text inert in Discord markdown: no
// formatting, masked links, mentions (<@id>, <@!id>, <@&role>, <#channel>),
// @everyone/@here (a zero-width space follows the @), timestamps or custom
// emoji. Mentions are also suppressed by allowed_mentions on every message;
// this keeps them from even rendering.
func Escape(s string) string { return markdownEscaper.Replace(bot.InertMentions(s)) }

// linkURL makes a URL safe inside a masked link's parentheses.
func linkURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	s := u.String()
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E").Replace(s)
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// render turns m into content, embeds and buttons within Discord's limits:
// at most 10 embeds (claims beyond 9 are counted, pointing to the full
// report when there is a link to it), 6,000 characters across them, 2,000
// of content. The content's first line is what a notification shows: the
// report's summary once it is final.
func render(m *bot.Message) *rendered {
	r := &rendered{}
	var head []string
	title := firstNonEmpty(m.Summary, m.Title, "Fact-check")
	head = append(head, "**"+Escape(title)+"**")
	if m.AskedBy != nil && safeID(m.AskedBy.ID) != "" {
		// A mention shows the asker's name; allowed_mentions keeps it
		// from pinging anyone.
		head = append(head, askedBy(m.Lang, safeID(m.AskedBy.ID)))
	}
	// The notice and error are cut first, so that cutting the content
	// never splits the "+N more claims" line's markup.
	if m.Notice != "" {
		head = append(head, bot.Truncate(Escape(m.Notice), 500))
	}
	if m.Error != "" {
		head = append(head, "⚠️ "+bot.Truncate(Escape(m.Error), 1000))
	}

	claims := m.Claims
	moreClaims := 0
	if len(claims) > maxEmbeds {
		claims = claims[:maxEmbeds-1]
		moreClaims = len(m.Claims) - len(claims)
	}
	if moreClaims > 0 {
		head = append(head, Escape(m.MoreClaims(moreClaims)))
	}
	if nc := notChecked(m); nc != "" {
		head = append(head, nc)
	}
	r.Content = bot.Truncate(strings.Join(head, "\n"), maxContent)

	footer := ""
	if id := safeID(m.CheckID); id != "" {
		footer = m.Lang.CheckRef(id) // footers show no markdown: plain text
	}
	if len(claims) > 0 {
		budget := (maxEmbedsTotal - runes(footer)) / len(claims)
		for _, c := range claims {
			r.Embeds = append(r.Embeds, claimEmbed(m, c, budget))
		}
		if footer != "" {
			r.Embeds[len(r.Embeds)-1].Footer = &discordgo.MessageEmbedFooter{Text: footer}
		}
	} else if m.Error != "" {
		r.Embeds = nil
	}

	if len(m.Actions) > 0 {
		var buttons []discordgo.MessageComponent
		for _, a := range m.Actions {
			if a.URL != "" { // "Full report": a link button, never a link in text
				if b, ok := linkButton(a.Label, a.URL); ok {
					buttons = append(buttons, b)
				}
				continue
			}
			id := a.ID + ":" + safeID(a.Value)
			if len(id) > maxCustomID {
				continue
			}
			style := discordgo.PrimaryButton
			if a.ID == bot.ActionWrong {
				style = discordgo.SecondaryButton
			}
			buttons = append(buttons, discordgo.Button{Label: bot.Truncate(a.Label, 80), Style: style, CustomID: id})
		}
		if len(buttons) > 0 {
			r.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}}
		}
	}
	return r
}

// linkButton is a button opening u (style 5: Discord opens it and sends
// nothing back); false when u is not an http(s) URL Discord takes.
func linkButton(label, u string) (discordgo.Button, bool) {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || len(u) > maxButtonURL {
		return discordgo.Button{}, false
	}
	return discordgo.Button{Label: bot.Truncate(label, 80), Style: discordgo.LinkButton, URL: u}, true
}

// safeID keeps check ids (ours, but shown in markdown) to a safe alphabet.
func safeID(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return -1
	}, id)
}

// askedBy is "Asked by <@id>": the words escaped, the mention not.
func askedBy(l bot.Lang, id string) string {
	const slot = "\x00"
	before, after, _ := strings.Cut(l.AskedBy(slot), slot)
	return Escape(before) + "<@" + id + ">" + Escape(after)
}

// notChecked lists the parts of the text that were not checked, with why,
// for the content; "" when there are none.
func notChecked(m *bot.Message) string {
	lines := bot.NotCheckedLines(m, Escape)
	if lines == nil {
		return ""
	}
	return strings.Join(append([]string{"**" + Escape(m.Lang.NotCheckableHeading()) + "**"}, lines...), "\n")
}

// titleEscaper makes text inert in an embed's title. Titles render inline
// formatting (bold, italics, underline, strike-through, code, spoilers)
// but no links, headings, quotes, lists, mentions, timestamps or emoji, so
// only the formatting characters are escaped: the backslashes Escape puts
// before ":", "#", "(" and the like would show there. A zero-width space
// after "<" and between "]" and "(" keeps mention and link syntax from
// ever forming, unseen.
var titleEscaper = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `_`, `\_`, "`", "\\`", `~`, `\~`, `|`, `\|`,
	"<", "<\u200b", "](", "]\u200b(")

// titleText is user, page or model text for an embed's title or a
// field's name (which render alike).
func titleText(s string) string { return titleEscaper.Replace(bot.InertMentions(bot.OneLine(s))) }

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// claimEmbed renders one claim of m in at most budget characters.
func claimEmbed(m *bot.Message, c bot.ClaimView, budget int) *discordgo.MessageEmbed {
	l := m.Lang
	e := &discordgo.MessageEmbed{Type: discordgo.EmbedTypeRich, Color: Color(c.Label)}
	e.Title = cutEscaped(bot.Emoji(c.Label)+" "+titleText(l.Label(c.Label)+": "+c.Claim), min(maxTitle, budget/4))

	var desc []descLine
	if s := l.Confidence(c.Confidence); c.Label != "" && s != "" {
		desc = append(desc, descLine{text: "**" + Escape(s) + "**"})
	}
	if c.Reasoning != "" {
		desc = append(desc, descLine{text: Escape(c.Reasoning), cut: true})
	}
	for _, s := range []string{l.CheckedAt(c), l.Stopped(c.StoppedBy)} {
		if s != "" {
			desc = append(desc, descLine{text: "*" + Escape(s) + "*"})
		}
	}
	if c.Error != "" {
		desc = append(desc, descLine{text: "⚠️ " + Escape(c.Error), cut: true})
	}
	left := budget - runes(e.Title)
	// Keep room for a few sources.
	descMax := min(maxDescription, left-min(len(c.Evidence), 2)*200-60)
	e.Description = fitLines(desc, max(descMax, 0))
	left -= runes(e.Description)

	shown, more := bot.FitEvidence(c.Evidence, evidencePerClaim)
	for i, ev := range shown {
		// Leave room for the "+N more sources" field.
		f := evidenceField(l, ev, left-60)
		if len(e.Fields) >= maxFields-1 || f == nil {
			more += len(shown) - i
			break
		}
		e.Fields = append(e.Fields, f)
		left -= runes(f.Name) + runes(f.Value)
	}
	if more > 0 {
		f := &discordgo.MessageEmbedField{Name: l.MoreSources(more), Value: Escape(m.SourcesElsewhere())}
		if runes(f.Name)+runes(f.Value) <= left {
			e.Fields = append(e.Fields, f)
		}
	}
	return e
}

// descLine is one line of an embed's description: escaped text that may be
// cut (cut), or a line with markup of our own, kept whole or left out.
type descLine struct {
	text string
	cut  bool
}

// fitLines joins lines within max runes. A line with markup is shown whole
// or not at all, so that a cut never leaves markup open; text that may be
// cut is cut outside its escapes (cutEscaped), and nothing comes after it.
func fitLines(lines []descLine, max int) string {
	var b strings.Builder
	n := 0
	for _, l := range lines {
		sep := 0
		if n > 0 {
			sep = 1
		}
		room := max - n - sep
		if room <= 0 {
			break
		}
		text := l.text
		if runes(text) > room {
			if !l.cut {
				continue
			}
			text = cutEscaped(text, room)
		}
		if sep == 1 {
			b.WriteString("\n")
		}
		b.WriteString(text)
		n += sep + runes(text)
		if text != l.text {
			break
		}
	}
	return b.String()
}

// cutEscaped cuts escaped text to n runes with an ellipsis, never between a
// backslash and the character it escapes.
func cutEscaped(s string, n int) string {
	t := []rune(strings.TrimSuffix(bot.Truncate(s, n), "…"))
	if len(t) == len([]rune(s)) {
		return s
	}
	k := 0
	for k < len(t) && t[len(t)-1-k] == '\\' {
		k++
	}
	if k%2 == 1 {
		t = t[:len(t)-1]
	}
	return string(t) + "…"
}

// evidenceField renders one source in at most room characters (name and
// value), its quote cut to fit; nil if it does not fit without its quote.
func evidenceField(l bot.Lang, ev bot.EvidenceView, room int) *discordgo.MessageEmbedField {
	mark := bot.StanceEmoji(ev.Stance()) + " " + l.EvidenceStance(ev)
	title := ev.Title
	if title == "" {
		if u, err := url.Parse(ev.URL); err == nil {
			title = u.Host
		}
	}
	name := cutEscaped(mark+" · "+titleText(title), min(maxFieldName, max(room/3, 40))) // names render like titles
	limit := min(maxFieldValue, room-runes(name))
	var v []string
	if u := linkURL(ev.URL); u != "" {
		v = append(v, "["+Escape(l.SourceLink())+"]("+u+")")
	}
	if ev.Publisher != "" || ev.Rating != "" {
		v = append(v, bot.Truncate(Escape(bot.OneLine(ev.Publisher+": "+ev.Rating)), 200))
	}
	if quote := bot.OneLine(ev.Quote); quote != "" { // a blank quote is none
		// Cut the quote, never the link nor where the quote was found.
		note := " *(" + Escape(l.EvidenceQuoteNote(ev)) + ")*"
		if q := limit - runes(strings.Join(v, "\n")) - runes("\n> ") - runes(note); q >= 20 {
			v = append(v, "> "+cutEscaped(Escape(quote), q)+note)
		}
	}
	if len(v) == 0 {
		v = append(v, "—")
	}
	val := strings.Join(v, "\n")
	if runes(val) > limit {
		return nil
	}
	return &discordgo.MessageEmbedField{Name: name, Value: val}
}

// renderHistory renders /factcheck-history's answer, with an "Open
// history" link button when the web view is on; where names the tenant
// (bot.WhereServer, bot.WhereDMs).
func renderHistory(h *bot.History, where string) *rendered {
	r := historyLines(h, where)
	if b, ok := linkButton(h.Lang.OpenHistory(), h.URL); ok {
		r.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{b}}}
	}
	return r
}

func historyLines(h *bot.History, where string) *rendered {
	title := titleText(h.Lang.HistoryTitle(h, where))
	if len(h.Lines) == 0 {
		return &rendered{Content: Escape(h.Lang.HistoryEmpty(where))}
	}
	var b strings.Builder
	for _, l := range h.Lines {
		line := fmt.Sprintf("`%s` %s %s %s", safeID(l.ID), l.When.UTC().Format("2006-01-02 15:04"), l.Verdicts, Escape(l.Text))
		if l.Cached {
			line += " *" + Escape(h.Lang.HistoryCached()) + "*"
		}
		if runes(b.String())+runes(line)+1 > maxDescription {
			break
		}
		b.WriteString(line + "\n")
	}
	e := &discordgo.MessageEmbed{Type: discordgo.EmbedTypeRich, Title: title, Description: b.String(), Color: colorPending}
	return &rendered{Embeds: []*discordgo.MessageEmbed{e}}
}
