// Package guard decides whether two claims may be the same claim in what
// embeddings blur: "carries 400 cars a day" and "carries 4,000 cars a day"
// are almost the same vector, and so are "X is in Y" and "X is not in Y".
// An earlier check answers a new claim only when its claim and the new one
// are close as vectors and Agree here: their numbers (with magnitude and
// unit), dates, negation and named entities agree, read in English,
// Spanish, Portuguese, French, German and Italian (in other languages,
// the numbers, ISO dates and names in Latin capitals). It is pure and
// deterministic; when in doubt it refuses, which costs a full check, never
// a wrong answer.
package guard

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/RadhiFadlillah/whatlanggo"
	"golang.org/x/text/unicode/norm"
)

// Reason names what two claims disagree on.
type Reason string

// Reasons.
const (
	Numbers  Reason = "numbers"  // a quantity, its magnitude or its unit
	Dates    Reason = "dates"    // a year or a month
	Negation Reason = "negation" // one claim denies what the other says
	Entities Reason = "entities" // a name on each side that the other lacks
)

// Agree reports whether claims a and b agree in numbers, dates, negation
// and named entities; when they do not, why names the first disagreement
// found, in that order.
func Agree(a, b string) (ok bool, why Reason) {
	fa, fb := read(a), read(b)
	switch {
	case !slices.Equal(fa.years, fb.years) || !slices.Equal(fa.months, fb.months):
		return false, Dates
	case !slices.Equal(fa.quantities, fb.quantities):
		return false, Numbers
	case fa.negated != fb.negated:
		return false, Negation
	case unaccounted(fa, fb) && unaccounted(fb, fa):
		return false, Entities
	}
	return true, ""
}

// features are what Agree compares of one claim.
type features struct {
	quantities []string // "4e+09 " or "40 %", sorted
	years      []int    // numbers read as years (1000–2100, no unit), sorted
	months     []int    // 1–12, sorted
	negated    bool
	entities   []string // folded names
	words      map[string]bool
}

// isoDate is a date written 2020-03-05: a year, a month and a day.
var isoDate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(\d{4})-(\d{1,2})-(\d{1,2})\b`)
})

// number is a number as written: digits with thousands separators or a
// decimal part, then an ordinal ending, a percent sign, a unit or a
// magnitude word (read from the words after it).
var number = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(\d{1,3}(?:[,.\x{a0}\x{202f} ]\d{3})+|\d+)(?:[.,](\d+))?(?:st|nd|rd|th|º|ª)?\s*(%)?`)
})

func read(s string) features {
	s = strings.NewReplacer("’", "'", "‘", "'").Replace(s)
	f := features{words: map[string]bool{}}
	s = isoDate().ReplaceAllStringFunc(s, func(m string) string {
		p := isoDate().FindStringSubmatch(m)
		mo, _ := strconv.Atoi(p[2])
		if mo >= 1 && mo <= 12 {
			f.months = append(f.months, mo)
		}
		return p[1] + " " + p[3]
	})
	for _, loc := range number().FindAllStringSubmatchIndex(s, -1) {
		f.addNumber(s, loc)
	}
	lang := whatlanggo.DetectLang(s)
	toks := tokens(s)
	for i, t := range toks {
		low := fold(t)
		if low == "no" && i+1 < len(toks) && isName(toks[i+1]) {
			low = "no " // Portuguese "no Brasil": "in the"
		}
		f.words[low] = true
		if m, ok := monthNames()[low]; ok && (isName(t) || !verbMonth(low)) {
			f.months = append(f.months, m)
		}
		if negators()[low] || notFor(lang, low) || strings.HasSuffix(low, "n't") || strings.HasPrefix(low, "n'") {
			f.negated = true
		}
		if isAcronym(t) || isName(t) && !stopWords()[low] && monthNames()[low] == 0 {
			f.entities = append(f.entities, strings.TrimSuffix(low, "'s"))
		}
	}
	slices.Sort(f.quantities)
	slices.Sort(f.years)
	slices.Sort(f.months)
	return f
}

// addNumber reads the number at loc (a submatch index of number) in s,
// with the magnitude words and unit after it.
func (f *features) addNumber(s string, loc []int) {
	whole := s[loc[2]:loc[3]]
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, whole)
	if loc[4] >= 0 {
		digits += "." + s[loc[4]:loc[5]]
	}
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil {
		return
	}
	unit := ""
	if loc[6] >= 0 {
		unit = "%"
	}
	rest := tokens(s[loc[1]:])
	i := 0
	for ; i < len(rest) && i < 3; i++ {
		m, ok := magnitudes()[fold(rest[i])]
		if !ok {
			break
		}
		v *= m
	}
	if i > 0 && i < len(rest)-1 && connector(fold(rest[i])) {
		i++ // "4.000 millones de dólares"
	}
	if unit == "" && i < len(rest) {
		unit = unitOf(rest[i:])
	}
	if unit == "" && loc[0] > 0 {
		unit = currencyBefore(s[:loc[0]])
	}
	if unit == "" && v >= 1000 && v <= 2100 && v == float64(int(v)) && !strings.ContainsAny(whole, ",. ") {
		f.years = append(f.years, int(v))
		return
	}
	f.quantities = append(f.quantities, strconv.FormatFloat(v, 'g', -1, 64)+" "+unit)
}

// notFor reports whether w, a word of several languages, denies in
// lang (see negators).
func notFor(lang whatlanggo.Lang, w string) bool {
	switch w {
	case "no":
		return lang != whatlanggo.Por
	case "ne":
		return lang != whatlanggo.Ita
	case "mai":
		return lang == whatlanggo.Ita
	}
	return false
}

// connector reports whether w joins a magnitude to its unit: "millions
// of dollars".
func connector(w string) bool { return w == "of" || w == "de" || w == "d'" || w == "di" }

// unitOf returns the unit named by the words after a number, "" for
// none known.
func unitOf(words []string) string {
	w := fold(words[0])
	if len(words) > 1 {
		if u, ok := units()[w+" "+fold(words[1])]; ok {
			return u
		}
	}
	return units()[w]
}

// currencyBefore returns the currency whose sign is just before a number.
func currencyBefore(s string) string {
	s = strings.TrimRight(s, " \u00a0")
	for sign, u := range map[string]string{"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy", "₹": "inr"} {
		if strings.HasSuffix(s, sign) {
			return u
		}
	}
	return ""
}

// unaccounted reports whether a names an entity that b does not: a name
// of a that is no word of b, nor a spelling of one (alike).
func unaccounted(a, b features) bool {
	for _, e := range a.entities {
		if b.words[e] {
			continue
		}
		if !slices.ContainsFunc(slices.Collect(maps.Keys(b.words)), func(w string) bool { return alike(e, w) }) {
			return true
		}
	}
	return false
}

// alike reports whether two folded words of five letters or more may be
// one name spelled in two languages: one letter apart ("Brazil",
// "Brasil"), or one the other with at most three more letters at its end
// ("Amazon", "Amazonas"). "Austria" and "Australia" are not.
func alike(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < 5 || len(rb) < 5 {
		return a == b
	}
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	if len(rb)-len(ra) <= 3 && string(rb[:len(ra)]) == string(ra) {
		return true
	}
	return oneEdit(ra, rb)
}

// oneEdit reports whether b is a with at most one letter changed, added or
// left out (len(a) <= len(b)).
func oneEdit(a, b []rune) bool {
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return string(a[i+min(1, len(a)-i):]) == string(b[i+min(1, len(b)-i):])
	}
	return string(a[i:]) == string(b[i+1:])
}

// tokens splits s into words: letters and digits, with the apostrophes
// and hyphens inside a word.
func tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-' && !unicode.Is(unicode.Mn, r)
	})
}

// isName reports whether a word is written as a name: a capital first
// letter, or two capitals or more (an acronym).
func isName(t string) bool {
	for _, r := range t {
		return unicode.IsUpper(r)
	}
	return false
}

// isAcronym reports whether a word is two capitals or more ("WHO").
func isAcronym(t string) bool {
	n := 0
	for _, r := range t {
		if !unicode.IsUpper(r) {
			return false
		}
		n++
	}
	return n >= 2
}

// fold lowercases w and strips its accents: "París" → "paris".
func fold(w string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(w)) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return strings.Trim(b.String(), "'-")
}
