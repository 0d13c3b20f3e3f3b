package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Normalize returns the cache key form of a claim or input: Unicode NFKC,
// case-folded, punctuation replaced by spaces, white space collapsed.
// Punctuation that changes a number's meaning is kept: a decimal or
// thousands separator between digits ("3.5", "1,000"), a minus sign before a
// digit ("-5") and the percent sign.
func Normalize(s string) string {
	s = cases.Fold().String(norm.NFKC.String(s))
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	space := false
	emit := func(r rune) {
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	for i, r := range rs {
		switch {
		case unicode.IsSpace(r):
			space = true
		case unicode.IsPunct(r):
			prevDigit := i > 0 && unicode.IsDigit(rs[i-1])
			nextDigit := i+1 < len(rs) && unicode.IsDigit(rs[i+1])
			prevAlnum := i > 0 && (unicode.IsLetter(rs[i-1]) || unicode.IsDigit(rs[i-1]))
			switch {
			case r == '%':
				emit(r)
			case (r == '.' || r == ',' || r == ':' || r == '/') && prevDigit && nextDigit:
				emit(r)
			case (r == '-' || r == '‐' || r == '‑' || r == '–') && nextDigit && !prevAlnum:
				emit('-')
			default:
				space = true
			}
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			// Zero-width and control characters vanish.
		default:
			emit(r)
		}
	}
	return b.String()
}

// maxKey bounds cache keys; longer normalised texts are keyed by a hash.
const maxKey = 512

// cacheKey returns the bucket key of text in the verdict and extraction
// caches: its Normalize form, or a hash of it when it is long.
func cacheKey(text string) []byte {
	normalised := Normalize(text)
	if len(normalised) <= maxKey {
		return []byte(normalised)
	}
	sum := sha256.Sum256([]byte(normalised))
	return []byte("sha256:" + hex.EncodeToString(sum[:]))
}
