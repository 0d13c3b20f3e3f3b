package slack_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/factcheck"
)

// fuzzMessage builds a report whose every text the engine passes on from
// the model, the pages or the user is one of the fuzzed strings; n picks
// how many claims and sources, to reach the size limits.
func fuzzMessage(claim, reasoning, quote, title string, n uint8) *bot.Message {
	claims := 1 + int(n%20)
	sources := 1 + int(n/20%6)
	m := &bot.Message{Final: true, Title: "Fact-check", Notice: claim, CheckID: "20261129T120000Z-abcd",
		Actions: []bot.Action{{ID: bot.ActionRecheck, Label: "Check again", Value: "20261129T120000Z-abcd"}}}
	places := []factcheck.QuoteMatch{{}, {Place: factcheck.QuoteOnPage}, {Place: factcheck.QuoteInPDF, Page: 3}, {Place: factcheck.QuoteInSnippet}, {Place: factcheck.QuoteInTitle}}
	for i := range claims {
		c := bot.ClaimView{Claim: claim, Label: factcheck.Labels[i%4], Confidence: factcheck.Medium, Reasoning: reasoning}
		for j := range sources {
			p := places[(i+j)%len(places)]
			c.Evidence = append(c.Evidence, bot.EvidenceView{URL: "https://example.org/a?b=1&c=2#d", Title: title, Supports: j%2 == 0,
				Quote: quote, QuoteFound: p.Found(), QuoteMatch: p, Publisher: title, Rating: claim})
		}
		m.Claims = append(m.Claims, c)
	}
	return m
}

var (
	// ownMarkup is the markup Render writes with < or >: an evidence link,
	// whose label has no <, > or |, and the > quoting the claim.
	ownMarkup = regexp.MustCompile(`<https://example\.org/a\?b=1&amp;c=2#d\|[^<>|]*>|(?m)^>`)
	// entity is every & Render may leave: an escape.
	entity = regexp.MustCompile(`&(?:amp|lt|gt);`)
)

func FuzzRenderSlack(f *testing.F) {
	f.Add("The Eiffel Tower is 330 m tall.", "The official site says so.", "The tower is 330 metres tall.", "Eiffel Tower", uint8(0))
	f.Add("<!channel> <@U123> <#C1|x> @here", "<!subteam^S1|@team> <https://evil|click> & @everyone", "&lt; &amp; <!here>", "t|<@U1>", uint8(41))
	f.Add(strings.Repeat("long claim ", 400), strings.Repeat("<&>", 2000), strings.Repeat("q<", 3000), strings.Repeat("T>", 500), uint8(119))
	f.Fuzz(func(t *testing.T, claim, reasoning, quote, title string, n uint8) {
		blocks, fallback := slack.Render(fuzzMessage(claim, reasoning, quote, title, n))
		if len(blocks) > 50 {
			t.Errorf("%d blocks, limit 50", len(blocks))
		}
		total := 0
		texts := []string{fallback}
		for _, o := range blockTexts(t, blocks) {
			s, _ := o["text"].(string)
			n := utf8.RuneCountInString(s)
			total += n
			switch o["type"] {
			case "mrkdwn":
				if n > 3000 {
					t.Errorf("mrkdwn text of %d characters, limit 3000", n)
				}
				if o["verbatim"] != true {
					t.Errorf("mrkdwn text sent without verbatim: %q", s)
				}
			case "plain_text":
				if n > 75 {
					t.Errorf("plain text of %d characters, limit 75 (a button)", n)
				}
			}
			texts = append(texts, s)
		}
		if total > 12000 {
			t.Errorf("%d characters in all, limit about 12000", total)
		}
		for _, s := range texts {
			if !utf8.ValidString(s) {
				t.Errorf("invalid UTF-8: %q", s)
			}
			rest := ownMarkup.ReplaceAllString(s, "")
			if i := strings.IndexAny(rest, "<>"); i >= 0 {
				t.Errorf("live control sequence at %q in %q", rest[i:min(len(rest), i+20)], s)
			}
			if strings.Count(rest, "&") != len(entity.FindAllString(rest, -1)) {
				t.Errorf("a bare & in %q", s)
			}
			if m := liveSlack.FindString(rest); m != "" {
				t.Errorf("live mention %q in %q", m, s)
			}
		}
		// Where each quote was found is never cut off (a blank quote is
		// none, and has no note).
		for _, s := range texts {
			for _, line := range strings.Split(s, "\n") {
				if strings.TrimSpace(quote) != "" && strings.HasPrefix(line, "• <https://example.org/") && !strings.HasSuffix(line, ")_") {
					t.Errorf("quote note cut off: %q", line)
				}
			}
		}
	})
}
