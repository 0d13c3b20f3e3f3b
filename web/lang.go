package web

import (
	"net/http"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// pageLang is the language of a page's words: the first of the browser's
// languages (Accept-Language) with a catalog, then the check's claims'
// language (c may be nil: a page of no one check), then English.
func pageLang(r *http.Request, c *store.Check) words.Lang {
	var claims, text string
	if c != nil {
		text = c.Text
		if c.Report != nil {
			claims = c.Report.Language
			if text == "" {
				text = c.Report.Input
			}
		}
	}
	return words.ViewerLang(r.Header.Get("Accept-Language"), claims, text)
}

// T is the page's word id in its language (words.Lang.Word).
func (p *pageBase) T(id string, kv ...any) (string, error) { return p.Lang.Word(id, kv...) }

// HTMLLang is the page's <html lang>.
func (p *pageBase) HTMLLang() string { return p.Lang.Tag().String() }

// Dir is the page's <html dir>: rtl for Arabic.
func (p *pageBase) Dir() string { return p.Lang.Dir() }

// badge is a verdict as a badge shows it.
type badge struct {
	Label       factcheck.Label
	Emoji, Text string
}

// Badge is verdict l's badge in the page's language.
func (p *pageBase) Badge(l factcheck.Label) badge {
	return badge{Label: l, Emoji: bot.Emoji(l), Text: p.Lang.Label(l)}
}

// Confidence is c in the page's language ("high confidence").
func (p *pageBase) Confidence(c factcheck.Confidence) string { return p.Lang.Confidence(c) }

// stance is e's stance in l (supports, refutes, context).
func stance(l words.Lang, e factcheck.Evidence) string {
	return l.Stance(e.StanceOf())
}

// quoteHow says where a piece of evidence's quote was matched (page text,
// PDF page N, snippet, title) or that it was not, in chat's words in l.
func quoteHow(l words.Lang, e factcheck.Evidence) string {
	return l.QuoteNote(e.QuoteOrSummary, e.QuoteFound, e.QuoteMatch)
}

// FromPicture marks a claim read from picture n, in the page's language.
func (p *pageBase) FromPicture(n int) string { return p.Lang.FromPicture(n) }

// NotCheckableHeading heads the sentences not checked.
func (p *pageBase) NotCheckableHeading() string { return p.Lang.NotCheckableHeading() }

// stanceKey is a stance in the map's legend: its class and its name.
type stanceKey struct{ Class, Text string }

// Stances are the map legend's stances, in the page's language.
func (p *pageBase) Stances() []stanceKey {
	var keys []stanceKey
	for _, s := range []factcheck.Stance{factcheck.StanceSupports, factcheck.StanceRefutes, factcheck.StanceContext} {
		keys = append(keys, stanceKey{Class: string(s), Text: p.Lang.Stance(s)})
	}
	return keys
}

// Aria describes the map to a screen reader, in its language.
func (m *evidenceMap) Aria() string {
	if m.Class == "stacked" {
		return m.lang.MustWord("WebMapStacked")
	}
	return m.lang.MustWord("WebMapWide")
}
