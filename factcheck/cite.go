package factcheck

import (
	"fmt"
	"strings"
)

// Citations: a piece of evidence names the sentences it rests on, by ID
// ("p2.14", or a short run "p2.14-16"), and the quote shown to people is
// those sentences, whole and verbatim. A model that writes a quote string
// instead is still understood: the string is located in the sentences the
// run saw for the source, and the quote shown becomes the whole
// sentence(s) containing it, so that a "not", a denial, a condition or an
// attribution around the words stays in view. An elision may only join
// parts of one sentence. A title that is a question is never a quote; a
// title alone, or a search summary a model wrote, never carries a stance.

// citation is a piece of evidence located in what the run retrieved.
type citation struct {
	d           *doc
	first, last int        // the sentences cited (indices in d.ps.sents); -1 when none
	match       QuoteMatch // where; the zero value when not found
	quote       string     // the whole sentence(s), verbatim, or the title
	// widened says a quote string was a strict part of the sentence(s)
	// shown.
	widened bool
	problem string // what is wrong, for the model; "" when none
}

// stanceBearing reports whether the citation may carry a stance: found in
// the source's own text (page, PDF page or search snippet).
func (c citation) stanceBearing() bool {
	return c.first >= 0 && (c.match.Place == QuoteOnPage || c.match.Place == QuoteInPDF || c.match.Place == QuoteInSnippet)
}

// ids names the cited sentences: "p2.14" or "p2.14-p2.15"; "" when none.
func (c citation) ids() string {
	if c.first < 0 {
		return ""
	}
	id := passageID(c.d.n, c.first)
	if c.last > c.first {
		id += "-" + passageID(c.d.n, c.last)
	}
	return id
}

// cite locates a piece of evidence in what the run retrieved.
func (r *run) cite(e evidenceArgs) citation {
	c := citation{first: -1, last: -1}
	if strings.TrimSpace(e.Passage) != "" {
		return r.citeIDs(e.Passage)
	}
	d, ok := r.lookup(e.SourceURL)
	if !ok {
		c.problem = fmt.Sprintf("no tool returned %s in this check; cite passage IDs from your tools' results", e.SourceURL)
		return c
	}
	c.d = d
	quote := strings.TrimSpace(e.QuoteOrSummary)
	r.mu.Lock()
	defer r.mu.Unlock()
	return locate(c, quote)
}

// citeIDs resolves cited sentence IDs.
func (r *run) citeIDs(ids string) citation {
	c := citation{first: -1, last: -1}
	ref, err := parsePassageRef(ids)
	if err != nil {
		c.problem = err.Error()
		return c
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if ref.source > len(r.order) {
		c.problem = fmt.Sprintf("no source p%d in this check", ref.source)
		return c
	}
	c.d = r.docs[r.order[ref.source-1]]
	ss := c.d.ps.sents
	if ref.last >= len(ss) {
		c.problem = fmt.Sprintf("%s: source p%d has no sentence %d", ids, ref.source, ref.last+1)
		return c
	}
	var texts []string
	for i := ref.first; i <= ref.last; i++ {
		if ss[i].place != ss[ref.first].place || ss[i].page != ss[ref.first].page {
			c.problem = fmt.Sprintf("%s runs across two texts (a snippet and the page, or two PDF pages); cite each on its own", ids)
			return c
		}
		texts = append(texts, ss[i].text)
	}
	c.first, c.last, c.quote = ref.first, ref.last, strings.Join(texts, " ")
	c.match = QuoteMatch{Place: ss[ref.first].place, Page: ss[ref.first].page}
	if c.match.Place == QuoteInSummary {
		c.problem = summaryProblem
	}
	return c
}

const (
	summaryProblem = "it is a search summary written by a model, not the source's words; read the page and cite its sentences"
	titleProblem   = "it is found only in the title, which carries no stance; read the page and cite its sentences"
)

// locate finds quote in d's sentences, the best place first (page, PDF,
// snippet, search summary), then in its titles that are not questions.
// r.mu is held.
func locate(c citation, quote string) citation {
	parts := quoteParts(quote)
	if parts == nil {
		c.problem = "the quote is not in the text retrieved for " + c.d.url + ": it is too short to be checked (four words or more); cite passage IDs"
		return c
	}
	best := citation{first: -1, last: -1}
	for _, g := range c.d.ps.groups {
		place := c.d.ps.sents[g[0]].place
		if best.first >= 0 && place.rank() >= best.match.Place.rank() {
			continue
		}
		if first, last, ok := findInGroup(c.d.ps.sents[g[0]:g[1]], parts); ok {
			s := c.d.ps.sents[g[0]+first]
			best.first, best.last = g[0]+first, g[0]+last
			best.match = QuoteMatch{Place: place, Page: s.page}
		}
	}
	if best.first >= 0 {
		c.first, c.last, c.match = best.first, best.last, best.match
		var texts, norms []string
		for i := c.first; i <= c.last; i++ {
			texts = append(texts, c.d.ps.sents[i].text)
			norms = append(norms, c.d.ps.sents[i].norm)
		}
		c.quote = strings.Join(texts, " ")
		c.widened = widened(strings.Join(norms, ""), parts)
		if c.match.Place == QuoteInSummary {
			c.problem = summaryProblem
		}
		return c
	}
	for _, t := range c.d.titles {
		if !isQuestion(t) && containsParts(quoteNormalize(t), parts) {
			c.match, c.quote, c.problem = QuoteMatch{Place: QuoteInTitle}, t, titleProblem
			return c
		}
	}
	c.problem = "the quote is not in the text retrieved for " + c.d.url + "; cite passage IDs (or copy a sentence verbatim; parts joined by … must come from one sentence)"
	return c
}

// findInGroup finds the quote's parts in consecutive sentences of one
// text: a quote without elision anywhere in the text (it may run across
// sentences), an elided one within a single sentence.
func findInGroup(ss []sentence, parts []string) (first, last int, ok bool) {
	if len(parts) > 1 {
		for i, s := range ss {
			if containsParts(s.norm, parts) {
				return i, i, true
			}
		}
		return 0, 0, false
	}
	var b strings.Builder
	b.WriteByte(' ')
	starts := make([]int, len(ss))
	for i, s := range ss {
		starts[i] = b.Len() - 1
		b.WriteString(s.norm[1:])
	}
	j := strings.Index(b.String(), parts[0])
	if j < 0 {
		return 0, 0, false
	}
	end := j + len(parts[0]) - 1
	for i, st := range starts {
		if st <= j {
			first = i
		}
		if st < end {
			last = i
		}
	}
	return first, last, true
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

// plainFor reports whether the cited sentences read plainly for the
// stance, so that a critic has nothing to weigh: written in a language
// with cue words (cues.go), sharing a word with the claim or one of its
// questions (not about something else), with no hedge or attribution, and
// no negation unless the stance is refutes. r.mu is held.
func (c citation) plainFor(st Stance, about []query) bool {
	var cited, around []string
	for i := max(c.first-1, 0); i <= min(c.last+1, len(c.d.ps.sents)-1); i++ {
		s := c.d.ps.sents[i]
		if s.place != c.match.Place || s.page != c.match.Page {
			continue
		}
		around = append(around, s.text)
		if i >= c.first && i <= c.last {
			cited = append(cited, s.text)
		}
	}
	text := strings.Join(cited, " ")
	lang, sure := cueLang(strings.Join(around, " "))
	if lang == "" || !sharesWord(text, about) {
		return false
	}
	for _, cue := range cuesIn(text, cuesFor(lang, sure)) {
		if cue.kind == cueHedge || st != StanceRefutes {
			return false
		}
	}
	return true
}

// sharesWord reports whether text holds a token of one of the queries.
func sharesWord(text string, qs []query) bool {
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

// context returns the sentence before the citation, the cited sentences
// and the one after, each tagged with its ID, for the critic and the
// recheck.
func (r *run) context(c citation) string {
	if c.first < 0 {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ss := c.d.ps.sents
	var idx []int
	lo, hi := c.first-1, c.last+1
	for i := max(lo, 0); i <= min(hi, len(ss)-1); i++ {
		if ss[i].place == ss[c.first].place && ss[i].page == ss[c.first].page {
			idx = append(idx, i)
		}
	}
	return c.d.ps.tagged(c.d.n, idx)
}

// settled reports whether a verdict leaves a critic nothing to weigh: it
// is supported or contradicted, and every piece of evidence is a whole
// sentence (or run) of its source's own text, cited with the stance the
// label needs, and reads plainly for it (plainFor).
func (r *run) settled(va *verdictArgs) bool {
	want := map[Label]Stance{Supported: StanceSupports, Contradicted: StanceRefutes}
	label, _ := r.label(va)
	st, ok := want[label]
	if !ok || len(va.Evidence) == 0 {
		return false
	}
	about := append(r.rankQueries(), newQuery(r.claim))
	for _, e := range va.Evidence {
		c := r.cite(e)
		if c.problem != "" || !c.stanceBearing() || c.widened || e.stance() != st {
			return false
		}
		r.mu.Lock()
		plain := c.plainFor(st, about)
		r.mu.Unlock()
		if !plain {
			return false
		}
	}
	return true
}
