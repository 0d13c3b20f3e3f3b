package discord

import (
	"regexp"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
)

// fuzzMessage builds a report whose every text the engine passes on from
// the model, the pages or the user is one of the fuzzed strings; n picks
// how many claims and sources, to reach the size limits.
func fuzzMessage(claim, reasoning, quote, title string, n uint8) *bot.Message {
	claims := 1 + int(n%12)
	sources := 1 + int(n/12%8)
	m := &bot.Message{Final: true, Title: "Fact-check", Notice: claim, CheckID: "20261129T120000Z-abcd",
		Actions: []bot.Action{{ID: bot.ActionRecheck, Label: "Check again", Value: "20261129T120000Z-abcd"}}}
	places := []factcheck.QuoteMatch{{}, {Place: factcheck.QuoteOnPage}, {Place: factcheck.QuoteInPDF, Page: 3}, {Place: factcheck.QuoteInSnippet}, {Place: factcheck.QuoteInTitle}}
	for i := range claims {
		c := bot.ClaimView{Claim: claim, Label: factcheck.Labels[i%4], Confidence: factcheck.Medium, Reasoning: reasoning}
		for j := range sources {
			p := places[(i+j)%len(places)]
			c.Evidence = append(c.Evidence, bot.EvidenceView{URL: "https://example.org/a?b=1#c", Title: title, Supports: j%2 == 0,
				Quote: quote, QuoteFound: p.Found(), QuoteMatch: p, Publisher: title, Rating: claim})
		}
		m.Claims = append(m.Claims, c)
	}
	return m
}

var (
	// ownMarkup is the markdown render writes itself, removed before
	// looking for markup that came from the input.
	ownMarkup = regexp.MustCompile(`^\*\*Fact-check\*\*$|^\[source\]\(https://example\.org/a\?b=1#c\)$|^\*\*medium confidence\*\*$|` +
		`^> | \*\(quote [^()*\\]*\)\*$`)
	// liveMention is a plain @everyone, @here or @channel.
	liveMention = regexp.MustCompile(`(?i)@(?:everyone|here|channel)`)
)

// liveMarkup returns the markdown characters in s that no backslash
// escapes, once render's own markup is removed.
func liveMarkup(s string) []string {
	var live []string
	for _, line := range strings.Split(s, "\n") {
		line = ownMarkup.ReplaceAllString(line, "")
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '\\':
				i++ // the next character is escaped
			case strings.IndexByte("*_~`|<>[]()#:", c) >= 0:
				live = append(live, line[max(0, i-10):min(len(line), i+10)])
			}
		}
	}
	return append(live, liveMention.FindAllString(s, -1)...)
}

// liveTitleMarkup returns what an embed title would render of s: the
// inline formatting characters no backslash escapes, and mention or link
// syntax (titles render no other markdown, and show other escapes).
func liveTitleMarkup(s string) []string {
	var live []string
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			if i+1 < len(s) && strings.IndexByte("\\*_~`|", s[i+1]) < 0 {
				live = append(live, "needless escape: "+s[max(0, i-10):min(len(s), i+10)])
			}
			i++
		case strings.IndexByte("*_~`|", c) >= 0:
			live = append(live, s[max(0, i-10):min(len(s), i+10)])
		}
	}
	for _, re := range []*regexp.Regexp{liveMention, regexp.MustCompile(`<[@#:at/]|\]\(`)} {
		live = append(live, re.FindAllString(s, -1)...)
	}
	return live
}

func FuzzRenderDiscord(f *testing.F) {
	f.Add("The Eiffel Tower is 330 m tall.", "The official site says so.", "The tower is 330 metres tall.", "Eiffel Tower", uint8(0))
	f.Add("@everyone <@123> <@!123> <@&456> <#789>", "@here **bold** [x](https://evil) ||spoiler||", "> quote `code` ~~s~~ <t:1:R>", "<:emoji:1> # head", uint8(13))
	f.Add(strings.Repeat("long claim ", 400), strings.Repeat("reason ", 1000), strings.Repeat("q\\", 3000), strings.Repeat("T", 500), uint8(95))
	f.Fuzz(func(t *testing.T, claim, reasoning, quote, title string, n uint8) {
		r := render(fuzzMessage(claim, reasoning, quote, title, n))
		checkLimits(t, r)
		texts := []string{r.Content}
		for _, e := range r.Embeds {
			if live := liveTitleMarkup(strings.TrimPrefix(e.Title, strings.Fields(e.Title)[0]+" ")); len(live) > 0 {
				t.Errorf("live markup %q in title %q", live, e.Title)
			}
			texts = append(texts, e.Description)
			for _, f := range e.Fields {
				if _, name, ok := strings.Cut(f.Name, " · "); ok {
					if live := liveTitleMarkup(name); len(live) > 0 {
						t.Errorf("live markup %q in field name %q", live, f.Name)
					}
				}
				texts = append(texts, f.Value)
			}
			if e.Footer != nil {
				texts = append(texts, e.Footer.Text)
			}
		}
		for _, s := range texts {
			if live := liveMarkup(s); len(live) > 0 {
				t.Errorf("live markup %q in %q", live, s)
			}
		}
		// Where each shown quote was found is never cut off.
		for _, e := range r.Embeds {
			for _, f := range e.Fields {
				if strings.Contains(f.Value, "\n> ") && !strings.HasSuffix(f.Value, ")*") {
					t.Errorf("quote note cut off: %q", f.Value)
				}
			}
		}
	})
}
