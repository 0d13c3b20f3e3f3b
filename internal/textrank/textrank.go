// Package textrank is the one sentence splitter and the one ranker of the
// module: package factcheck's evidence (page excerpts, the compact
// transcript, citations) and package search (the knowledge store, the
// team corpus) split and rank text with it, so a page, a stored document
// and a corpus file are cut and scored the same way.
//
// Sentences are Unicode sentences (UAX #29), a run without a break cut at
// a word break. Tokens are Unicode-aware: words by UAX #29 word
// segmentation in scripts written with spaces, overlapping character
// bigrams in scripts written without (Han, kana, Thai, Lao, Khmer,
// Myanmar), so that a question in Chinese finds its answer in a Chinese
// text as one in English does. Texts are scored against queries by Okapi
// BM25.
package textrank

import (
	"encoding/binary"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"golang.org/x/text/unicode/norm"
)

// MaxSentenceBytes bounds one sentence: a longer run without a sentence
// break (a list, a script that marks no full stops) is cut at the last
// word break before it.
const MaxSentenceBytes = 400

// Sentences splits text into its sentences by UAX #29, each trimmed
// of surrounding white space; empty ones are dropped. A sentence longer
// than MaxSentenceBytes is cut at a word break.
func Sentences(text string) []string {
	var out []string
	state := -1
	for text != "" {
		var s string
		s, text, state = uniseg.FirstSentenceInString(text, state)
		for _, part := range cutLong(strings.TrimSpace(s)) {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// cutLong cuts s into pieces of at most MaxSentenceBytes, at the last word
// break (UAX #29) before the bound, or at a rune boundary when a single
// word is longer.
func cutLong(s string) []string {
	if len(s) <= MaxSentenceBytes {
		return []string{s}
	}
	var out []string
	for len(s) > MaxSentenceBytes {
		cut, state, rest := 0, -1, s
		for rest != "" {
			var w string
			w, rest, state = uniseg.FirstWordInString(rest, state)
			if cut+len(w) > MaxSentenceBytes {
				break
			}
			cut += len(w)
		}
		if cut == 0 { // one word longer than the bound
			cut = MaxSentenceBytes
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

// BM25's usual constants.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Tokens returns the tokens of s for ranking: lower-cased NFKC words
// of letters or digits (English stop words and one-letter words left
// out), and character bigrams (a lone character as itself) in unspaced
// scripts.
func Tokens(s string) []string { return textTokens(s, true) }

// Words returns every word of s, lower-cased and NFKC, and the character
// bigrams of unspaced scripts, as Tokens does but with no word left out
// (for cue words such as "not" or "न").
func Words(s string) []string { return textTokens(s, false) }

// textTokens returns the tokens of s: Tokens when ranking is set,
// else every word kept (for cue words such as "not" or "न").
func textTokens(s string, ranking bool) []string {
	s = norm.NFKC.String(s)
	var out []string
	var run []rune // the pending run of an unspaced script
	flush := func() {
		switch {
		case len(run) == 1:
			out = append(out, string(run))
		case len(run) > 1:
			for i := 0; i+1 < len(run); i++ {
				out = append(out, string(run[i:i+2]))
			}
		}
		run = run[:0]
	}
	state := -1
	for s != "" {
		var w string
		w, s, state = uniseg.FirstWordInString(s, state)
		letters := 0
		for _, r := range w {
			switch {
			case UnspacedScript(r):
				run = append(run, FoldRune(r))
			case unicode.IsMark(r) && len(run) > 0:
				// a Thai vowel or tone mark stays with the run
			case unicode.IsLetter(r) || unicode.IsNumber(r):
				letters++
			}
		}
		if letters == 0 {
			if len(run) == 0 || !hasUnspaced(w) {
				flush()
			}
			continue
		}
		flush()
		t := foldWord(w)
		if ranking && (len([]rune(t)) < 2 && !isDigits(t) || stopwords()[t] || shortStopwords()[t]) {
			continue
		}
		out = append(out, t)
	}
	flush()
	return out
}

func hasUnspaced(w string) bool {
	for _, r := range w {
		if UnspacedScript(r) {
			return true
		}
	}
	return false
}

// foldWord lower-cases a word and keeps its letters, digits and marks.
func foldWord(w string) string {
	rs := make([]rune, 0, len(w))
	for _, r := range w {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r) {
			rs = append(rs, FoldRune(r))
		}
	}
	return string(rs)
}

// shortStopwords are frequent English words of two or three letters;
// stopwords has the longer ones.
var shortStopwords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"a", "an", "the", "of", "in", "on", "at", "to", "is", "are", "was", "be", "by", "for", "and", "or", "it", "its", "as", "do", "did", "has", "had", "not", "but", "he", "she", "we", "you", "who", "how", "why", "can", "any", "all", "so", "if", "no", "yes"} {
		m[w] = true
	}
	return m
})

// Ranker scores the texts of one collection (the sentences of a page,
// the passages of a knowledge store) against queries by BM25. It keeps
// only what the scores need: every text's distinct terms with their
// counts, as term numbers in ascending order, each as two varints (the
// difference from the text's previous term number and the count: about
// three bytes a term of a text), and each distinct term once. The texts
// themselves are not kept: a collection can be indexed one text at a
// time (Add) as it is read.
type Ranker struct {
	ids   map[string]uint32 // term → its number
	df    []int32           // by term number: how many texts have it
	terms []byte            // every text's terms, text after text (a FileRanker's not yet written out)
	end   []int             // text i's terms are terms[end[i-1]:end[i]] (for a FileRanker, of its file)
	len   []int32           // by text: its tokens
	total int               // tokens in every text
	avg   float64
	sort  []uint32 // Add's scratch
}

// NewRanker indexes texts for ranking.
func NewRanker(sents []string) *Ranker {
	rk := &Ranker{}
	for _, s := range sents {
		rk.Add(s)
	}
	return rk
}

// Add indexes one more text, the next number (Len before the call). A
// Ranker is built by one goroutine; once built it is safe for
// concurrent scoring.
func (rk *Ranker) Add(text string) { rk.add(text, 0) }

// add indexes one more text, appending its terms to rk.terms; base is
// how many bytes of terms came before rk.terms[0] (written out by a
// FileRanker).
func (rk *Ranker) add(text string, base int) {
	if rk.ids == nil {
		rk.ids = map[string]uint32{}
	}
	toks := Tokens(text)
	ids := rk.sort[:0]
	for _, t := range toks {
		id, ok := rk.ids[t]
		if !ok {
			id = uint32(len(rk.df))
			rk.ids[t] = id
			rk.df = append(rk.df, 0)
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	prev := uint32(0)
	for i := 0; i < len(ids); {
		j := i + 1
		for j < len(ids) && ids[j] == ids[i] {
			j++
		}
		rk.terms = binary.AppendUvarint(rk.terms, uint64(ids[i]-prev))
		rk.terms = binary.AppendUvarint(rk.terms, uint64(j-i))
		rk.df[ids[i]]++
		prev = ids[i]
		i = j
	}
	rk.sort = ids[:0]
	rk.end = append(rk.end, base+len(rk.terms))
	rk.len = append(rk.len, int32(len(toks)))
	rk.total += len(toks)
	rk.avg = float64(rk.total) / float64(len(rk.end))
}

// Query is a question's distinct tokens.
type Query []string

// NewQuery makes the query of s: its distinct tokens.
func NewQuery(s string) Query {
	seen := map[string]bool{}
	var q Query
	for _, t := range Tokens(s) {
		if !seen[t] {
			seen[t] = true
			q = append(q, t)
		}
	}
	return q
}

// queryTerms is a query as a Ranker numbers its terms, and the counts of
// those terms in the text being scored.
type queryTerms struct {
	q   Query
	k   []int    // by token of q: its index in ids, or -1 when no text has it
	ids []uint32 // the numbers of q's terms the collection has, ascending, once each
	n   []int    // by ids: how many times the text being scored has it
}

// prepare numbers q's tokens; ok is false when no text has any of them.
func (rk *Ranker) prepare(q Query) (qt *queryTerms, ok bool) {
	qt = &queryTerms{q: q, k: make([]int, len(q))}
	for _, t := range q {
		if id, ok := rk.ids[t]; ok {
			qt.ids = append(qt.ids, id)
		}
	}
	slices.Sort(qt.ids)
	qt.ids = slices.Compact(qt.ids)
	for j, t := range q {
		qt.k[j] = -1
		if id, ok := rk.ids[t]; ok {
			qt.k[j], _ = slices.BinarySearch(qt.ids, id)
		}
	}
	qt.n = make([]int, len(qt.ids))
	return qt, len(qt.ids) > 0
}

// count sets qt.n to the counts of q's terms in one text's terms, b (as
// Add writes them).
func (qt *queryTerms) count(b []byte) {
	clear(qt.n)
	id, k := uint32(0), 0
	for len(b) > 0 && k < len(qt.ids) {
		d, w := binary.Uvarint(b)
		c, w2 := binary.Uvarint(b[w:])
		b = b[w+w2:]
		id += uint32(d)
		for k < len(qt.ids) && qt.ids[k] < id {
			k++
		}
		if k < len(qt.ids) && qt.ids[k] == id {
			qt.n[k] = int(c)
		}
	}
}

// sum is text i's BM25 score for the query whose counts in it qt holds,
// and how many of the query's tokens it holds: the one place a score is
// computed, so that a Ranker and a FileRanker give the same to the bit.
func (rk *Ranker) sum(qt *queryTerms, i int) (float64, int) {
	texts := float64(len(rk.end))
	sc, matched := 0.0, 0
	for j := range qt.q {
		k := qt.k[j]
		if k < 0 {
			continue
		}
		f := float64(qt.n[k])
		if f == 0 {
			continue
		}
		matched++
		df := float64(rk.df[qt.ids[k]])
		idf := math.Log(1 + (texts-df+0.5)/(df+0.5))
		sc += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(rk.len[i])/max(rk.avg, 1)))
	}
	return sc, matched
}

// textTerms is text i's terms in rk.terms (a Ranker in memory).
func (rk *Ranker) textTerms(i int) []byte {
	from := 0
	if i > 0 {
		from = rk.end[i-1]
	}
	return rk.terms[from:rk.end[i]]
}

// Score is text i's BM25 score for q; 0 when it holds none of q's
// tokens.
func (rk *Ranker) Score(q Query, i int) float64 {
	qt, ok := rk.prepare(q)
	if !ok {
		return 0
	}
	qt.count(rk.textTerms(i))
	sc, _ := rk.sum(qt, i)
	return sc
}

// Len is how many texts rk holds.
func (rk *Ranker) Len() int { return len(rk.end) }

// answers reports whether a sentence holding matched of q's tokens may
// answer it: two tokens in common, or all of a question of one.
func (q Query) answers(matched int) bool { return matched > 0 && matched >= min(2, len(q)) }

// Hit is a sentence's score for one query.
type Hit struct {
	I     int
	Score float64
}

// Ranked returns, for each query, the sentences that may answer it, best
// first (ties in text order).
func (rk *Ranker) Ranked(qs []Query) [][]Hit {
	out := make([][]Hit, len(qs))
	for qi, q := range qs {
		qt, ok := rk.prepare(q)
		for i := range rk.end {
			if !ok {
				break
			}
			qt.count(rk.textTerms(i))
			if sc, m := rk.sum(qt, i); q.answers(m) {
				out[qi] = append(out[qi], Hit{i, sc})
			}
		}
		sort.SliceStable(out[qi], func(a, b int) bool { return out[qi][a].Score > out[qi][b].Score })
	}
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// stopwords are frequent English words of four letters or more that say
// nothing about a claim.
var stopwords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`that this with from what when where which while there their they them then than have has
		been were does did done into about would could should will more most some such only also over under very just
		your yours whose whom these those being after before other each many much even ever here says said
		true false claim claims really actually`) {
		m[w] = true
	}
	return m
})

// FoldRune lower-cases r; a Greek final sigma folds to σ.
func FoldRune(r rune) rune {
	r = unicode.ToLower(r)
	if r == 'ς' {
		return 'σ'
	}
	return r
}

// UnspacedScript reports whether r belongs to a script written without
// spaces between words, where each character is matched as a token.
func UnspacedScript(r rune) bool {
	if r < 0x0E00 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}
