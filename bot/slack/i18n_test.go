package slack_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
)

// The asker's Slack locale (users.info with include_locale) chooses the
// words of the report, then the claims' language; the notification text
// counts every verdict, the report says who asked and lists what was not
// checked. Through slack-go against the fake Slack.
func TestReportInTheAskersLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, locale, claims string
		want                 []string
		summary, ack         string
	}{
		{"Spanish locale", "es-ES", "en", []string{"*Verificación: 3 afirmaciones*", "Lo pidió Ana", "*Desmentida* · confianza alta",
			"_desmiente_", "cita encontrada en la página", "*No comprobado*", "“What a view!” — an exclamation",
			"Verificación 20", `"Comprobar de nuevo"`, `"¿Veredicto erróneo?"`},
			"3 afirmaciones: 1 respaldada, 1 desmentida, 1 discutida", "Comprobando… el informe aparecerá en este canal."},
		{"no catalog for the locale: the claims' language", "ko-KR", "ar", []string{"بطلب من Ana", "مُفنَّد", `"تحقق مجددًا"`},
			"3 ادعاءات: مؤكَّد: 1، مُفنَّد: 1، موضع خلاف: 1", "Checking… the report will appear in this channel."}, // the ack comes before the claims' language is known
		{"English", "en-US", "es", []string{"*Fact-check: 3 claims*", "Asked by Ana", "*Not checked*", `"Check again"`},
			"3 claims: 1 supported, 1 contradicted, 1 contested", "Checking… the report will appear in this channel."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := slacktest.NewServer()
			t.Cleanup(f.Close)
			f.SetUser("U7", slacktest.User{Locale: tc.locale, DisplayName: "Ana", RealName: "Ana Ruiz"})
			start(t, setup{fake: f, checker: &bottest.Checker{Func: func(_ context.Context, in factcheck.Input) (*factcheck.Report, error) {
				return bottest.MixedReport(in, tc.claims, factcheck.Supported, factcheck.Contradicted, factcheck.Contested), nil
			}}})
			id, _ := f.Send("slash_commands", slacktest.Command("trigL", "C2", "U7", "One\nTwo\nThree", f.ResponseURL("rL")))
			if ack := waitAck(t, f, id); !strings.Contains(string(ack.Payload), tc.ack) {
				t.Errorf("acknowledgement %s, want %q", ack.Payload, tc.ack)
			}
			final := waitCall(t, f, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
			for _, w := range tc.want {
				if !strings.Contains(final.Text(), w) {
					t.Errorf("report lacks %q:\n%s", w, final.Text())
				}
			}
			if got := final.Form.Get("text"); !strings.HasPrefix(got, tc.summary) {
				t.Errorf("notification text = %q, want %q", got, tc.summary)
			}
			calls := f.Recorded("users.info")
			if len(calls) == 0 || calls[0].Form.Get("user") != "U7" || calls[0].Form.Get("include_locale") != "true" {
				t.Errorf("users.info calls = %+v, want one for U7 with include_locale", calls)
			}
		})
	}
}

// Without users.info (a missing scope; here a rate limit), a command's
// report says who asked with the name the payload gave, in English.
func TestAskedByWithoutUsersInfo(t *testing.T) {
	f := slacktest.NewServer()
	t.Cleanup(f.Close)
	f.RateLimit("users.info", "30")
	start(t, setup{fake: f})
	cmd := slacktest.Command("trigN", "C2", "U8", "Snow is white", f.ResponseURL("rN"))
	cmd["user_name"] = "bob"
	id, _ := f.Send("slash_commands", cmd)
	waitAck(t, f, id)
	final := waitCall(t, f, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
	for _, want := range []string{"Asked by bob", "*Fact-check: 1 claim*"} {
		if !strings.Contains(final.Text(), want) {
			t.Errorf("report lacks %q:\n%s", want, final.Text())
		}
	}
}

// History answers in the viewer's Slack locale.
func TestHistoryInTheViewersLanguage(t *testing.T) {
	f := slacktest.NewServer()
	t.Cleanup(f.Close)
	f.SetUser("U9", slacktest.User{Locale: "pt-BR"})
	start(t, setup{fake: f})
	id, _ := f.Send("slash_commands", slacktest.Command("trigH1", "C1", "U9", "history mine", f.ResponseURL("h1")))
	if ack := waitAck(t, f, id); !strings.Contains(string(ack.Payload), "Ainda não há checagens neste espaço de trabalho.") {
		t.Errorf("history of no checks = %s, want it in Portuguese", ack.Payload)
	}
}

// The engine's notices, the reasons it writes and a claim that could not
// be checked are said in the asker's locale, from their codes; none of
// their English words is shown. Through slack-go against the fake Slack.
func TestEngineWordsInTheAskersLanguage(t *testing.T) {
	f := slacktest.NewServer()
	t.Cleanup(f.Close)
	f.SetUser("U7", slacktest.User{Locale: "es-ES", DisplayName: "Ana"})
	start(t, setup{fake: f, checker: &bottest.Checker{Func: func(_ context.Context, in factcheck.Input) (*factcheck.Report, error) {
		return bottest.NoticesReport(in), nil
	}}})
	id, _ := f.Send("slash_commands", slacktest.Command("trigE", "C2", "U7", "One\nTwo", f.ResponseURL("rE")))
	waitAck(t, f, id)
	final := waitCall(t, f, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
	for _, w := range []string{
		"El mensaje era solo un enlace, así que se comprobaron las afirmaciones de esa página: Tower facts",
		"Solo se comprobaron las primeras 8 de 9 afirmaciones; envía el resto por separado.",
		"no comprobada: se comprueban como máximo 8 afirmaciones por solicitud",
		"No se pudo comprobar esta afirmación: se alcanzó el límite de uso del modelo.",
	} {
		if !strings.Contains(final.Text(), w) {
			t.Errorf("report lacks %q:\n%s", w, final.Text())
		}
	}
	for _, english := range []string{"only a link", "Only the first", "at most 8 claims", "could not be checked", "rate limit"} {
		if strings.Contains(final.Text(), english) {
			t.Errorf("report shows the English %q:\n%s", english, final.Text())
		}
	}
}

// /factcheck help, a history argument not understood and input refused
// are answered in the asker's Slack locale.
func TestHelpAndRefusalsInTheAskersLanguage(t *testing.T) {
	f := slacktest.NewServer()
	t.Cleanup(f.Close)
	f.SetUser("UF", slacktest.User{Locale: "fr-FR"})
	f.SetUser("UD", slacktest.User{Locale: "de-DE"})
	f.SetUser("UJ", slacktest.User{Locale: "ja-JP"})
	ck := &bottest.Checker{}
	start(t, setup{fake: f, checker: ck})
	for _, tc := range []struct {
		user, text string
		want       []string
	}{
		{"UF", "help", []string{"*factbot vérifie les faits.*", "`/factcheck private <texte>` — vous seul voyez le rapport.",
			"`/factcheck history [N] [mine] [supported|contradicted|contested|unverifiable]`", "*Vérifier à nouveau* ignore le cache"}},
		{"UD", "history 5 bogus", []string{`Ich habe "bogus" nicht verstanden. Der Verlauf nimmt [N] [mine]`}},
	} {
		id, _ := f.Send("slash_commands", slacktest.Command("trig"+tc.user, "C1", tc.user, tc.text, f.ResponseURL("r"+tc.user)))
		var ack struct{ Text string }
		if err := json.Unmarshal(waitAck(t, f, id).Payload, &ack); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(ack.Text, w) {
				t.Errorf("%s → %s, want %q", tc.text, ack.Text, w)
			}
		}
	}
	id, _ := f.Send("slash_commands", slacktest.Command("trigLong", "C1", "UJ", strings.Repeat("長い文章です。", 1200), f.ResponseURL("rJ")))
	waitAck(t, f, id)
	note := waitCall(t, f, func(c slacktest.Call) bool { return c.Method == "response_url" && c.Form.Get("id") == "rJ" })
	if want := "テキストが長すぎて確認できません（25200 文字、上限は 8000）。確認したい部分を送ってください。"; !strings.Contains(note.Text(), want) {
		t.Errorf("refusal = %s, want %q", note.Text(), want)
	}
	if n := len(ck.Calls()); n != 0 {
		t.Errorf("checked %d times", n)
	}
}
