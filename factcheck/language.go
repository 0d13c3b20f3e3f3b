package factcheck

import (
	"sort"
	"strings"

	"golang.org/x/text/language"
)

//go:generate go run ./internal/langgen

// languageTag is the canonical BCP 47 tag of what the model named as the
// text's language ("es", "pt-BR"), or "" when it named none or nothing
// valid. An undetermined tag ("und") is no language.
func languageTag(s string) string {
	t, err := language.Parse(strings.TrimSpace(s))
	if err != nil || t == language.Und {
		return ""
	}
	return t.String()
}

// languageName is the English name of the language of a BCP 47 tag
// ("Spanish" for "es" and "es-MX"), and whether it is English; ok is false
// for an empty or invalid tag. The names are a generated table
// (langnames.go), not golang.org/x/text/language/display, which builds its
// tables at init in every command; a language it does not name is named by
// its tag.
func languageName(tag string) (name string, english, ok bool) {
	t, err := language.Parse(tag)
	if tag == "" || err != nil {
		return "", false, false
	}
	base, _ := t.Base()
	code := base.String()
	name = tag
	if i := sort.Search(len(languageNames), func(i int) bool { return languageNames[i].code >= code }); i < len(languageNames) && languageNames[i].code == code {
		name = languageNames[i].name
	}
	return name, code == "en", true
}

// languagePrompt tells the research loop the claim's language: its
// reasoning is written in it, and it searches in it and in English. Empty
// for an unknown language; for English, the searches stay in English.
func languagePrompt(tag string) string {
	name, english, ok := languageName(tag)
	switch {
	case !ok:
		return ""
	case english:
		return "\nThe claim is in English: write the reasoning in English."
	}
	return "\nThe claim is in " + name + " (" + tag + "): write the reasoning in " + name +
		", and search both in " + name + " and in English."
}

// planLanguagePrompt asks the plan of a claim not in English for a
// question in the claim's language and one in English: the searches the
// code adds are made with them (searchlang.go). Empty for English or an
// unknown language.
func planLanguagePrompt(tag string) string {
	name, english, ok := languageName(tag)
	if !ok || english {
		return ""
	}
	return "\nWrite at least one question in " + name + " and at least one in English."
}
