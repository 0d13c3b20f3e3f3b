package factcheck

import (
	"testing"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// The generated table of language names says what
// golang.org/x/text/language/display says of every code in it, and is
// sorted for its binary search (go generate ./factcheck/ rewrites it).
func TestLanguageNamesTable(t *testing.T) {
	if len(languageNames) < 500 {
		t.Fatalf("%d language names", len(languageNames))
	}
	for i, l := range languageNames {
		if i > 0 && languageNames[i-1].code >= l.code {
			t.Errorf("%q after %q: not sorted", l.code, languageNames[i-1].code)
		}
		if want := display.English.Languages().Name(language.MustParse(l.code)); l.name != want {
			t.Errorf("%s: %q in the table, %q from display", l.code, l.name, want)
		}
	}
}

func TestLanguageName(t *testing.T) {
	for _, tt := range []struct {
		tag, name   string
		english, ok bool
	}{
		{"es", "Spanish", false, true},
		{"es-MX", "Spanish", false, true},
		{"en-GB", "English", true, true},
		{"zh-Hant", "Chinese", false, true},
		{"fil", "Filipino", false, true},
		{"yue", "Cantonese", false, true},
		{"qaa", "qaa", false, true}, // private use: named by its tag
		{"", "", false, false},
		{"not a tag", "", false, false},
	} {
		name, english, ok := languageName(tt.tag)
		if name != tt.name || english != tt.english || ok != tt.ok {
			t.Errorf("languageName(%q) = %q, %v, %v; want %q, %v, %v", tt.tag, name, english, ok, tt.name, tt.english, tt.ok)
		}
	}
}
