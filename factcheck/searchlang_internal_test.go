package factcheck

import "testing"

// A query is told English or the claim's language, in every script of
// the chat catalogs' languages.
func TestQueryLanguage(t *testing.T) {
	for _, tc := range []struct {
		tag, claim, query string
		english           bool
	}{
		{"es", "La Torre Eiffel mide 330 metros", "altura oficial de la Torre Eiffel", false},
		{"es", "La Torre Eiffel mide 330 metros", "official height of the Eiffel Tower", true},
		{"fr", "La tour Eiffel mesure 330 mètres", "quelle est la hauteur de la tour Eiffel", false},
		{"de", "Der Eiffelturm ist 330 Meter hoch", "wie hoch ist der Eiffelturm", false},
		{"pt-BR", "A Torre Eiffel tem 330 metros de altura", "qual é a altura da Torre Eiffel", false},
		{"pt-BR", "A Torre Eiffel tem 330 metros de altura", "how tall is the Eiffel Tower", true},
		{"zh", "埃菲尔铁塔高330米", "埃菲尔铁塔 高度", false},
		{"zh", "埃菲尔铁塔高330米", "Eiffel Tower height", true},
		{"ja", "エッフェル塔の高さは330メートルです", "エッフェル塔 高さ", false},
		{"ja", "エッフェル塔の高さは330メートルです", "Eiffel Tower height", true},
		{"ar", "يبلغ ارتفاع برج إيفل 330 مترا", "ارتفاع برج إيفل", false},
		{"hi", "एफिल टॉवर की ऊंचाई 330 मीटर है", "एफिल टॉवर की ऊंचाई", false},
		{"hi", "एफिल टॉवर की ऊंचाई 330 मीटर है", "Eiffel Tower height", true},
	} {
		s := newSearchLangs(tc.tag, tc.claim)
		if s == nil {
			t.Errorf("%s: no languages to cover", tc.tag)
			continue
		}
		if got := s.english(tc.query); got != tc.english {
			t.Errorf("%s: english(%q) = %v, want %v", tc.tag, tc.query, got, tc.english)
		}
	}
	for _, tag := range []string{"", "en", "en-GB", "xx-invalid-"} {
		if s := newSearchLangs(tag, "The Eiffel Tower is 330 m tall"); s != nil {
			t.Errorf("%q: languages to cover %+v, want none", tag, s)
		}
	}
}
