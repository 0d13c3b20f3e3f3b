package search

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxBoilerplateLine is the longest line, in characters, that
// dropBoilerplateLines may drop: page furniture is a label or one short
// sentence, and a longer line is taken as the article's own text.
const maxBoilerplateLine = 160

// boilerplateLine matches a whole line of page furniture that the
// library's content often carries along with the article: a label that
// introduces further reading ("Read more:", "Lesen Sie auch", "Vea
// también: …") or links and contacts ("Weitere Informationen zum …:"), a
// comment count or a prompt to comment, a prompt to share, follow or
// click, a copyright, disclaimer or advertisement line, and a label of the
// page's metadata ("Last modified:", "Kategorie: News"). The patterns are
// about what such lines say, in the languages the reader meets most,
// never about a site.
var boilerplateLine = sync.OnceValue(func() *regexp.Regexp {
	further := `read (more|also|next)|also read|see also|more (from|on this|stories|news|to read)|you (may|might) (also )?(like|enjoy|be interested)|recommended( for you| reading)?|popular on|most (read|popular|viewed)|continue reading` +
		`|lesen sie (auch|mehr|hier)|auch interessant|das könnte sie (auch )?interessieren|zum weiterlesen|weiterlesen|mehr (zum thema|dazu|zu diesem thema|artikel|beiträge|kolumnen|news|nachrichten)|weitere (\pL+ )?(artikel|beiträge|themen|nachrichten|news|meldungen|tipps|tourentipps|kolumnen|links)` +
		`|vea también|ver también|lea también|lee también|te puede interesar|le puede interesar|noticias relacionadas|más noticias|lire aussi|à lire aussi|voir aussi|sur le même sujet|leia também|veja também|leia mais|leggi anche|potrebbe interessarti`
	info := `(more|further) information|weitere informationen|mehr informationen|ansprechpartner(in)?|más información|plus d'informations`
	comments := `\d+ (comments?|kommentare?|antworten|replies|responses|comentarios?|commentaires?)|(no|keine|sin|aucun) (comments|kommentare|comentarios|commentaires?)` +
		`|(view|show|hide|load|leave|post|add|write|read) (a |all )?(comments?|replies|reply)|share your thoughts|(join|start) the (conversation|discussion)|neueste kommentare|kommentar (schreiben|verfassen|hinterlassen)`
	social := `share (this|on|via)|teilen (auf|mit|per)|follow (us|me|\S+) on (twitter|facebook|instagram|linkedin)|folgen sie uns|hier geht('s| es) zu(r|m)?`
	meta := `(last )?(modified|updated)|release date|published( on)?|veröffentlicht( am)?|veröffentlichung|stand|kategorien?|categor(y|ies)|tags?|filed under|schlagworte|crédits? photos?|photo credits?|bildquelle|fotos?|quelle`
	return regexp.MustCompile(`(?i)^(` +
		// a further-reading label, alone, with a few words more, or before
		// the title it links to; "related" only alone or before a title
		`[\[(]?((` + further + `)\b[^.!?:]{0,40}|related( \pL+)?)\s*([:：…]|\.\.\.|$).*` +
		// a label that introduces links or contacts
		`|(` + info + `)\b[^.!?:]{0,40}:` +
		// comments
		`|(` + comments + `)\b.*|.*\b(in den kommentaren|um kommentare zu schreiben)\b.*` +
		// sharing, following, calls to click
		`|(` + social + `)\b.*|.*\b(click(ing)? here|hier klicken|klicken sie hier|haga clic aquí|cliquez ici)\b.*` +
		// copyright, disclaimer and advertisement labels
		`|(copyright\s*(:|©|\(c\)|\d{4})|©|\(c\) \d{4}).*|.*\b(all rights reserved|alle rechte vorbehalten|alle angaben ohne gewähr)\b.*|(advertisement|anzeige|werbung|publicidad|publicité)` +
		// a label of the page's metadata, alone or with a short value
		`|(` + meta + `)\s*:.{0,40}|(` + meta + `)` +
		`)$`)
})

// subscribeVerb and subscribeHint match together a call to subscribe or
// sign up ("Get our Daily Edition by email … Free Sign Up"); a line that
// points to the reader's inbox is one on its own.
var (
	subscribeVerb = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(sign up|signing up|subscribe|abonnieren|suscríbete|inscrivez-vous)\b`)
	})
	subscribeHint = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(newsletters?|today|now|here|for free|free sign up|sign up (for )?free|by e-?mail)\b`)
	})
	inboxLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(your|ihr(en)?) (e-?mail )?inbox\b`)
	})
)

// dateLine matches a line that is only a date or a time ("23.10.2018",
// "January 13", "Stand: 19:49 Uhr" without its label): the page's
// metadata, not its text. datePart says that it is one: a month or day
// named with a number, a numeric date or a time; a line of numbers alone
// (a table's row, a list's numbers) is not one.
var (
	dateLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^([\d./:,\-–]+|` + dateWord + `)(\s*([\d./:,\-–]+|` + dateWord + `))*$`)
	})
	datePart = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\d\.?\s*(` + dateName + `)|(` + dateName + `)\.?\s*\d|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}\b`)
	})
)

// dateName is a month or a day of the week, in the languages the reader
// meets most; dateWord is one of them or a word that joins a date and a
// time.
const (
	dateName = `jan(uary|uar)?|feb(ruary|ruar)?|mar(ch)?|märz|apr(il)?|may|mai|jun[ei]?|jul[iy]?|aug(ust)?|sep(t|tember)?|oct(ober)?|okt(ober)?|nov(ember)?|dec(ember)?|dez(ember)?` +
		`|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre` +
		`|mon(day)?|tue(sday)?|wed(nesday)?|thu(rsday)?|fri(day)?|sat(urday)?|sun(day)?|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lunes|martes|miércoles|jueves|viernes|sábado|domingo|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche`
	dateWord = `(` + dateName + `|am|um|uhr|at|on|de|del|le|h)\.?`
)

// dropBoilerplateLines removes from laid-out text (nodeText) the lines of
// at most maxBoilerplateLine characters that are page furniture
// (boilerplateLine), a call to subscribe (subscribeVerb, inboxLine) or
// only a date (dateLine). Paragraphs stay separated by a blank line.
func dropBoilerplateLines(text string) string { return dropBoilerplate(text, true) }

// dropBoilerplate is dropBoilerplateLines, which drops the lines that are
// only a date when dates is set: on a short page read whole (readAgain) a
// date on a line of its own is the page's text (an event's date in a
// table or a definition list), and it is kept.
func dropBoilerplate(text string, dates bool) string {
	lines := strings.Split(text, "\n")
	kept := lines[:0]
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t != "" && utf8.RuneCountInString(t) <= maxBoilerplateLine && isBoilerplateLine(t, dates) {
			continue
		}
		kept = append(kept, l)
	}
	return tidyText(strings.Join(kept, "\n"))
}

func isBoilerplateLine(line string, dates bool) bool {
	if dates && dateLine().MatchString(line) && datePart().MatchString(line) {
		return true
	}
	if inboxLine().MatchString(line) || subscribeVerb().MatchString(line) && subscribeHint().MatchString(line) {
		return true
	}
	return boilerplateLine().MatchString(line)
}
