// Package evidence holds the pure functions of a verification's evidence:
// the sentences retrieved for a source and their IDs (passage.go), quote
// matching (quote.go), citing by ID or by quote (cite.go), ranking
// sentences against questions (rank.go), the words that may turn a
// sentence's meaning (cues.go) and link scrubbing (scrub.go). It keeps no
// state: the verification owns what it retrieved and calls these.
package evidence

import (
	"fmt"
	"sort"
	"strings"
)

// Citations: a piece of evidence names the sentences it rests on, by ID
// ("p2.14", or a short run "p2.14-16"), and the quote shown to people is
// those sentences, whole and verbatim. A model that writes a quote string
// instead is still understood: the string is located in the sentences the
// run saw for the source, and the quote shown becomes the whole
// sentence(s) containing it, so that a "not", a denial, a condition or an
// attribution around the words stays in view. An elision may only leave
// out words within one sentence (see Locate). A title that is a question is never a quote; a
// title alone, or a search summary a model wrote, never carries a stance.

// Citation is a piece of evidence located in one source's passages.
type Citation struct {
	First, Last int    // the sentences cited (indices in Passages.Sents); -1 when none
	Match       Match  // where; the zero value when not found
	Quote       string // the whole sentence(s), verbatim, or the title
	// Widened says a quote string, or the snippet's words InDocument
	// moved to the document, was a strict part of the sentence(s) shown.
	Widened bool
	// Seen is, when InDocument moved the citation from a search snippet
	// or summary to the document's own sentences, the words first cited.
	Seen    string
	Problem string // what is wrong, for the model; "" when none
}

// NoCitation is a citation of nothing, with the problem that says why.
func NoCitation(problem string) Citation { return Citation{First: -1, Last: -1, Problem: problem} }

// StanceBearing reports whether the citation may carry a stance: found in
// the source's own text (page, PDF page or search snippet).
func (c Citation) StanceBearing() bool {
	return c.First >= 0 && (c.Match.Place == OnPage || c.Match.Place == InPDF || c.Match.Place == InSnippet)
}

// IDs names the cited sentences of source n: "p2.14" or "p2.14-p2.15";
// "" when none.
func (c Citation) IDs(n int) string {
	if c.First < 0 {
		return ""
	}
	id := ID(n, c.First)
	if c.Last > c.First {
		id += "-" + ID(n, c.Last)
	}
	return id
}

// Cite resolves sentence IDs the model wrote (ids, parsed as ref, whose
// source is ps) to the whole sentence(s) they name. A quote string
// resolves through Locate to the same Citation.
func Cite(ps *Passages, ref Ref, ids string) Citation {
	c := NoCitation("")
	ss := ps.Sents
	if ref.Last >= len(ss) {
		c.Problem = fmt.Sprintf("%s: source p%d has no sentence %d", ids, ref.Source, ref.Last+1)
		return c
	}
	var texts []string
	for i := ref.First; i <= ref.Last; i++ {
		if ss[i].Place != ss[ref.First].Place || ss[i].Page != ss[ref.First].Page {
			c.Problem = fmt.Sprintf("%s runs across two texts (a snippet and the page, or two PDF pages); cite each on its own", ids)
			return c
		}
		texts = append(texts, ss[i].Text)
	}
	c.First, c.Last, c.Quote = ref.First, ref.Last, strings.Join(texts, " ")
	c.Match = Match{Place: ss[ref.First].Place, Page: ss[ref.First].Page}
	if c.Match.Place == InSummary {
		c.Problem = summaryProblem
	}
	return c
}

const (
	summaryProblem = "it is a search summary written by a model, not the source's words; read the page and cite its sentences"
	titleProblem   = "it is found only in the title, which carries no stance; read the page and cite its sentences"
)

// Locate finds a quote string in a source's sentences, the best place
// first (page, PDF, snippet, search summary), then in its titles that are
// not questions; url names the source in problems.
//
// Both sides are normalised by quoteNormalize, so case, Unicode form, white
// space, punctuation and typographic quotes or dashes do not matter, while
// numbers (digits, decimal marks, signs) and symbols like % stay as written.
// A quote must match whole words at both ends. A quote without elision
// may run across the sentences of one text. A quote elided with "…" or
// "..." is split into parts that must be found in one text in order,
// without overlapping, where each elision — what lies between two parts —
// leaves out words of one sentence only: a part ends in the sentence the
// next part begins in. A part may itself run on into the next sentence,
// as a quote without elision may, so an elided quote spans consecutive
// sentences, as many as its own words run across, and all of them are
// cited whole. The bound keeps a "…" from joining words of two sentences
// (as "The vaccine is … approved for children" would from "The vaccine is
// not approved. The other vaccine is approved for children"), the way
// quoted words are shortened in writing, while what the quote left out is
// always shown. The quote and each part must hold at least four
// words, and there may be at most four parts; other quotes cannot be
// verified and are not found. When several texts match, the best place
// wins; among equals, the first seen.
func Locate(ps *Passages, titles []string, url, quote string) Citation {
	c := NoCitation("")
	parts := quoteParts(quote)
	if parts == nil {
		c.Problem = "the quote is not in the text retrieved for " + url + ": it is too short to be checked (four words or more); cite passage IDs"
		return c
	}
	if best := findCited(ps, parts, func(Place) bool { return true }); best.First >= 0 {
		if best.Match.Place == InSummary {
			best.Problem = summaryProblem
		}
		return best
	}
	for _, t := range titles {
		if !isQuestion(t) && containsParts(quoteNormalize(t), parts) {
			c.Match, c.Quote, c.Problem = Match{Place: InTitle}, t, titleProblem
			return c
		}
	}
	c.Problem = "the quote is not in the text retrieved for " + url + "; cite passage IDs (or copy a sentence verbatim; parts joined by … must come from one sentence: … may leave out words only within a sentence)"
	return c
}

// findCited finds the quote's parts in the texts of ps whose place is
// accepted, the best place first (Locate's rules), and cites the whole
// sentence(s) they touch; First is -1 when they are in none.
func findCited(ps *Passages, parts []string, accept func(Place) bool) Citation {
	best := NoCitation("")
	for _, g := range ps.Groups {
		place := ps.Sents[g[0]].Place
		if !accept(place) || best.First >= 0 && place.rank() >= best.Match.Place.rank() {
			continue
		}
		if first, last, ok := findInGroup(ps.Sents[g[0]:g[1]], parts); ok {
			s := ps.Sents[g[0]+first]
			best.First, best.Last = g[0]+first, g[0]+last
			best.Match = Match{Place: place, Page: s.Page}
		}
	}
	if best.First < 0 {
		return best
	}
	var texts, norms []string
	for i := best.First; i <= best.Last; i++ {
		texts = append(texts, ps.Sents[i].Text)
		norms = append(norms, ps.Sents[i].Norm)
	}
	best.Quote = strings.Join(texts, " ")
	best.Widened = widened(strings.Join(norms, ""), parts)
	return best
}

// InDocument returns c as a citation of the document itself when c cites
// a search snippet or summary whose words the document's own text holds
// (a page or a PDF page the run read: the text kept as the page's
// snapshot). The words are looked for as Locate looks for a quote, with
// the same normalisation, and the citation becomes the document's whole
// sentence(s) holding them, where the quote is then found: on the page,
// not only in the search preview. Seen keeps the words first cited, and
// Widened says the document's sentences hold more than they. Any other
// citation is returned as it is.
func InDocument(ps *Passages, c Citation) Citation {
	if c.First < 0 || (c.Match.Place != InSnippet && c.Match.Place != InSummary) {
		return c
	}
	parts := quoteParts(c.Quote)
	if parts == nil {
		return c
	}
	d := findCited(ps, parts, func(p Place) bool { return p == OnPage || p == InPDF })
	if d.First < 0 {
		return c
	}
	d.Widened = d.Widened || c.Widened
	d.Seen = c.Quote
	return d
}

// findInGroup finds the quote's parts in consecutive sentences of one text
// (the rules are Locate's): the first place where the first part begins
// and the rest follow, each beginning in the sentence the one before it
// ends in. It returns the first and last sentence the parts touch.
func findInGroup(ss []Sentence, parts []string) (first, last int, ok bool) {
	// The text's sentences as one normalised text; starts[i] is the
	// space before sentence i's first token.
	var b strings.Builder
	b.WriteByte(' ')
	starts := make([]int, len(ss))
	for i, s := range ss {
		starts[i] = b.Len() - 1
		b.WriteString(s.Norm[1:])
	}
	text := b.String()
	// startSent is the sentence of the token after the space at j,
	// endSent that of the token before the space at end.
	startSent := func(j int) int { return sort.SearchInts(starts, j+1) - 1 }
	endSent := func(end int) int { return sort.SearchInts(starts, end) - 1 }
	// place places parts[k:], parts[k] beginning at or after the space
	// at from and in sentence in, and returns the sentence the last
	// part ends in. Every part's occurrences are tried, so the search is
	// exhaustive, and bounded by one sentence's length after the first.
	var place func(k, from, in int) (int, bool)
	place = func(k, from, in int) (int, bool) {
		p := parts[k]
		// parts[k] must begin before the space after sentence in.
		limit := len(text)
		if in+1 < len(starts) {
			limit = min(limit, starts[in+1]+len(p)-1)
		}
		for pos := from; pos < limit; pos++ {
			i := strings.Index(text[pos:limit], p)
			if i < 0 {
				break
			}
			pos += i
			end := pos + len(p) - 1
			if k == len(parts)-1 {
				return endSent(end), true
			}
			if l, ok := place(k+1, end, endSent(end)); ok {
				return l, true
			}
		}
		return 0, false
	}
	for pos := 0; pos < len(text); pos++ {
		i := strings.Index(text[pos:], parts[0])
		if i < 0 {
			break
		}
		pos += i
		end := pos + len(parts[0]) - 1
		if len(parts) == 1 {
			return startSent(pos), endSent(end), true
		}
		if l, ok := place(1, end, endSent(end)); ok {
			return startSent(pos), l, true
		}
	}
	return 0, 0, false
}

// widened reports whether the normalised sentences hold more than the
// quote's parts.
func widened(sents string, parts []string) bool {
	rest := " " + strings.Join(strings.Fields(sents), " ") + " "
	for _, p := range parts {
		rest = strings.Replace(rest, p, " ", 1)
	}
	return strings.TrimSpace(rest) != ""
}

// isQuestion reports whether a title asks a question.
func isQuestion(title string) bool {
	return strings.ContainsAny(title, "?？؟;⸮")
}

// PlainFor reports whether the cited sentences of ps read plainly for
// the stance (refutes or not), so that a critic has nothing to weigh:
// written in a language with cue words (cues.go), sharing a word with one
// of the queries about the claim (not about something else), with no hedge
// or attribution, and no negation unless the stance refutes.
func (c Citation) PlainFor(ps *Passages, refutes bool, about []Query) bool {
	var cited, around []string
	for i := max(c.First-1, 0); i <= min(c.Last+1, len(ps.Sents)-1); i++ {
		s := ps.Sents[i]
		if s.Place != c.Match.Place || s.Page != c.Match.Page {
			continue
		}
		around = append(around, s.Text)
		if i >= c.First && i <= c.Last {
			cited = append(cited, s.Text)
		}
	}
	text := strings.Join(cited, " ")
	lang, sure := cueLang(strings.Join(around, " "))
	if lang == "" || !sharesWord(text, about) {
		return false
	}
	for _, cue := range cuesIn(text, cuesFor(lang, sure)) {
		if cue.kind == cueHedge || !refutes {
			return false
		}
	}
	return true
}

// sharesWord reports whether text holds a token of one of the queries.
func sharesWord(text string, qs []Query) bool {
	toks := map[string]bool{}
	for _, t := range rankTokens(text) {
		toks[t] = true
	}
	for _, q := range qs {
		for _, t := range q {
			if toks[t] {
				return true
			}
		}
	}
	return false
}

// Context returns the sentence before the citation, the cited sentences
// and the one after, each tagged with its ID in source n, for the critic
// and the recheck.
func (c Citation) Context(ps *Passages, n int) string {
	if c.First < 0 {
		return ""
	}
	ss := ps.Sents
	var idx []int
	lo, hi := c.First-1, c.Last+1
	for i := max(lo, 0); i <= min(hi, len(ss)-1); i++ {
		if ss[i].Place == ss[c.First].Place && ss[i].Page == ss[c.First].Page {
			idx = append(idx, i)
		}
	}
	return ps.Tagged(n, idx)
}
