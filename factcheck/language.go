package factcheck

import (
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

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

// languagePrompt tells the research loop the claim's language: its
// reasoning is written in it, and it searches in it and in English. Empty
// for an unknown language; for English, the searches stay in English.
func languagePrompt(tag string) string {
	t, err := language.Parse(tag)
	if tag == "" || err != nil {
		return ""
	}
	name := display.English.Languages().Name(t)
	if name == "" {
		name = tag
	}
	if base, _ := t.Base(); base.String() == "en" {
		return "\nThe claim is in English: write the reasoning in English."
	}
	return "\nThe claim is in " + name + " (" + tag + "): write the reasoning in " + name +
		", and search both in " + name + " and in English."
}
