package evidence

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/factbot-dev/factbot/internal/textrank"
)

// Passages: every text a tool returns (a page, a PDF page, a search
// snippet) is split into sentences by Unicode segmentation (UAX #29), and
// each sentence gets an ID stable in the run, "p2.14": source 2 (in the
// order the run first saw it), sentence 14 of what the run saw for it. The
// tools show the model ID-tagged sentences; submit_verdict cites IDs, and
// the quote shown to people is the cited sentences, verbatim.

// maxSentenceBytes bounds one sentence (textrank.MaxSentenceBytes).
const maxSentenceBytes = textrank.MaxSentenceBytes

// splitSentences splits text into its sentences, the module's one way
// (textrank.Sentences).
func splitSentences(text string) []string { return textrank.Sentences(text) }

// Sentence is one sentence of a text a tool returned for a source.
type Sentence struct {
	Text  string
	Place Place
	Page  int    // the PDF page, 0 otherwise
	Norm  string // quoteNormalize(text)
}

// Passages are the sentences a run saw for one source, numbered from 1 in
// the order first seen; a text seen again keeps its first numbers.
type Passages struct {
	Sents  []Sentence
	seen   map[string][2]int // place, page and text → first and end index
	Groups [][2]int          // the ranges of sentences of each text, in order
}

// Add splits text, seen for the source as place (page for a PDF page),
// into sentences and returns the indices of its sentences in ps.Sents.
func (ps *Passages) Add(place Place, page int, text string) (first, end int) {
	key := fmt.Sprintf("%s\x00%d\x00%s", place, page, text)
	if r, ok := ps.seen[key]; ok {
		return r[0], r[1]
	}
	if ps.seen == nil {
		ps.seen = map[string][2]int{}
	}
	first = len(ps.Sents)
	for _, s := range splitSentences(text) {
		ps.Sents = append(ps.Sents, Sentence{Text: s, Place: place, Page: page, Norm: quoteNormalize(s)})
	}
	ps.seen[key] = [2]int{first, len(ps.Sents)}
	if len(ps.Sents) > first {
		ps.Groups = append(ps.Groups, [2]int{first, len(ps.Sents)})
	}
	return first, len(ps.Sents)
}

// ID is the ID of sentence i (from 0) of source n (from 1).
func ID(n, i int) string { return "p" + strconv.Itoa(n) + "." + strconv.Itoa(i+1) }

// MaxCitedRun bounds how many consecutive sentences one piece of evidence
// may cite.
const MaxCitedRun = 4

// Ref is a parsed citation: source n (from 1), sentences first to
// last (from 0, inclusive).
type Ref struct{ Source, First, Last int }

// ParseRef reads a citation: "p2.14", a run "p2.14-p2.16" or
// "p2.14-16" (any dash, or "to"), or a list of consecutive IDs
// "p2.14, p2.15". Brackets and spaces are ignored. It returns an error
// saying what is wrong, for the model.
func ParseRef(s string) (Ref, error) {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r == '[' || r == ']' || unicode.IsSpace(r):
			return -1
		case isDash(r) || r == '~':
			return '-'
		}
		return unicode.ToLower(r)
	}, s)
	clean = strings.ReplaceAll(clean, "to", "-")
	if clean == "" {
		return Ref{}, fmt.Errorf("no passage ID")
	}
	var ids []string
	if strings.Contains(clean, ",") {
		ids = strings.Split(clean, ",")
	} else {
		ids = strings.SplitN(clean, "-", 2)
	}
	n, first, err := parseID(ids[0], 0)
	if err != nil {
		return Ref{}, fmt.Errorf("passage %q: %w", s, err)
	}
	ref := Ref{Source: n, First: first, Last: first}
	for _, id := range ids[1:] {
		m, i, err := parseID(id, n)
		switch {
		case err != nil:
			return Ref{}, fmt.Errorf("passage %q: %w", s, err)
		case m != n:
			return Ref{}, fmt.Errorf("passage %q joins two sources; cite each on its own", s)
		case i != ref.Last+1 && len(ids) > 2, i <= ref.Last:
			return Ref{}, fmt.Errorf("passage %q: sentences must be consecutive and in order", s)
		}
		ref.Last = i
	}
	if ref.Last-ref.First+1 > MaxCitedRun {
		return Ref{}, fmt.Errorf("passage %q cites more than %d sentences; cite the ones that matter", s, MaxCitedRun)
	}
	return ref, nil
}

// parseID reads "p2.14" (or, after a dash in a run of source n, "14") as
// source 2, sentence index 13.
func parseID(id string, n int) (src, i int, err error) {
	bad := fmt.Errorf("%q is not a passage ID like p2.14", id)
	id = strings.TrimPrefix(id, "p")
	a, b, ok := strings.Cut(id, ".")
	if !ok {
		if n == 0 {
			return 0, 0, bad
		}
		a, b = strconv.Itoa(n), id
	}
	src, err1 := strconv.Atoi(a)
	k, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || src < 1 || k < 1 {
		return 0, 0, bad
	}
	return src, k - 1, nil
}

// Tagged renders sentences first to end of source n for the model, each
// after its ID: "[p2.1] First. [p2.2] Second."
func (ps *Passages) Tagged(n int, idx []int) string {
	var b strings.Builder
	last := -2
	for _, i := range idx {
		if b.Len() > 0 {
			if i != last+1 {
				b.WriteString(" … ")
			} else {
				b.WriteByte(' ')
			}
		}
		fmt.Fprintf(&b, "[%s] %s", ID(n, i), ps.Sents[i].Text)
		last = i
	}
	return b.String()
}
