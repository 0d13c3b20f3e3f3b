package discord

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/google/go-cmp/cmp"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"@everyone @here", "@\u200beveryone @\u200bhere"},
		{"<@&123> <@456> <#789>", `\<@&123\> \<@456\> \<\#789\>`},
		{"[click](https://evil)", `\[click\]\(https\://evil\)`},
		{"**bold** _it_ `code` ~~s~~ ||spoiler||", `\*\*bold\*\* \_it\_ \` + "`" + `code\` + "`" + ` \~\~s\~\~ \|\|spoiler\|\|`},
		{`a\b`, `a\\b`},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func bigMessage(claims, evidence, textLen int) *bot.Message {
	m := &bot.Message{Final: true, Title: "Fact-check", CheckID: "20261129T120000Z-abcd",
		Actions: []bot.Action{{ID: bot.ActionRecheck, Label: "Check again", Value: "20261129T120000Z-abcd"},
			{ID: bot.ActionWrong, Label: "Wrong verdict?", Value: "20261129T120000Z-abcd"}}}
	for i := range claims {
		c := bot.ClaimView{Claim: fmt.Sprintf("claim %d ", i) + strings.Repeat("x", textLen/4), Label: factcheck.Labels[i%4],
			Confidence: factcheck.High, Reasoning: strings.Repeat("because ", textLen/8)}
		for j := range evidence {
			c.Evidence = append(c.Evidence, bot.EvidenceView{URL: fmt.Sprintf("https://example.org/%d/(%d)", i, j),
				Title: strings.Repeat("T", 300), Supports: j%2 == 0, Quote: strings.Repeat("q", textLen), QuoteFound: j%3 == 0})
		}
		m.Claims = append(m.Claims, c)
	}
	return m
}

func checkLimits(t *testing.T, r *rendered) {
	t.Helper()
	if n := runes(r.Content); n > maxContent {
		t.Errorf("content %d > %d", n, maxContent)
	}
	if len(r.Embeds) > maxEmbeds {
		t.Errorf("%d embeds > %d", len(r.Embeds), maxEmbeds)
	}
	total := 0
	for _, e := range r.Embeds {
		total += embedSize(e)
		if runes(e.Title) > maxTitle || runes(e.Description) > maxDescription || len(e.Fields) > maxFields {
			t.Errorf("embed over limits: title %d, description %d, fields %d", runes(e.Title), runes(e.Description), len(e.Fields))
		}
		for _, f := range e.Fields {
			if runes(f.Name) > maxFieldName || runes(f.Value) > maxFieldValue || f.Name == "" || f.Value == "" {
				t.Errorf("field over limits or empty: name %d, value %d", runes(f.Name), runes(f.Value))
			}
		}
	}
	if total > maxEmbedsTotal {
		t.Errorf("embeds total %d > %d", total, maxEmbedsTotal)
	}
}

func TestRenderWithinLimits(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		claims, evidence, textLen int
		wantEmbeds                int
		wantContent               []string
	}{
		{"one small claim", 1, 1, 40, 1, nil},
		{"many sources", 1, 30, 2000, 1, nil},
		{"many claims", 14, 8, 5000, 9, []string{"+5 more claims"}},
		{"ten claims", 10, 2, 100, 10, nil},
		{"eleven claims", 11, 2, 100, 9, []string{"+2 more claims"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := render(bigMessage(tc.claims, tc.evidence, tc.textLen))
			checkLimits(t, r)
			if len(r.Embeds) != tc.wantEmbeds {
				t.Errorf("embeds = %d, want %d", len(r.Embeds), tc.wantEmbeds)
			}
			for _, w := range tc.wantContent {
				if !strings.Contains(r.Content, w) {
					t.Errorf("content %q lacks %q", r.Content, w)
				}
			}
			if tc.evidence > evidencePerClaim {
				last := r.Embeds[0].Fields[len(r.Embeds[0].Fields)-1]
				if !strings.HasPrefix(last.Name, "+") || !strings.Contains(last.Name, "more source") {
					t.Errorf("last field = %q, want +N more sources", last.Name)
				}
			}
			if strings.Contains(r.Content, "factbot show") {
				t.Errorf("content %q shows a command line", r.Content)
			}
			if f := r.Embeds[len(r.Embeds)-1].Footer; f == nil || f.Text != "Check 20261129T120000Z-abcd" {
				t.Errorf("footer = %+v, want the check id", f)
			}
		})
	}
}

func TestRenderColoursAndButtons(t *testing.T) {
	r := render(bigMessage(4, 1, 20))
	var got []int
	for _, e := range r.Embeds {
		got = append(got, e.Color)
	}
	if diff := cmp.Diff([]int{colorSupported, colorContradicted, colorContested, colorUnverifiable}, got); diff != "" {
		t.Errorf("colours (-want +got):\n%s", diff)
	}
	row, ok := r.Components[0].(discordgo.ActionsRow)
	if !ok || len(row.Components) != 2 {
		t.Fatalf("components = %+v", r.Components)
	}
	var ids []string
	for _, c := range row.Components {
		ids = append(ids, c.(discordgo.Button).CustomID)
	}
	if diff := cmp.Diff([]string{"factbot_recheck:20261129T120000Z-abcd", "factbot_wrong:20261129T120000Z-abcd"}, ids); diff != "" {
		t.Errorf("button ids (-want +got):\n%s", diff)
	}
	if u := linkURL("https://example.org/a_(b)"); u != "https://example.org/a_%28b%29" {
		t.Errorf("linkURL = %q", u)
	}
	if u := linkURL("javascript:alert(1)"); u != "" {
		t.Errorf("linkURL(javascript:) = %q, want empty", u)
	}
}

func TestRenderError(t *testing.T) {
	r := render(bot.English.RenderError("Sorry, the check failed."))
	if len(r.Embeds) != 0 || !strings.Contains(r.Content, "Sorry, the check failed.") || len(r.Components) != 0 {
		t.Errorf("rendered = %+v", r)
	}
}

// "Full report" is a link button (style 5, a URL, no custom id); URLs
// Discord refuses are left out, and the other buttons stay.
func TestRenderReportLink(t *testing.T) {
	const ok = "https://factbot.example/web/check/G/ID1?t=v1.x.y"
	for _, tt := range []struct {
		url  string
		want []discordgo.Button
	}{
		{ok, []discordgo.Button{{Label: "Full report", Style: discordgo.LinkButton, URL: ok}}},
		{"javascript:alert(1)", nil},
		{"https://", nil},
		{"https://factbot.example/" + strings.Repeat("a", 500), nil},
	} {
		m := &bot.Message{Final: true, Title: "Fact-check: 1 claim", CheckID: "ID1",
			Actions: []bot.Action{bot.English.ReportLink(tt.url), {ID: bot.ActionRecheck, Label: "Check again", Value: "ID1"}}}
		want := append(tt.want, discordgo.Button{Label: "Check again", Style: discordgo.PrimaryButton, CustomID: "factbot_recheck:ID1"})
		var got []discordgo.Button
		for _, c := range render(m).Components[0].(discordgo.ActionsRow).Components {
			got = append(got, c.(discordgo.Button))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%.40q: buttons (-want +got):\n%s", tt.url, diff)
		}
	}
}

// A report of eight claims, every text as long as it gets, fits Discord's
// limits with every claim in its embed, a source under each, who asked,
// what was not checked, and the summary first in the content.
func TestEightClaimsFitDiscord(t *testing.T) {
	m := bottest.LongMessage(8)
	r := render(m)
	checkLimits(t, r)
	if len(r.Embeds) != 8 {
		t.Fatalf("%d embeds, want 8", len(r.Embeds))
	}
	for i, e := range r.Embeds {
		if !strings.Contains(e.Title, fmt.Sprintf(": claim %d ", i+1)) {
			t.Errorf("embed %d title %q", i, e.Title)
		}
		if len(e.Fields) == 0 || !strings.Contains(e.Fields[0].Value, "(https://example.org/") || !strings.Contains(e.Fields[0].Value, "*(quote found on the page)*") {
			t.Errorf("embed %d shows no source with its quote: %+v", i, e.Fields)
		}
	}
	for _, want := range []string{"**" + Escape(m.Summary) + "**\n", "Asked by <@300000000000000003>", "**Not checked**"} {
		if !strings.Contains(r.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, r.Content)
		}
	}
}

// embedSize is the characters of an embed as Discord counts them against
// its 6000-character limit.
func embedSize(e *discordgo.MessageEmbed) int {
	n := runes(e.Title) + runes(e.Description)
	for _, f := range e.Fields {
		n += runes(f.Name) + runes(f.Value)
	}
	if e.Footer != nil {
		n += runes(e.Footer.Text)
	}
	if e.Author != nil {
		n += runes(e.Author.Name)
	}
	return n
}
