package evidence

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/factbot-dev/factbot/internal/textrank"
	"golang.org/x/text/unicode/norm"
)

// Place says in which of the texts retrieved for a source a quote was
// found.
type Place string

// The places a quote can be found in, best first: a match in the text of
// the document itself outranks one in what a search engine said about it.
const (
	// OnPage is the readable text of a web page the run read.
	OnPage Place = "page"
	// InPDF is one page of a PDF the run read; Match.Page says
	// which (counting from 1).
	InPDF Place = "pdf"
	// InSnippet is the snippet a search engine returned for the URL.
	InSnippet Place = "snippet"
	// InTitle is the title of the page or of the search result.
	InTitle Place = "title"
	// InSummary is what a model wrote about the URL as a search
	// result (Gemini's grounding): never the source's words, so never a
	// found quote.
	InSummary Place = "summary"
)

// rank orders places from best (0) to worst; unknown places rank last.
func (p Place) rank() int {
	switch p {
	case OnPage:
		return 0
	case InPDF:
		return 1
	case InSnippet:
		return 2
	case InTitle:
		return 3
	case InSummary:
		return 4
	}
	return 5
}

// Match says whether and where a quote was found. The zero value means
// not found. Its fields are tagged to be embedded in Evidence beside
// quote_found.
type Match struct {
	Place Place `json:"quote_place,omitempty"`
	// Page is the PDF page the quote is on, counting from 1; 0 otherwise.
	Page int `json:"quote_page,omitempty"`
}

// Found reports whether the quote was found anywhere.
func (m Match) Found() bool { return m.Place != "" }

// InDocument reports whether the quote was found in the document itself
// (page text or a PDF page), not only in a search snippet or title.
func (m Match) InDocument() bool { return m.Place == OnPage || m.Place == InPDF }

// String says where the quote was found, for people: "page text",
// "PDF page 3", "search snippet", "title"; "" when it was not found.
func (m Match) String() string {
	switch m.Place {
	case "":
		return ""
	case OnPage:
		return "page text"
	case InPDF:
		if m.Page > 0 {
			return "PDF page " + strconv.Itoa(m.Page)
		}
		return "PDF"
	case InSnippet:
		return "search snippet"
	case InTitle:
		return "title"
	case InSummary:
		return "search summary"
	}
	return string(m.Place)
}

const (
	// quoteMinUnits is the least a quote, and each part of an elided
	// quote, must hold: four words, where a word of a spaced script counts
	// two units and a character of a script written without spaces (Han,
	// kana, Thai, …) one.
	quoteMinUnits = 8
	// quoteMaxParts caps how many parts an elided quote may have; with
	// more, its parts could be picked out of almost any long page.
	quoteMaxParts = 4
)

// containsParts reports whether the normalised parts occur in the
// normalised text in order without overlapping. Every normalised string
// begins and ends with a space and has one space between tokens, so a part
// found by strings.Index starts and ends at token boundaries. Taking each
// part's leftmost occurrence after the previous one is optimal: all
// occurrences of a part have the same length, so the leftmost one also ends
// first and leaves the most room for the parts after it.
func containsParts(text string, parts []string) bool {
	pos := 0
	for _, p := range parts {
		i := strings.Index(text[pos:], p)
		if i < 0 {
			return false
		}
		// The part's closing space is the next part's opening space.
		pos += i + len(p) - 1
	}
	return true
}

// ellipsisRE matches an ellipsis after NFKC, which turns "…" into "...":
// three or more dots, possibly with white space between them (". . ."), or a
// midline ellipsis.
var ellipsisRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\.(?:[\s\v\x{85}\p{Z}]*\.){2,}|⋯`)
})

// quoteParts splits quote at its ellipses and normalises each part. It
// returns nil when the quote cannot be verified: no words, a part shorter
// than quoteMinUnits, or more than quoteMaxParts parts. Empty parts, as
// from a leading or trailing ellipsis, are dropped.
func quoteParts(quote string) []string {
	var parts []string
	for _, p := range ellipsisRE().Split(norm.NFKC.String(quote), -1) {
		n := quoteNormalize(p)
		if n == " " {
			continue
		}
		if quoteUnits(n) < quoteMinUnits {
			return nil
		}
		parts = append(parts, n)
		if len(parts) > quoteMaxParts {
			return nil
		}
	}
	return parts
}

// quoteUnits measures a normalised text for quoteMinUnits: two units for
// each token of letters or digits, one for each character of an unspaced
// script, none for symbols.
func quoteUnits(n string) int {
	u := 0
	for _, t := range strings.Fields(n) {
		r, _ := utf8.DecodeRuneInString(t)
		switch {
		case unspacedScript(r):
			u++
		case unicode.IsLetter(r) || unicode.IsNumber(r) || ((r == '-' || r == '+') && len(t) > 1):
			// A longer token starting with a sign is a signed number.
			u += 2
		}
	}
	return u
}

// quoteNormalize turns text into the form quotes are matched in: tokens
// separated by single spaces, with a space before the first and after the
// last (" " for a text without tokens). After NFKC and lower-casing:
//   - a run of letters, digits and combining marks is one token;
//   - in a script written without spaces (Han, kana, Thai, Lao, Khmer,
//     Myanmar) each character with its marks is a token;
//   - "." or "," between two digits stays in the number ("3.5", "1,000");
//   - a dash of any kind or "+" directly before a digit, at the start of a
//     token, is the number's sign and is kept (as "-" or "+");
//   - %, ‰, ‱, currency signs, comparison signs, ±, ×, ÷ and "+" are tokens
//     of their own;
//   - everything else (white space, punctuation, quotes, apostrophes,
//     dashes, other symbols) only separates tokens.
func quoteNormalize(text string) string {
	s := norm.NFKC.String(text)
	b := make([]byte, 0, len(s)+2)
	const (
		none   = iota // after a separator
		word          // inside a letter/digit token: letters and digits continue it
		unspac        // after a character of an unspaced script: marks join it
	)
	state := none
	prevDigit := false // the last byte written ends a digit
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf && asciiWord(c) {
			// Fast path for the common case, same as the letter or digit
			// case below.
			if state != word {
				b = append(b, ' ')
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			state, prevDigit = word, '0' <= c && c <= '9'
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r < utf8.RuneSelf && !asciiSpecial(byte(r)):
			state, prevDigit = none, false
		case unicode.IsMark(r):
			if state != none {
				b = utf8.AppendRune(b, r)
				prevDigit = false
			}
		case unspacedScript(r):
			b = append(b, ' ')
			b = utf8.AppendRune(b, foldRune(r))
			state, prevDigit = unspac, false
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			if state != word {
				b = append(b, ' ')
			}
			b = utf8.AppendRune(b, foldRune(r))
			state, prevDigit = word, unicode.IsDigit(r)
		case (r == '.' || r == ',') && prevDigit && state == word && digitAt(s, i):
			b = append(b, byte(r))
			prevDigit = false
		case (isDash(r) || r == '+') && state != word && digitAt(s, i):
			b = append(b, ' ')
			if r == '+' {
				b = append(b, '+')
			} else {
				b = append(b, '-')
			}
			state, prevDigit = word, false
		case symbolToken(r):
			b = append(b, ' ')
			b = utf8.AppendRune(b, r)
			state, prevDigit = none, false
		default:
			state, prevDigit = none, false
		}
	}
	b = append(b, ' ')
	return string(b)
}

// asciiWord reports whether c is an ASCII letter or digit.
func asciiWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// asciiSpecial reports whether the ASCII character c, not a letter or
// digit, may be more than a separator: part of a number or a symbol token.
func asciiSpecial(c byte) bool {
	return strings.IndexByte(".,-+%<>=$", c) >= 0
}

// foldRune lower-cases r; a Greek final sigma folds to σ.
func foldRune(r rune) rune { return textrank.FoldRune(r) }

// digitAt reports whether s has a decimal digit at byte offset i.
func digitAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsDigit(r)
}

// isDash reports whether r is a hyphen, a dash or a minus sign.
func isDash(r rune) bool {
	return r == '-' || r == '−' || r == '﹣' || r == '－' || unicode.Is(unicode.Pd, r)
}

// symbolToken reports whether r is a symbol that changes what a number
// says and so is kept as a token.
func symbolToken(r rune) bool {
	switch r {
	case '%', '‰', '‱', '+', '<', '>', '=', '≤', '≥', '≠', '≈', '±', '×', '÷':
		return true
	}
	return unicode.Is(unicode.Sc, r)
}

// unspacedScript reports whether r belongs to a script written without
// spaces between words, where each character is matched as a token.
func unspacedScript(r rune) bool { return textrank.UnspacedScript(r) }
