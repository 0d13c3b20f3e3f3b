// Package words holds every word factbot says to people — the chat's
// reports, refusals and help, the web view's pages — in English and in
// the catalogs of the other languages (locales/*.json), and chooses the
// language of an answer (Lang). The chat core (bot), its adapters, the
// web view and the command line take their words from here.
package words

import (
	"embed"
	"fmt"
	"io/fs"
	"sync"
	"unicode"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// catalogs are the translations of words (words.go), one file per
// language, named by its BCP 47 tag.
//
//go:embed locales/*.json
var catalogs embed.FS

// The catalogs are read on first use, not when the program starts (every
// command would pay for them, `factbot help` included).
var (
	bundle  = sync.OnceValue(loadBundle)
	matcher = sync.OnceValue(func() language.Matcher { return language.NewMatcher(bundle().LanguageTags()) })
	english = sync.OnceValue(func() *i18n.Localizer { return i18n.NewLocalizer(bundle(), "en") })
	// English is the default Lang, the zero Lang's.
	English = Lang{}
)

func loadBundle() *i18n.Bundle {
	b := i18n.NewBundle(language.English)
	b.MustAddMessages(language.English, messages...)
	b.MustAddMessages(language.English, assistantWords...)
	b.MustAddMessages(language.English, webWords...)
	b.MustAddMessages(language.English, installWords...)
	files, err := fs.Glob(catalogs, "locales/*.json")
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		if _, err := b.LoadMessageFileFS(catalogs, f); err != nil {
			panic(fmt.Sprintf("words: catalog %s: %v", f, err))
		}
	}
	return b
}

// Lang is the language of the words of an answer: labels, headings,
// buttons and fixed messages. The zero Lang is English.
type Lang struct {
	tag language.Tag
	loc *i18n.Localizer
}

// LangFor is the first language of prefs (BCP 47 tags, most wanted first;
// empty and unknown ones skipped) that has a catalog, else English. A
// regional tag takes its language's catalog ("pt-BR": Portuguese).
func LangFor(prefs ...string) Lang {
	for _, p := range prefs {
		t, err := language.Parse(p)
		if p == "" || err != nil {
			continue
		}
		if _, i, c := matcher().Match(t); c >= language.High {
			tag := bundle().LanguageTags()[i]
			return Lang{tag: tag, loc: i18n.NewLocalizer(bundle(), tag.String())}
		}
	}
	return Lang{tag: language.English, loc: english()}
}

// ViewerLang is the language of a web page: the first of the browser's
// languages (an Accept-Language header) with a catalog, then the claims'
// language, then the language of text's script, then English.
func ViewerLang(accept, claims, text string) Lang {
	tags, _, _ := language.ParseAcceptLanguage(accept)
	prefs := make([]string, 0, len(tags)+2)
	for _, t := range tags {
		prefs = append(prefs, t.String())
	}
	return LangFor(append(prefs, claims, ScriptLanguage(text))...)
}

// Tag is the language's BCP 47 tag.
func (l Lang) Tag() language.Tag {
	if l.loc == nil {
		return language.English
	}
	return l.tag
}

func (l Lang) localizer() *i18n.Localizer {
	if l.loc == nil {
		return english()
	}
	return l.loc
}

// Text is message m in l, with data filled in. A message missing from a
// catalog is shown in English (TestCatalogsComplete keeps that from
// happening).
func (l Lang) Text(m *i18n.Message, data map[string]any) string {
	s, err := l.localizer().Localize(&i18n.LocalizeConfig{DefaultMessage: m, TemplateData: data})
	if err != nil && s == "" {
		s, _ = english().Localize(&i18n.LocalizeConfig{DefaultMessage: m, TemplateData: data})
	}
	return s
}

// Count is message m in l, in its plural form for n ({{.Count}}).
func (l Lang) Count(m *i18n.Message, n int, data map[string]any) string {
	d := map[string]any{"Count": n}
	for k, v := range data {
		d[k] = v
	}
	s, err := l.localizer().Localize(&i18n.LocalizeConfig{DefaultMessage: m, TemplateData: d, PluralCount: n})
	if err != nil && s == "" {
		s, _ = english().Localize(&i18n.LocalizeConfig{DefaultMessage: m, TemplateData: d, PluralCount: n})
	}
	return s
}

// ScriptLanguage names the language of text's script when the script
// tells it: kana is Japanese, Han without kana Chinese, Arabic letters
// Arabic, Devanagari Hindi. "" otherwise.
func ScriptLanguage(text string) string {
	var han, kana, arabic, deva, letters int
	for _, r := range text {
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			kana++
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.Is(unicode.Arabic, r):
			arabic++
		case unicode.Is(unicode.Devanagari, r):
			deva++
		case unicode.IsLetter(r):
			letters++
		}
	}
	switch {
	case kana > 0 && kana+han > letters:
		return "ja"
	case han > letters:
		return "zh"
	case arabic > letters:
		return "ar"
	case deva > letters:
		return "hi"
	}
	return ""
}

// Equal reports whether l and o are the same language (go-cmp uses it).
func (l Lang) Equal(o Lang) bool { return l.Tag() == o.Tag() }
