package factcheck

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

func sortedStrings(s []string) []string {
	sort.Strings(s)
	return s
}

// normalizeForMatch folds case, Unicode form, punctuation and white space so
// that a quote can be compared with retrieved text.
func normalizeForMatch(s string) string {
	s = norm.NFKC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			b.WriteRune(unicode.ToLower(r))
			space = false
		default: // punctuation, symbols and white space all separate words
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return strings.TrimSpace(b.String())
}

// quoteFound reports whether quote appears in any of texts after
// normalisation. Quotes shortened with an ellipsis match when every part does.
func quoteFound(quote string, texts []string) bool {
	parts := strings.FieldsFunc(quote, func(r rune) bool { return r == '…' })
	var ps []string
	for _, p := range parts {
		for _, q := range strings.Split(p, "...") {
			if n := normalizeForMatch(q); n != "" {
				ps = append(ps, n)
			}
		}
	}
	if len(ps) == 0 {
		return false
	}
	for _, t := range texts {
		nt := normalizeForMatch(t)
		all := true
		for _, p := range ps {
			if !strings.Contains(nt, p) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

var fenceRE = regexp.MustCompile("(?s)```(?:json|JSON)?\\s*(.*?)```")

// jsonFromText finds a JSON object in a model's text answer: the whole text,
// a fenced block, or the outermost braces inside prose.
func jsonFromText(text string, dst any) bool {
	text = strings.TrimSpace(text)
	if text == "" {
		return false
	}
	cands := []string{text}
	for _, m := range fenceRE.FindAllStringSubmatch(text, -1) {
		cands = append(cands, strings.TrimSpace(m[1]))
	}
	if i, j := strings.Index(text, "{"), strings.LastIndex(text, "}"); i >= 0 && j > i {
		cands = append(cands, text[i:j+1])
	}
	for _, c := range cands {
		if json.Valid([]byte(c)) && strings.HasPrefix(c, "{") {
			if err := json.Unmarshal([]byte(c), dst); err == nil {
				return true
			}
		}
	}
	return false
}

var urlRE = regexp.MustCompile(`https?://[^\s<>"'()\[\]{}|\\^` + "`" + `]+`)

// urlsIn returns the http(s) URLs written in text, without trailing
// punctuation.
func urlsIn(text string) []string {
	var out []string
	for _, u := range urlRE.FindAllString(text, -1) {
		out = append(out, strings.TrimRight(u, ".,;:!?'\""))
	}
	return out
}

// truncate cuts s to at most n bytes at a rune boundary, adding "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// keywords returns the distinct lower-case words of s of four letters or
// more, for ranking page passages by relevance to a claim.
func keywords(s string) map[string]bool {
	kw := map[string]bool{}
	for _, w := range strings.Fields(normalizeForMatch(s)) {
		if len([]rune(w)) >= 4 || isDigits(w) {
			kw[w] = true
		}
	}
	return kw
}

func isDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// relevantExcerpt returns at most max bytes of text: all of it if it fits,
// otherwise the paragraphs that share most words with the claim, kept in
// their original order and joined by " … ".
func relevantExcerpt(text, claim string, max int) (string, bool) {
	if len(text) <= max {
		return text, false
	}
	paras := strings.FieldsFunc(text, func(r rune) bool { return r == '\n' })
	kw := keywords(claim)
	type scored struct {
		i     int
		score int
	}
	ss := make([]scored, 0, len(paras))
	for i, p := range paras {
		p = strings.TrimSpace(p)
		paras[i] = p
		if p == "" {
			continue
		}
		sc := 0
		for w := range keywords(p) {
			if kw[w] {
				sc++
			}
		}
		// The opening usually states what the page is about.
		if i == 0 {
			sc++
		}
		ss = append(ss, scored{i, sc})
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].score > ss[b].score })
	keep := map[int]bool{}
	used := 0
	for _, s := range ss {
		l := len(paras[s.i]) + 3
		if used+l > max {
			if used == 0 { // one huge paragraph: cut it
				paras[s.i] = truncate(paras[s.i], max-3)
				keep[s.i] = true
			}
			continue
		}
		keep[s.i] = true
		used += l
	}
	var b strings.Builder
	last := -1
	for i, p := range paras {
		if !keep[i] {
			continue
		}
		if b.Len() > 0 {
			if i == last+1 {
				b.WriteString("\n")
			} else {
				b.WriteString("\n…\n")
			}
		}
		b.WriteString(p)
		last = i
	}
	return b.String(), true
}
