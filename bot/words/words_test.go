package words

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"github.com/factbot-dev/factbot/factcheck"
)

var templateVar = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

func vars(s string) []string {
	var out []string
	for _, m := range templateVar.FindAllStringSubmatch(s, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	sort.Strings(out)
	return out
}

// Every catalog translates every message, with the same {{.Vars}}, and
// every plural message has the forms its language needs.
func TestCatalogsComplete(t *testing.T) {
	var got []string
	for _, tag := range catalogLanguages() {
		got = append(got, tag.String())
	}
	if diff := cmp.Diff([]string{"ar", "de", "en", "es", "fr", "hi", "ja", "pt", "zh"}, sortedCopy(got)); diff != "" {
		t.Errorf("languages (-want +got):\n%s", diff)
	}
	for _, tag := range catalogLanguages() {
		if tag == language.English {
			continue
		}
		b, err := catalogs.ReadFile("locales/" + tag.String() + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		l := LangFor(tag.String())
		for _, w := range slices.Concat(messages, webWords, installWords, assistantWords) {
			tr, ok := raw[w.ID]
			if !ok {
				t.Errorf("%s: %s is not translated", tag, w.ID)
				continue
			}
			delete(raw, w.ID)
			checkTranslation(t, l, w, tr)
		}
		for id := range raw {
			t.Errorf("%s: %s is not a message of messages.go, web.go, install.go or assistant.go", tag, id)
		}
	}
}

func checkTranslation(t *testing.T, l Lang, w *i18n.Message, tr any) {
	t.Helper()
	forms := map[string]string{"other": ""}
	switch tr := tr.(type) {
	case string:
		forms["other"] = tr
	case map[string]any:
		for k, v := range tr {
			forms[k], _ = v.(string)
		}
	}
	want := vars(w.Other)
	for form, s := range forms {
		if got := vars(s); !cmp.Equal(want, got) && !(form != "other" && len(got) < len(want)) {
			t.Errorf("%s %s (%s) uses %v, English %v", l.Tag(), w.ID, form, got, want)
		}
	}
	data := map[string]any{"Count": 1, "Done": 1, "Page": 3, "Date": "2026-11-28", "Budget": "x", "User": "u", "ID": "i", "N": 2, "Counts": "c", "Where": "w", "Window": "w", "Time": "12:00",
		"Word": "x", "Usage": "u", "Verdict": "v", "Name": "a.png", "Max": 4, "Chars": 9000, "Notes": "n", "Why": "404", "Title": "t",
		"Total": 9, "Model": "m", "Command": "/factcheck", "Default": 10, "Minutes": 10, "Error": "e", "Team": "Acme",
		"Channel": "<#C1>", "Query": "q", "Site": "example.org", "Claim": "c", "Waiting": 100}
	counts := []any{nil}
	if w.One != "" {
		counts = []any{0, 1, 2, 3, 5, 11, 100, 101}
	}
	for _, n := range counts {
		if n != nil {
			data["Count"] = n
		}
		s, err := l.localizer().Localize(&i18n.LocalizeConfig{DefaultMessage: w, TemplateData: data, PluralCount: n})
		if err != nil || s == "" || strings.Contains(s, "<no value>") {
			t.Errorf("%s %s for %v = %q, %v", l.Tag(), w.ID, n, s, err)
		}
	}
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

func TestLangFor(t *testing.T) {
	for _, tc := range []struct {
		prefs []string
		want  string
	}{
		{[]string{"es-ES"}, "es"},
		{[]string{"es-419"}, "es"},
		{[]string{"pt-BR"}, "pt"},
		{[]string{"zh-CN"}, "zh"},
		{[]string{"ja"}, "ja"},
		{[]string{"hi"}, "hi"},
		{[]string{"ko", "fr"}, "fr"},    // no Korean catalog: the next preference
		{[]string{"en-US", "de"}, "en"}, // the platform's locale comes first
		{[]string{"", "ar"}, "ar"},
		{[]string{"not a tag", ""}, "en"},
		{nil, "en"},
	} {
		if got := LangFor(tc.prefs...).Tag().String(); got != tc.want {
			t.Errorf("LangFor(%q) = %s, want %s", tc.prefs, got, tc.want)
		}
	}
	if (Lang{}).Tag() != language.English || (Lang{}).Label(factcheck.Supported) != "Supported" {
		t.Error("the zero Lang is not English")
	}
}

func TestViewerLang(t *testing.T) {
	for _, tc := range []struct {
		accept, claims, text string
		want                 string
	}{
		{"es-ES,es;q=0.9,en;q=0.8", "de", "", "es"},
		{"fr;q=0.2, de;q=0.9", "", "", "de"}, // by weight
		{"ko-KR,ko;q=0.9", "pt", "", "pt"},   // no Korean catalog: the claims' language
		{"*", "ja", "", "ja"},
		{"", "", "الأرض مسطحة", "ar"},
		{"", "", "The Earth is flat", "en"},
		{"not;;a header", "fr", "", "fr"},
		{"en-US", "es", "", "en"}, // the browser comes first
	} {
		if got := ViewerLang(tc.accept, tc.claims, tc.text).Tag().String(); got != tc.want {
			t.Errorf("ViewerLang(%q, %q, %q) = %s, want %s", tc.accept, tc.claims, tc.text, got, tc.want)
		}
	}
	if LangFor("ar").Dir() != "rtl" || LangFor("ar-EG").Dir() != "rtl" || LangFor("es").Dir() != "ltr" || English.Dir() != "ltr" {
		t.Error("Dir: Arabic is not rtl, or another language is")
	}
}

func TestWord(t *testing.T) {
	es := LangFor("es")
	for _, tc := range []struct {
		id   string
		kv   []any
		want string
	}{
		{"WebClaims", nil, "Afirmaciones"},
		{"WebPDFPages", []any{"Count", 1}, "PDF, 1 página."},
		{"WebPDFPages", []any{"Count", 3}, "PDF, 3 páginas."},
		{"WebPage", []any{"N", 2}, "Página 2"},
	} {
		got, err := es.Word(tc.id, tc.kv...)
		if err != nil || got != tc.want {
			t.Errorf("Word(%s, %v) = %q, %v; want %q", tc.id, tc.kv, got, err, tc.want)
		}
	}
	for _, bad := range [][]any{{"NoSuchWord"}, {"WebPage", "N"}, {"WebPage", 1, 2}} {
		if _, err := es.Word(bad[0].(string), bad[1:]...); err == nil {
			t.Errorf("Word(%v) is not an error", bad)
		}
	}
}

// catalogLanguages are the languages with a catalog, English first.
func catalogLanguages() []language.Tag { return bundle().LanguageTags() }

// TestQuoteNoteEveryLanguage: in each of the nine languages, every value
// of the one vocabulary of where a quote was found (factcheck.Evidence.
// Where) has words of its own, in that language's catalog.
func TestQuoteNoteEveryLanguage(t *testing.T) {
	evs := []factcheck.Evidence{
		{QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}},
		{QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInPDF, Page: 3}},
		{QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInSnippet}},
		{QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInTitle}},
		{QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInSummary}},
		{},                 // not found
		{QuoteFound: true}, // saved before places: unknown
	}
	for _, tag := range catalogLanguages() {
		l := LangFor(tag.String())
		seen := map[string]factcheck.QuotePlace{}
		for _, e := range evs {
			e.QuoteOrSummary = "q"
			note := l.QuoteNote(e.QuoteOrSummary, e.QuoteFound, e.QuoteMatch)
			if note == "" || (tag != language.English && note == English.QuoteNote(e.QuoteOrSummary, e.QuoteFound, e.QuoteMatch)) {
				t.Errorf("%s: %s has no words of its own: %q", tag, e.Where(), note)
			}
			if other, ok := seen[note]; ok {
				t.Errorf("%s: %s and %s are both said %q", tag, other, e.Where(), note)
			}
			seen[note] = e.Where()
		}
	}
}
