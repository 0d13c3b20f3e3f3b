package bot

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

func TestRequestLang(t *testing.T) {
	withLocale := &store.Request{Meta: map[string]string{MetaLocale: "de"}}
	for _, tc := range []struct {
		r            *store.Request
		claims, text string
		want         string
	}{
		{withLocale, "es", "La Tierra es plana", "de"},
		{&store.Request{}, "es", "La Tierra es plana", "es"},
		{&store.Request{}, "", "الأرض مسطحة", "ar"},
		{&store.Request{}, "", "地球是平的", "zh"},
		{&store.Request{}, "", "地球は平らだ", "ja"},
		{&store.Request{}, "", "पृथ्वी चपटी है", "hi"},
		{&store.Request{}, "", "The Earth is flat", "en"},
		{nil, "", "", "en"},
	} {
		if got := RequestLang(tc.r, tc.claims, tc.text).Tag().String(); got != tc.want {
			t.Errorf("RequestLang(%v, %q, %q) = %s, want %s", tc.r, tc.claims, tc.text, got, tc.want)
		}
	}
}

func TestReportInSpanish(t *testing.T) {
	rep := &factcheck.Report{Claims: []*factcheck.Verdict{
		{Claim: "A", Verdict: factcheck.Supported}, {Claim: "B", Verdict: factcheck.Contradicted},
		{Claim: "C", Verdict: factcheck.Contested}, {Claim: "D", Verdict: factcheck.Contradicted},
	}}
	m := LangFor("es").RenderReport(rep, "ID1")
	got := []string{m.Title, m.Summary, m.Actions[0].Label, m.Actions[1].Label, m.Lang.Label(m.Claims[1].Label), m.MoreClaims(2)}
	want := []string{"Verificación: 4 afirmaciones", "4 afirmaciones: 1 respaldada, 2 desmentidas, 1 discutida",
		"Comprobar de nuevo", "¿Veredicto erróneo?", "Desmentida", "+2 afirmaciones más"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Spanish words (-want +got):\n%s", diff)
	}
}

func TestSummary(t *testing.T) {
	claims := func(ls ...factcheck.Label) *factcheck.Report {
		r := &factcheck.Report{}
		for i, l := range ls {
			r.Claims = append(r.Claims, &factcheck.Verdict{Claim: "claim " + string(rune('A'+i)), Verdict: l})
		}
		return r
	}
	for _, tc := range []struct {
		rep  *factcheck.Report
		want string
	}{
		{claims(factcheck.Contested, factcheck.Supported, factcheck.Contradicted), "3 claims: 1 supported, 1 contradicted, 1 contested"},
		{claims(factcheck.Unverifiable, factcheck.Unverifiable), "2 claims: 2 unverifiable"},
		{claims(factcheck.Contradicted), "❌ Contradicted: claim A"},
		{claims(), "Fact-check: no checkable claims found"},
	} {
		if got := English.RenderReport(tc.rep, "").Summary; got != tc.want {
			t.Errorf("summary = %q, want %q", got, tc.want)
		}
	}
}
