package discord_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/discord"
	"github.com/factbot-dev/factbot/factcheck"
)

// The interaction's locale chooses the words of the report, then the
// claims' language (a mention carries no locale); the notification text
// (the content's first line) counts every verdict; a command's report
// says who asked and lists what was not checked. Through discordgo
// against the fake Discord.
func TestReportInTheAskersLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, locale, claims string
		mention              bool
		want                 []string
	}{
		{"French locale", "fr", "en", false, []string{`**3 affirmations \: 1 confirmée, 1 contredite, 1 contestée**`,
			"Demandé par <@" + asker + ">", "**Non vérifié**", "❌ Contredite: Two", "**confiance élevée**",
			"❌ contredit · Example source", "[source](https://example.org/source)", "*(citation trouvée sur la page)*",
			"footer: Vérification 20", "button: Vérifier à nouveau", "button: Verdict erroné ?"}},
		{"a mention: the claims' language", "", "de", true, []string{`**3 Behauptungen\: 1 bestätigt, 1 widerlegt, 1 umstritten**`,
			"⚖️ Umstritten: Three", "button: Erneut prüfen"}},
		{"Japanese locale", "ja", "en", false, []string{"**3 件の主張：裏付けあり 1 件、誤り 1 件、見解が分かれる 1 件**", "button: もう一度確認"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, func(_ *discord.Config, _ *bot.Options, ck *bottest.Checker) {
				ck.Func = func(_ context.Context, in factcheck.Input) (*factcheck.Report, error) {
					return bottest.MixedReport(in, tc.claims, factcheck.Supported, factcheck.Contradicted, factcheck.Contested), nil
				}
			})
			key := "discord:interaction:500000000000000071"
			if tc.mention {
				m := h.mention("400000000000000071", "One\nTwo\nThree")
				key = "discord:message:" + m.ID
				if err := h.fake.MessageCreate(m); err != nil {
					t.Fatal(err)
				}
			} else {
				i := slash("500000000000000071", "One\nTwo\nThree", false)
				i.Locale = discordgo.Locale(tc.locale)
				if err := h.fake.InteractionCreate(i); err != nil {
					t.Fatal(err)
				}
			}
			h.waitDone(guild, key)
			var final string
			for _, q := range h.fake.Requests() {
				if q.Method == "PATCH" && isFinal(q) {
					final = shown(t, q.Body)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(final, w) {
					t.Errorf("report lacks %q:\n%s", w, final)
				}
			}
			if strings.Contains(final, "factbot show") {
				t.Errorf("report shows a command line: %s", final)
			}
		})
	}
}

// shown is what a message body shows, one text a line: the content, each
// embed's title, description, fields and footer, and the buttons' labels.
func shown(t *testing.T, body []byte) string {
	t.Helper()
	var m struct {
		Content    string                    `json:"content"`
		Embeds     []*discordgo.MessageEmbed `json:"embeds"`
		Components []struct {
			Components []struct {
				Label string `json:"label"`
			} `json:"components"`
		} `json:"components"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	out := []string{m.Content}
	for _, e := range m.Embeds {
		out = append(out, e.Title, e.Description)
		for _, f := range e.Fields {
			out = append(out, f.Name, f.Value)
		}
		if e.Footer != nil {
			out = append(out, "footer: "+e.Footer.Text)
		}
	}
	for _, row := range m.Components {
		for _, b := range row.Components {
			out = append(out, "button: "+b.Label)
		}
	}
	return strings.Join(out, "\n")
}
