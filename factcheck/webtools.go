package factcheck

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/factbot-dev/factbot/search"
)

// The verification loop's research tools: web_search, read_page and
// search_fact_checks. What they retrieve is remembered for provenance.

type webSearchArgs struct {
	Query string `json:"query"`
}

type readPageArgs struct {
	URL string `json:"url" jsonschema:"description=From a search or the user."`
}

// searchResult is what the model sees of one search hit.
type searchResult struct {
	Title     string  `json:"title"`
	URL       string  `json:"url"`
	Snippet   string  `json:"snippet"`
	Score     float64 `json:"-"`
	Published string  `json:"published,omitempty"`
	Publisher string  `json:"publisher,omitempty"`
	Rating    string  `json:"rating,omitempty"`
}

type searchObservation struct {
	Query   string         `json:"query"`
	Results []searchResult `json:"results"`
	Hint    string         `json:"hint,omitempty"`
}

type pageObservation struct {
	URL       string `json:"url"`
	Title     string `json:"title,omitempty"`
	Published string `json:"published,omitempty"`
	Text      string `json:"text"`
	Excerpted bool   `json:"excerpted,omitempty"`
}

// snippetChars bounds a result's snippet; compactSnippetChars does with a
// compact transcript, where the snippet's sentences most relevant to the
// questions are shown.
const (
	snippetChars        = 250
	compactSnippetChars = 140
)

// tools returns the research tools in the order they are offered.
func (r *run) tools() []Tool {
	ts := []Tool{
		NewTool(ToolWebSearch, "Search the web.",
			func(ctx context.Context, a webSearchArgs) (*searchObservation, error) {
				return r.doSearch(ctx, a.Query, "search", func(ctx context.Context, q string, n int) (*search.Response, error) {
					if r.c.Search == nil {
						return nil, errors.New("no search provider is configured")
					}
					return r.c.Search.Search(ctx, q, n)
				})
			}),
		NewTool(ToolReadPage, "Read a page.",
			r.readPage),
	}
	if r.factChecks {
		fc := NewTool(ToolFactChecks, "Search published fact-checks (ClaimReview): url, publisher, rating.",
			func(ctx context.Context, a webSearchArgs) (*searchObservation, error) {
				obs, err := r.doSearch(ctx, a.Query, "fact_check", r.c.FactChecks.SearchFactChecks)
				if errors.Is(err, search.ErrUnauthorized) || errors.Is(err, search.ErrMisconfigured) {
					// A key without the Fact Check Tools API enabled fails every
					// time: stop offering the tool to later runs.
					r.c.factChecksOff.Store(true)
					return nil, fmt.Errorf("%w; published fact-checks are not available, use web_search", err)
				}
				return obs, err
			})
		ts = append([]Tool{fc}, ts...)
	}
	return ts
}

func (r *run) doSearch(ctx context.Context, query, via string, fn func(context.Context, string, int) (*search.Response, error)) (*searchObservation, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return nil, errors.New("the query is empty")
	}
	r.emit(Event{Kind: EventSearch, Claim: r.index, Text: query})
	r.mu.Lock()
	r.queries = append(r.queries, query)
	r.mu.Unlock()
	resp, err := fn(ctx, query, r.b.Results)
	if err != nil {
		return nil, fmt.Errorf("search failed: %w", err)
	}
	for _, n := range resp.Notes {
		r.trace.note(n)
	}
	if resp.Provider != "" {
		r.trace.note(fmt.Sprintf("%s %q answered by %s", via, query, resp.Provider))
	}
	results, late, excluded := r.restrict.Filter(resp.Results)
	if late > 0 {
		r.trace.note(fmt.Sprintf("%s %q: dropped %d result(s) published after %s", via, query, late, r.restrict.Before.UTC().Format(time.DateOnly)))
	}
	if excluded > 0 {
		r.trace.note(fmt.Sprintf("%s %q: dropped %d result(s) from excluded sites", via, query, excluded))
	}
	results = r.datedResults(via, query, results)
	obs := &searchObservation{Query: query, Results: []searchResult{}}
	for _, res := range results {
		if len(obs.Results) >= r.b.Results {
			break
		}
		if res.URL == "" {
			continue
		}
		snip := truncate(strings.TrimSpace(res.Snippet), snippetChars)
		if r.compactOn {
			// Seen whole once, then as its answers: show the sentences
			// most relevant to the questions.
			snip, _ = r.excerpt(strings.TrimSpace(res.Snippet), compactSnippetChars)
		}
		quotes := []quoteSource{newQuoteSource(QuoteInSnippet, 0, res.Snippet), newQuoteSource(QuoteInTitle, 0, res.Title)}
		r.remember(res.URL, res.Title, via, quotes, func(d *doc) {
			if res.Publisher != "" {
				d.publisher, d.rating = res.Publisher, res.Rating
			}
			if d.published == "" {
				d.published = res.Published
			}
		})
		obs.Results = append(obs.Results, searchResult{
			Title: res.Title, URL: res.URL, Snippet: snip, Score: res.Score,
			Published: res.Published, Publisher: res.Publisher, Rating: res.Rating,
		})
	}
	if len(obs.Results) == 0 {
		obs.Hint = "No results. Rephrase: use fewer or different words, drop quotes, or search for the key fact in another way."
	}
	return obs, nil
}

func (r *run) readPage(ctx context.Context, a readPageArgs) (*pageObservation, error) {
	u := strings.TrimSpace(a.URL)
	_, fromSearch := r.lookup(u)
	_, fromUser := r.allow[urlKey(u)]
	if !fromSearch && !fromUser {
		return nil, fmt.Errorf("refused: %s was not returned by a search in this conversation nor written by the user; search first", u)
	}
	if r.c.Reader == nil {
		return nil, errors.New("page reading is not configured")
	}
	if r.restrict.Excluded(u) {
		r.trace.note("read " + u + ": refused, an excluded site")
		return nil, fmt.Errorf("refused: %s is on a site excluded from this check", u)
	}
	r.emit(Event{Kind: EventRead, Claim: r.index, Text: u})
	p, err := r.c.Reader.Read(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("could not read %s: %w", u, err)
	}
	if p.FinalURL != "" && r.restrict.Excluded(p.FinalURL) {
		r.trace.note("read " + u + ": dropped, it redirected to an excluded site")
		return nil, fmt.Errorf("refused: %s redirects to a site excluded from this check", u)
	}
	if pub := pagePublished(p); r.restrict.After(pub) {
		day := r.restrict.Before.UTC().Format(time.DateOnly)
		r.trace.note(fmt.Sprintf("read %s: dropped, published %s, after %s", u, pub.UTC().Format(time.DateOnly), day))
		return nil, fmt.Errorf("refused: %s was published after %s, the date this claim is checked as of; use other sources", u, day)
	}
	if r.undatedPage(u, pagePublished(p)) {
		return nil, fmt.Errorf("refused: %s has no known publication date, and this claim is checked as of %s; use dated sources", u, r.restrict.Before.UTC().Format(time.DateOnly))
	}
	via := "read"
	if fromUser && !fromSearch {
		via = "input"
	}
	set := func(d *doc) {
		d.sha256, d.fetchedAt = p.SHA256, p.FetchedAt
		if p.Title != "" {
			d.title = p.Title
		}
		if p.Published != "" { // the page's own date beats a search engine's
			d.published = p.Published
		}
	}
	quotes := pageQuoteSources(p)
	r.remember(u, p.Title, via, quotes, set)
	if p.FinalURL != "" && urlKey(p.FinalURL) != urlKey(u) {
		r.remember(p.FinalURL, p.Title, via, quotes, set)
	}
	text, cut := relevantExcerpt(p.Text, r.claim, r.b.PageChars)
	if r.compactOn {
		// The page is seen whole once, then as its answers: show the
		// sentences most relevant to the questions.
		text, cut = r.excerpt(p.Text, r.b.PageChars/3)
	}
	if strings.TrimSpace(text) == "" {
		text = "(the page has no readable text)"
	}
	return &pageObservation{URL: u, Title: p.Title, Published: p.Published, Text: text, Excerpted: cut}, nil
}

// pageQuoteSources prepares the texts of a page read for matchQuote: its
// title and its text; for a PDF, each page with its number, so that a match
// says on which page it is (a quote running across two pages is not
// matched).
func pageQuoteSources(p *search.Page) []quoteSource {
	out := []quoteSource{newQuoteSource(QuoteInTitle, 0, p.Title)}
	if len(p.Pages) == 0 {
		return append(out, newQuoteSource(QuoteOnPage, 0, p.Text))
	}
	for _, pg := range p.Pages {
		out = append(out, newQuoteSource(QuoteInPDF, pg.N, pg.Text))
	}
	return out
}

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
			if used == 0 { // one huge paragraph: cut it, and it fills the excerpt
				room := 1
				if max > 4 {
					room = max - 3
				}
				paras[s.i] = truncate(paras[s.i], room)
				keep[s.i] = true
				used = max
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

// pagePublished is when a page says it was published, zero when unknown.
func pagePublished(p *search.Page) time.Time {
	if !p.PublishedAt.IsZero() {
		return p.PublishedAt
	}
	for _, layout := range []string{time.RFC3339, time.DateOnly} {
		if t, err := time.Parse(layout, p.Published); err == nil {
			return t
		}
	}
	return time.Time{}
}
