package factcheck

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// QuotePlace says in which of the texts retrieved for a source a quote was
// found.
type QuotePlace string

// The places a quote can be found in, best first: a match in the text of
// the document itself outranks one in what a search engine said about it.
const (
	// QuoteOnPage is the readable text of a web page the run read.
	QuoteOnPage QuotePlace = "page"
	// QuoteInPDF is one page of a PDF the run read; QuoteMatch.Page says
	// which (counting from 1).
	QuoteInPDF QuotePlace = "pdf"
	// QuoteInSnippet is the snippet a search engine returned for the URL.
	QuoteInSnippet QuotePlace = "snippet"
	// QuoteInTitle is the title of the page or of the search result.
	QuoteInTitle QuotePlace = "title"
	// QuoteInSummary is what a model wrote about the URL as a search
	// result (Gemini's grounding): never the source's words, so never a
	// found quote.
	QuoteInSummary QuotePlace = "summary"
)

// rank orders places from best (0) to worst; unknown places rank last.
func (p QuotePlace) rank() int {
	switch p {
	case QuoteOnPage:
		return 0
	case QuoteInPDF:
		return 1
	case QuoteInSnippet:
		return 2
	case QuoteInTitle:
		return 3
	case QuoteInSummary:
		return 4
	}
	return 5
}

// QuoteMatch says whether and where a quote was found. The zero value means
// not found. Its fields are tagged to be embedded in Evidence beside
// quote_found.
type QuoteMatch struct {
	Place QuotePlace `json:"quote_place,omitempty"`
	// Page is the PDF page the quote is on, counting from 1; 0 otherwise.
	Page int `json:"quote_page,omitempty"`
}

// Found reports whether the quote was found anywhere.
func (m QuoteMatch) Found() bool { return m.Place != "" }

// InDocument reports whether the quote was found in the document itself
// (page text or a PDF page), not only in a search snippet or title.
func (m QuoteMatch) InDocument() bool { return m.Place == QuoteOnPage || m.Place == QuoteInPDF }

// String says where the quote was found, for people: "page text",
// "PDF page 3", "search snippet", "title"; "" when it was not found.
func (m QuoteMatch) String() string {
	switch m.Place {
	case "":
		return ""
	case QuoteOnPage:
		return "page text"
	case QuoteInPDF:
		if m.Page > 0 {
			return "PDF page " + strconv.Itoa(m.Page)
		}
		return "PDF"
	case QuoteInSnippet:
		return "search snippet"
	case QuoteInTitle:
		return "title"
	case QuoteInSummary:
		return "search summary"
	}
	return string(m.Place)
}

// quoteSource is one text the run retrieved for a URL, normalised once for
// quote matching.
type quoteSource struct {
	place QuotePlace
	page  int
	norm  string // quoteNormalize of the text
}

// newQuoteSource prepares text, retrieved for a URL and shown to the model
// as place (page is the PDF page number, 0 for other places), for
// matchQuote. It costs one pass over text; do it once per retrieved text.
func newQuoteSource(place QuotePlace, page int, text string) quoteSource {
	return quoteSource{place: place, page: page, norm: quoteNormalize(text)}
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

// matchQuote reports where quote appears in the retrieved texts of one URL.
//
// Both sides are normalised by quoteNormalize, so case, Unicode form, white
// space, punctuation and typographic quotes or dashes do not matter, while
// numbers (digits, decimal marks, signs) and symbols like % stay as written.
// A quote must match whole words at both ends. A quote elided with "…" or
// "..." is split into parts that must all be found in one text, in order,
// without overlapping. The quote and each part must hold at least four words,
// and there may be at most four parts; other quotes cannot be verified and
// are not found. When several texts match, the best place wins (page, PDF,
// snippet, title); among equals, the first in sources.
func matchQuote(quote string, sources []quoteSource) QuoteMatch {
	parts := quoteParts(quote)
	if parts == nil {
		return QuoteMatch{}
	}
	best := -1
	for i := range sources {
		s := &sources[i]
		if best >= 0 && s.place.rank() >= sources[best].place.rank() {
			continue
		}
		if containsParts(s.norm, parts) {
			best = i
		}
	}
	if best < 0 {
		return QuoteMatch{}
	}
	m := QuoteMatch{Place: sources[best].place}
	if m.Place == QuoteInPDF {
		m.Page = sources[best].page
	}
	return m
}

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
func foldRune(r rune) rune {
	r = unicode.ToLower(r)
	if r == 'ς' {
		return 'σ'
	}
	return r
}

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
func unspacedScript(r rune) bool {
	if r < 0x0E00 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}
