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

// The commands' descriptions, the verdict choices and the message
// command's name are registered in every Discord locale with a catalog:
// what Discord shows as the commands' help.
func TestCommandsInEveryLocale(t *testing.T) {
	h := newHarness(t, func(c *discord.Config, _ *bot.Options, _ *bottest.Checker) { c.GuildID = guild })
	reqs := h.fake.Matching("PUT", "/applications/"+h.fake.AppID+"/guilds/"+guild+"/commands")
	if len(reqs) != 1 {
		t.Fatalf("guild command overwrites = %d, want 1", len(reqs))
	}
	var cmds []discordgo.ApplicationCommand
	reqs[0].JSON(&cmds)
	got := map[string]string{}
	for _, c := range cmds {
		if c.DescriptionLocalizations != nil {
			for l, d := range *c.DescriptionLocalizations {
				got[c.Name+" "+string(l)] = d
			}
		}
		if c.NameLocalizations != nil {
			for l, n := range *c.NameLocalizations {
				got[c.Name+" name "+string(l)] = n
			}
		}
		for _, o := range c.Options {
			for l, d := range o.DescriptionLocalizations {
				got[c.Name+" "+o.Name+" "+string(l)] = d
			}
			for _, ch := range o.Choices {
				for l, n := range ch.NameLocalizations {
					got[c.Name+" "+o.Name+" "+ch.Name+" "+string(l)] = n
				}
			}
		}
	}
	for k, want := range map[string]string{
		"factcheck es-ES":                              "Comprueba una afirmación o un párrafo",
		"factcheck es-419":                             "Comprueba una afirmación o un párrafo",
		"factcheck text pt-BR":                         "A afirmação ou o parágrafo a verificar",
		"factcheck private ja":                         "回答をあなただけに表示する",
		"factcheck-history zh-CN":                      "此服务器最近的核查（仅你可见）",
		"factcheck-history count hi":                   "कितनी (1-25, डिफ़ॉल्ट 10)",
		"factcheck-history verdict contradicted fr":    "Contredite",
		"factcheck-history mine de":                    "Nur deine eigenen Prüfungen",
		"Fact-check name de":                           "Faktencheck",
		"factcheck-history verdict unverifiable es-ES": "No verificable",
	} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
	for k := range got {
		if strings.HasSuffix(k, " ko") || strings.HasSuffix(k, " en-US") {
			t.Errorf("%s localized, but it has no catalog or is English", k)
		}
	}
}

// Input refused, an unknown command and the engine's words in a report
// are said in the interaction's locale. Through discordgo against the
// fake Discord.
func TestRefusalsAndNoticesInTheAskersLanguage(t *testing.T) {
	h := newHarness(t, func(_ *discord.Config, o *bot.Options, ck *bottest.Checker) {
		o.MaxInput = 20
		ck.Func = func(_ context.Context, in factcheck.Input) (*factcheck.Report, error) {
			return bottest.NoticesReport(in), nil
		}
	})
	respond := func(i *discordgo.Interaction) string { return h.respond(i).Data.Content }
	long := slash("800000000000000091", strings.Repeat("long text ", 10), false)
	long.Locale = discordgo.German
	if got, want := respond(long), `Der Text ist zu lang zum Prüfen \(99 Zeichen; die Grenze liegt bei 20\)`; !strings.Contains(got, want) {
		t.Errorf("refusal = %q, want %q", got, want)
	}
	unknown := slash("800000000000000092", "x", false)
	unknown.Locale = discordgo.Japanese
	unknown.Data = discordgo.ApplicationCommandInteractionData{ID: "cmd9", Name: "nope", CommandType: discordgo.ChatApplicationCommand}
	if got := respond(unknown); got != "不明なコマンドです。" {
		t.Errorf("unknown command = %q", got)
	}

	i := slash("800000000000000093", "One\nTwo", false)
	i.Locale = discordgo.SpanishES
	if err := h.fake.InteractionCreate(i); err != nil {
		t.Fatal(err)
	}
	h.waitDone(guild, "discord:interaction:"+i.ID)
	var final string
	for _, q := range h.fake.Requests() {
		if q.Method == "PATCH" && isFinal(q) {
			final = shown(t, q.Body)
		}
	}
	for _, w := range []string{
		`El mensaje era solo un enlace, así que se comprobaron las afirmaciones de esa página\: Tower facts`,
		"Solo se comprobaron las primeras 8 de 9 afirmaciones; envía el resto por separado.",
		"no comprobada\\: se comprueban como máximo 8 afirmaciones por solicitud",
		"No se pudo comprobar esta afirmación\\: se alcanzó el límite de uso del modelo.",
	} {
		if !strings.Contains(final, w) {
			t.Errorf("report lacks %q:\n%s", w, final)
		}
	}
	for _, english := range []string{"only a link", "Only the first", "at most 8 claims", "could not be checked", "rate limit"} {
		if strings.Contains(final, english) {
			t.Errorf("report shows the English %q:\n%s", english, final)
		}
	}
}
