package factcheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/search"
)

// The verification loop's research tools: web_search, read_page and
// search_fact_checks. What they retrieve is remembered for provenance.

type webSearchArgs struct {
	Query string `json:"query"`
}

type readPageArgs struct {
	URL string `json:"url"`
}

// searchResult is what the model sees of one search hit: its snippet as
// ID-tagged sentences, or, when a model wrote it (Gemini's grounding), as
// an untagged summary that cannot be cited.
type searchResult struct {
	Title     string  `json:"title"`
	URL       string  `json:"url"`
	Snippet   string  `json:"snippet,omitempty"`
	Summary   string  `json:"summary,omitempty"`
	Score     float64 `json:"-"`
	Published string  `json:"published,omitempty"`
	Publisher string  `json:"publisher,omitempty"`
	Rating    string  `json:"rating,omitempty"`
}

type searchObservation struct {
	Query   string         `json:"-"` // the call's own
	Results []searchResult `json:"results"`
	Hint    string         `json:"hint,omitempty"`
}

// pageObservation is a page read: its passages most relevant to the
// questions, each with its neighbouring sentences, ID-tagged.
type pageObservation struct {
	URL       string `json:"-"` // the call's own
	Title     string `json:"title,omitempty"`
	Published string `json:"published,omitempty"`
	Text      string `json:"text"`
	Excerpted bool   `json:"excerpted,omitempty"`
}

// snippetChars bounds a result's snippet; compactSnippetChars does with a
// compact transcript. The snippet's sentences most relevant to the
// questions are shown.
const (
	snippetChars        = 250
	compactSnippetChars = 160
)

// tools returns the research tools in the order they are offered.
func (r *researcher) tools() []Tool {
	ts := []Tool{
		NewTool(ToolWebSearch, "",
			func(ctx context.Context, a webSearchArgs) (*searchObservation, error) {
				return r.webSearch(ctx, r.languageQuery(a.Query))
			}),
		NewTool(ToolReadPage, "",
			r.readPage),
	}
	if r.factChecks {
		fc := NewTool(ToolFactChecks, "Search published fact-checks (ClaimReview): url, publisher, rating.",
			func(ctx context.Context, a webSearchArgs) (*searchObservation, error) {
				return r.factCheckSearch(ctx, a.Query)
			})
		ts = append([]Tool{fc}, ts...)
	}
	return ts
}

// factCheckSearch runs a search_fact_checks of query.
func (r *researcher) factCheckSearch(ctx context.Context, query string) (*searchObservation, error) {
	obs, err := r.doSearch(ctx, query, "fact_check", r.c.FactChecks.SearchFactChecks)
	if errors.Is(err, search.ErrUnauthorized) || errors.Is(err, search.ErrMisconfigured) {
		// A key without the Fact Check Tools API enabled fails every
		// time: stop offering the tool to later runs.
		r.c.factChecksOff.Store(true)
		return nil, fmt.Errorf("%w; published fact-checks are not available, use web_search", err)
	}
	return obs, err
}

// webSearch runs a web_search of query.
func (r *researcher) webSearch(ctx context.Context, query string) (*searchObservation, error) {
	return r.doSearch(ctx, query, "search", func(ctx context.Context, q search.Query) (*search.Response, error) {
		if r.c.Search == nil {
			return nil, errors.New("no search provider is configured")
		}
		return r.c.Search.Search(ctx, q)
	})
}

// doSearch runs one search with fn, the query carrying the check's
// restriction and knowledge-store claim.
func (r *researcher) doSearch(ctx context.Context, query, via string, fn func(context.Context, search.Query) (*search.Response, error)) (*searchObservation, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return nil, errors.New("the query is empty")
	}
	r.mu.Lock()
	if len(r.queries) >= r.b.Searches { // searches the code made count too (searchlang.go)
		r.mu.Unlock()
		return nil, fmt.Errorf("the %s budget is used up: call %s", BudgetSearches, ToolSubmitVerdict)
	}
	r.queries = append(r.queries, query)
	r.mu.Unlock()
	r.emit(Event{Kind: EventSearch, Claim: r.index, Text: query})
	resp, err := fn(ctx, search.Query{Text: query, Max: r.b.Results, Restriction: r.restrict, Claim: r.storeClaim, Recorder: r.recorder})
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
		seen := seenText{QuoteInSnippet, 0, res.Snippet}
		if res.ModelWritten {
			seen.place = QuoteInSummary
		}
		d, ranges := r.lib.remember(res.URL, res.Title, via, []seenText{seen}, func(d *doc) {
			if res.Publisher != "" {
				d.publisher, d.rating = res.Publisher, res.Rating
			}
			if d.published == "" {
				d.published = res.Published
			}
		})
		if d == nil {
			continue
		}
		sr := searchResult{Title: res.Title, URL: res.URL, Score: res.Score,
			Published: res.Published, Publisher: res.Publisher, Rating: res.Rating}
		max := snippetChars
		if r.compactOn {
			max = compactSnippetChars
		}
		if res.ModelWritten {
			sr.Summary = truncate(strings.TrimSpace(res.Snippet), max)
		} else {
			sr.Snippet, _ = r.lib.show(d, ranges[0], max, false, r.questions)
		}
		obs.Results = append(obs.Results, sr)
	}
	if len(obs.Results) == 0 {
		obs.Hint = "No results. Rephrase: use fewer or different words, drop quotes, or search for the key fact in another way."
	}
	return obs, nil
}

// readPage reads a page for read_page and the retrieval, noting in
// pageRead that one was read.
func (r *researcher) readPage(ctx context.Context, a readPageArgs) (*pageObservation, error) {
	u := strings.TrimSpace(a.URL)
	_, fromSearch := r.lib.lookup(u)
	fromUser := r.lib.fromUser(u)
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
	if err := r.addressLate(u, u, "refused, its address dates it"); err != nil {
		return nil, err
	}
	r.emit(Event{Kind: EventRead, Claim: r.index, Text: u})
	p, err := r.c.Reader.ReadPage(ctx, search.PageRequest{URL: u, Restriction: r.restrict, Claim: r.storeClaim, Recorder: r.recorder})
	if err != nil {
		return nil, fmt.Errorf("could not read %s: %w", u, err)
	}
	if p.FinalURL != "" && r.restrict.Excluded(p.FinalURL) {
		r.trace.note("read " + u + ": dropped, it redirected to an excluded site")
		return nil, fmt.Errorf("refused: %s redirects to a site excluded from this check", u)
	}
	if p.FinalURL != "" && p.FinalURL != u {
		if err := r.addressLate(u, p.FinalURL, "dropped, it redirected to "+p.FinalURL+", whose address dates it"); err != nil {
			return nil, err
		}
	}
	if p.ClaimReview && r.restrict.FactCheckPaths {
		r.trace.note("read " + u + ": dropped, the page declares itself a published fact-check (ClaimReview)")
		return nil, fmt.Errorf("refused: %s is a published fact-check (its page carries ClaimReview mark-up), excluded from this check", u)
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
	d, ranges := r.lib.remember(u, p.Title, via, pageTexts(p), set)
	if p.FinalURL != "" && urlKey(p.FinalURL) != urlKey(u) {
		r.lib.remember(p.FinalURL, p.Title, via, pageTexts(p), set)
	}
	max := r.b.PageChars
	if r.compactOn {
		// The page is seen whole once, then as its answers: show the
		// passages most relevant to the questions.
		max = r.b.PageChars / 3
	}
	var text string
	var cut bool
	if d != nil && len(ranges) > 0 {
		text, cut = r.lib.show(d, [2]int{ranges[0][0], ranges[len(ranges)-1][1]}, max, true, r.questions)
	}
	if strings.TrimSpace(text) == "" {
		text = "(the page has no readable text)"
	}
	r.pageRead.Store(true)
	return &pageObservation{URL: u, Title: p.Title, Published: p.Published, Text: text, Excerpted: cut}, nil
}

// pageTexts are the texts of a page read: its text or, for a PDF, each
// page with its number, so that a citation says on which page it is.
func pageTexts(p *search.Page) []seenText {
	if len(p.Pages) == 0 {
		return []seenText{{QuoteOnPage, 0, p.Text}}
	}
	var out []seenText
	for _, pg := range p.Pages {
		out = append(out, seenText{QuoteInPDF, pg.N, pg.Text})
	}
	return out
}

// addressLate refuses the read of u when addr (u, or where reading it
// redirected) dates the page after the day the claim is checked as of
// (search.Restriction.AddressAfter), before anything of it reaches the
// model; what says in the trace what was done.
func (r *researcher) addressLate(u, addr, what string) error {
	d, late := r.restrict.AddressAfter(addr)
	if !late {
		return nil
	}
	pub, day := d.Format(time.DateOnly), r.restrict.Before.UTC().Format(time.DateOnly)
	r.trace.note(fmt.Sprintf("read %s: %s %s, after %s", u, what, pub, day))
	return fmt.Errorf("refused: the address %s dates the page %s, after %s, the date this claim is checked as of; use other sources", addr, pub, day)
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
