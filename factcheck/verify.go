package factcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/search"
)

// Budget names recorded in Verdict.StoppedBy.
const (
	BudgetSteps        = "steps"
	BudgetSearches     = "searches"
	BudgetReads        = "reads"
	BudgetPromptTokens = "prompt_tokens"
	BudgetTime         = "time"
)

// Tool names the verification loop offers.
const (
	ToolWebSearch     = "web_search"
	ToolReadPage      = "read_page"
	ToolFactChecks    = "search_fact_checks"
	ToolSubmitVerdict = "submit_verdict"
	ToolSubmitClaims  = "submit_claims"
)

// forcedCallGrace is the time allowed for the forced final call when the
// wall-time budget has run out.
const forcedCallGrace = 30 * time.Second

type webSearchArgs struct {
	Query string `json:"query" jsonschema:"description=A web search query. Short and specific; quote exact phrases when useful."`
}

type readPageArgs struct {
	URL string `json:"url" jsonschema:"description=The URL to read. Must be a URL returned by a search in this conversation or written by the user."`
}

type evidenceArgs struct {
	SourceURL      string `json:"source_url" jsonschema:"description=URL of the source, exactly as a tool returned it."`
	SourceTitle    string `json:"source_title" jsonschema:"description=Title of the source."`
	Supports       bool   `json:"supports" jsonschema:"description=true if the source supports the claim, false if it refutes it."`
	QuoteOrSummary string `json:"quote_or_summary" jsonschema:"description=A short verbatim quote from the source's text that the judgement rests on."`
}

type verdictArgs struct {
	Verdict    string         `json:"verdict" jsonschema:"enum=supported,enum=contradicted,enum=contested,enum=unverifiable"`
	Confidence string         `json:"confidence" jsonschema:"enum=high,enum=medium,enum=low"`
	Reasoning  string         `json:"reasoning" jsonschema:"description=One to three sentences explaining the verdict."`
	Evidence   []evidenceArgs `json:"evidence,omitempty" jsonschema:"description=Every source the verdict rests on; empty only for unverifiable."`
}

var submitVerdictSpec = ToolSpec{
	Name:        ToolSubmitVerdict,
	Description: "Submit the final verdict on the claim. This ends the check.",
	Parameters:  SchemaFor[verdictArgs](),
}

// check validates the verdict arguments.
func (v *verdictArgs) check() error {
	var errs []string
	if !Label(strings.ToLower(strings.TrimSpace(v.Verdict))).Valid() {
		errs = append(errs, fmt.Sprintf("verdict %q is not one of supported, contradicted, contested, unverifiable", v.Verdict))
	}
	if !Confidence(strings.ToLower(strings.TrimSpace(v.Confidence))).Valid() {
		errs = append(errs, fmt.Sprintf("confidence %q is not one of high, medium, low", v.Confidence))
	}
	if strings.TrimSpace(v.Reasoning) == "" {
		errs = append(errs, "reasoning is empty")
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// parseVerdict decodes and validates submit_verdict's arguments, reporting
// every problem at once so the model can fix them in one go.
func parseVerdict(raw json.RawMessage) (*verdictArgs, error) {
	var va verdictArgs
	if err := json.Unmarshal(raw, &va); err != nil {
		return nil, fmt.Errorf("arguments do not match the schema: %v", err)
	}
	if err := va.check(); err != nil {
		return nil, err
	}
	return &va, nil
}

// doc is a URL retrieved in a run, with every text the run saw for it.
type doc struct {
	url       string
	title     string
	via       string
	texts     []string
	fetchedAt time.Time
	sha256    string
	publisher string
	rating    string
}

// run is the state of one claim's verification.
type run struct {
	c      *Checker
	b      Budget
	claim  string
	allow  map[string]string // URLs the user wrote, by key
	docs   map[string]*doc   // URLs retrieved in this run, by key
	order  []string          // doc keys in retrieval order
	mu     sync.Mutex        // guards docs, order, trace, counters during parallel tool calls
	trace  []TraceEvent
	usage  Usage
	search int
	reads  int
	stop   string
	index  int
	emit   func(Event)
	// factChecks says whether search_fact_checks is offered in this run.
	factChecks bool
}

// VerifyClaim runs the verification loop for one claim. userText is the
// text the claim came from (URLs in it may be read); it may be empty.
func (c *Checker) VerifyClaim(ctx context.Context, claim, userText string) (*Verdict, error) {
	return c.verify(ctx, claim, userText, -1, func(Event) {})
}

func (c *Checker) verify(ctx context.Context, claim, userText string, index int, emit func(Event)) (*Verdict, error) {
	r := &run{
		c: c, b: c.Budget.withDefaults(), claim: claim,
		allow: map[string]string{}, docs: map[string]*doc{},
		index: index, emit: emit,
		factChecks: c.FactChecks != nil && !c.factChecksOff.Load(),
	}
	for _, u := range urlsIn(userText) {
		r.allow[urlKey(u)] = u
	}
	start := c.now()
	ctxRun, cancel := context.WithTimeout(ctx, r.b.Time)
	defer cancel()

	tools := r.tools()
	specs := make([]ToolSpec, 0, len(tools)+1)
	for _, name := range r.toolOrder() {
		specs = append(specs, tools[name].Spec())
	}
	specs = append(specs, submitVerdictSpec)

	ctxText := ""
	if strings.TrimSpace(userText) != strings.TrimSpace(claim) {
		ctxText = truncate(userText, 1500)
	}
	req := &ModelRequest{
		System:   verifySystemPrompt(start, r.b, r.factChecks),
		Messages: []Message{{Role: RoleUser, Text: verifyUserPrompt(claim, ctxText)}},
		Tools:    specs,
	}

	var final *verdictArgs
	for step := 0; final == nil; step++ {
		if r.stop = r.exhausted(step, start); r.stop != "" {
			break
		}
		resp, err := r.generate(ctxRun, req)
		if err != nil {
			if ctxRun.Err() != nil && ctx.Err() == nil {
				r.stop = BudgetTime
				break
			}
			return nil, err
		}
		msg := resp.Message
		req.Messages = append(req.Messages, msg)
		if len(msg.ToolCalls) == 0 {
			var va verdictArgs
			if jsonFromText(msg.Text, &va) && va.check() == nil {
				r.note("verdict given as text, not through submit_verdict; accepted after validation")
				final = &va
				break
			}
			req.Messages = append(req.Messages, Message{Role: RoleUser, Text: "Use the tools, and finish by calling submit_verdict. Do not answer in plain text."})
			continue
		}
		results, fin := r.runCalls(ctxRun, tools, msg.ToolCalls)
		req.Messages = append(req.Messages, Message{Role: RoleUser, ToolResults: results})
		if fin != nil {
			final = fin
		}
		if r.stop != "" && final == nil {
			break
		}
	}

	if final == nil {
		final = r.forceVerdict(ctx, req)
	}
	v := r.finish(final)
	v.Claim = claim
	v.Model = c.Model.Name()
	v.CheckedAt = start
	v.StoppedBy = r.stop
	v.Usage = r.usage
	v.Trace = r.trace
	return v, nil
}

// exhausted returns the name of the budget that prevents another step.
func (r *run) exhausted(step int, start time.Time) string {
	switch {
	case step >= r.b.Steps:
		return BudgetSteps
	case r.usage.PromptTokens >= r.b.PromptTokens:
		return BudgetPromptTokens
	case r.c.now().Sub(start) >= r.b.Time:
		return BudgetTime
	}
	return ""
}

func (r *run) generate(ctx context.Context, req *ModelRequest) (*ModelResponse, error) {
	resp, err := r.c.Model.Generate(ctx, req)
	if err != nil {
		r.addTrace(TraceEvent{Kind: "model", Error: err.Error()})
		return nil, err
	}
	u := resp.Usage
	r.mu.Lock()
	r.usage = r.usage.Add(u)
	r.mu.Unlock()
	r.addTrace(TraceEvent{Kind: "model", Usage: &u, FinishReason: resp.FinishReason})
	return resp, nil
}

// forceVerdict makes the one last call that may only submit a verdict.
func (r *run) forceVerdict(ctx context.Context, req *ModelRequest) *verdictArgs {
	r.note("budget reached: " + r.stop + "; asking for a final verdict")
	r.emit(Event{Kind: EventNote, Claim: r.index, Text: "budget reached (" + r.stop + "), asking for a final verdict"})
	ctx, cancel := context.WithTimeout(ctx, forcedCallGrace)
	defer cancel()
	instr := fmt.Sprintf("The %s budget is used up. Call submit_verdict now, using only the evidence already retrieved. If it is not enough, the verdict is unverifiable.", r.stop)
	if last := &req.Messages[len(req.Messages)-1]; last.Role == RoleUser && last.Text == "" {
		last.Text = instr // one user turn: the tool results, then the instruction
	} else {
		req.Messages = append(req.Messages, Message{Role: RoleUser, Text: instr})
	}
	req.ToolMode = ToolRequired
	req.Allowed = []string{ToolSubmitVerdict}
	req.Tools = []ToolSpec{submitVerdictSpec}
	resp, err := r.generate(ctx, req)
	if err != nil {
		r.note("forced final call failed: " + err.Error())
		return nil
	}
	for _, call := range resp.Message.ToolCalls {
		if call.Name != ToolSubmitVerdict {
			continue
		}
		if va, err := parseVerdict(call.Args); err == nil {
			return va
		}
	}
	var va verdictArgs
	if jsonFromText(resp.Message.Text, &va) && va.check() == nil {
		return &va
	}
	r.note("forced final call gave no valid verdict")
	return nil
}

// runCalls executes one model turn's tool calls concurrently and returns
// their observations in order, and the verdict if one was submitted.
func (r *run) runCalls(ctx context.Context, tools map[string]Tool, calls []ToolCall) ([]ToolResult, *verdictArgs) {
	results := make([]ToolResult, len(calls))
	var final *verdictArgs
	var wg sync.WaitGroup
	for i, call := range calls {
		results[i] = ToolResult{ID: call.ID, Name: call.Name}
		if call.Name == ToolSubmitVerdict {
			va, err := parseVerdict(call.Args)
			if err != nil {
				r.addTrace(TraceEvent{Kind: "tool", Tool: call.Name, Args: truncate(string(call.Args), 500), Error: err.Error()})
				results[i].Content = errorObservation(fmt.Errorf("verdict rejected: %v; call submit_verdict again with valid values", err))
				continue
			}
			r.addTrace(TraceEvent{Kind: "tool", Tool: call.Name, Args: truncate(string(call.Args), 500)})
			results[i].Content = json.RawMessage(`{"status":"received"}`)
			final = va
			continue
		}
		if reason := r.spend(call.Name); reason != "" {
			results[i].Content = errorObservation(fmt.Errorf("the %s budget is used up; submit your verdict", reason))
			r.addTrace(TraceEvent{Kind: "tool", Tool: call.Name, Args: truncate(string(call.Args), 500), Error: "budget used up: " + reason})
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			content, err := callTool(ctx, tools, call)
			ev := TraceEvent{Kind: "tool", Tool: call.Name, Args: truncate(string(call.Args), 500), ResultBytes: len(content)}
			if err != nil {
				ev.Error = err.Error()
			}
			r.addTrace(ev)
			results[i].Content = content
		}()
	}
	wg.Wait()
	return results, final
}

// spend counts a search or read against its budget; it returns the budget's
// name when none is left, and records that budget as the one that ended the run.
func (r *run) spend(tool string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch tool {
	case ToolWebSearch, ToolFactChecks:
		if r.search >= r.b.Searches {
			r.stop = BudgetSearches
			return BudgetSearches
		}
		r.search++
	case ToolReadPage:
		if r.reads >= r.b.Reads {
			r.stop = BudgetReads
			return BudgetReads
		}
		r.reads++
	}
	return ""
}

func (r *run) addTrace(ev TraceEvent) {
	ev.At = r.c.now()
	r.mu.Lock()
	r.trace = append(r.trace, ev)
	r.mu.Unlock()
}

func (r *run) note(s string) { r.addTrace(TraceEvent{Kind: "note", Note: s}) }

// remember records a retrieved URL and a text seen for it.
func (r *run) remember(u, title, via, text string, mod func(*doc)) {
	k := urlKey(u)
	if k == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.docs[k]
	if !ok {
		d = &doc{url: u, title: title, via: via, fetchedAt: r.c.now()}
		r.docs[k] = d
		r.order = append(r.order, k)
	}
	if d.title == "" {
		d.title = title
	}
	if text != "" {
		d.texts = append(d.texts, text)
	}
	if mod != nil {
		mod(d)
	}
}

func (r *run) lookup(u string) (*doc, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.docs[urlKey(u)]
	return d, ok
}

// finish turns the model's verdict into a Verdict whose evidence has been
// checked against what the run retrieved.
func (r *run) finish(va *verdictArgs) *Verdict {
	v := &Verdict{Start: -1, End: -1}
	if va == nil {
		v.Verdict, v.Confidence = Unverifiable, Low
		v.Reasoning = "The check ended before the model gave a usable verdict"
		if r.stop != "" {
			v.Reasoning += " (" + r.stop + " budget reached)"
		}
		v.Reasoning += "."
	} else {
		v.Verdict = Label(strings.ToLower(strings.TrimSpace(va.Verdict)))
		v.Confidence = Confidence(strings.ToLower(strings.TrimSpace(va.Confidence)))
		v.Reasoning = strings.TrimSpace(va.Reasoning)
		cited := map[string]bool{}
		for _, e := range va.Evidence {
			d, ok := r.lookup(e.SourceURL)
			if !ok {
				r.note("removed evidence: no tool returned " + e.SourceURL + " in this run")
				continue
			}
			if cited[urlKey(d.url)+"\x00"+e.QuoteOrSummary] {
				continue
			}
			cited[urlKey(d.url)+"\x00"+e.QuoteOrSummary] = true
			ev := Evidence{
				SourceURL:      d.url,
				SourceTitle:    strings.TrimSpace(e.SourceTitle),
				Supports:       e.Supports,
				QuoteOrSummary: strings.TrimSpace(e.QuoteOrSummary),
				QuoteFound:     quoteFound(e.QuoteOrSummary, d.texts),
				Publisher:      d.publisher,
				Rating:         d.rating,
			}
			if d.title != "" {
				ev.SourceTitle = d.title
			}
			if !ev.QuoteFound {
				r.note("quote not found in the text retrieved for " + d.url)
			}
			v.Evidence = append(v.Evidence, ev)
		}
		if v.Verdict != Unverifiable && len(v.Evidence) == 0 {
			r.note(fmt.Sprintf("verdict %s had no evidence retrieved in this run; changed to unverifiable", v.Verdict))
			v.Reasoning = fmt.Sprintf("No source retrieved in this check backs a verdict, so it is unverifiable (the model had answered %s: %s)", v.Verdict, v.Reasoning)
			v.Verdict, v.Confidence = Unverifiable, Low
		}
	}
	// Provenance covers the prose too: a URL the model wrote into its
	// reasoning or a quote is shown only if the run retrieved it.
	v.Reasoning = r.scrubURLs(v.Reasoning)
	for i := range v.Evidence {
		v.Evidence[i].QuoteOrSummary = r.scrubURLs(v.Evidence[i].QuoteOrSummary)
	}
	citedURL := map[string]bool{}
	for _, e := range v.Evidence {
		citedURL[urlKey(e.SourceURL)] = true
	}
	for _, k := range r.order {
		d := r.docs[k]
		v.Sources = append(v.Sources, Source{URL: d.url, Title: d.title, Via: d.via, FetchedAt: d.fetchedAt, SHA256: d.sha256, Cited: citedURL[k]})
	}
	return v
}

// scrubURLs replaces every URL in text that no tool returned in this run,
// and the user did not write, by "[link removed]", and notes it in the trace.
func (r *run) scrubURLs(text string) string {
	for _, u := range urlsIn(text) {
		if _, ok := r.lookup(u); ok {
			continue
		}
		if _, ok := r.allow[urlKey(u)]; ok {
			continue
		}
		text = strings.ReplaceAll(text, u, "[link removed]")
		r.note("removed a URL no tool returned from the model's text: " + u)
	}
	return text
}

func (r *run) toolOrder() []string {
	names := []string{ToolWebSearch, ToolReadPage}
	if r.factChecks {
		names = append([]string{ToolFactChecks}, names...)
	}
	return names
}

// searchResult is what the model sees of one search hit.
type searchResult struct {
	Title     string  `json:"title"`
	URL       string  `json:"url"`
	Snippet   string  `json:"snippet"`
	Score     float64 `json:"score,omitempty"`
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

const snippetChars = 250

func (r *run) tools() map[string]Tool {
	ts := map[string]Tool{
		ToolWebSearch: NewTool(ToolWebSearch, "Search the web. Returns results with title, url, snippet and score.",
			func(ctx context.Context, a webSearchArgs) (*searchObservation, error) {
				return r.doSearch(ctx, a.Query, "search", func(ctx context.Context, q string, n int) (*search.Response, error) {
					if r.c.Search == nil {
						return nil, errors.New("no search provider is configured")
					}
					return r.c.Search.Search(ctx, q, n)
				})
			}),
		ToolReadPage: NewTool(ToolReadPage, "Read a web page and return its main text (the parts most relevant to the claim if it is long).",
			r.readPage),
	}
	if r.factChecks {
		ts[ToolFactChecks] = NewTool(ToolFactChecks, "Search published fact-checks (ClaimReview) by fact-checking organisations. Returns the review's url, title, publisher and rating.",
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
	}
	return ts
}

func (r *run) doSearch(ctx context.Context, query, via string, fn func(context.Context, string, int) (*search.Response, error)) (*searchObservation, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return nil, errors.New("the query is empty")
	}
	r.emit(Event{Kind: EventSearch, Claim: r.index, Text: query})
	resp, err := fn(ctx, query, r.b.Results)
	if err != nil {
		return nil, fmt.Errorf("search failed: %w", err)
	}
	for _, n := range resp.Notes {
		r.note(n)
	}
	if resp.Provider != "" {
		r.note(fmt.Sprintf("%s %q answered by %s", via, query, resp.Provider))
	}
	obs := &searchObservation{Query: query, Results: []searchResult{}}
	for _, res := range resp.Results {
		if len(obs.Results) >= r.b.Results {
			break
		}
		if res.URL == "" {
			continue
		}
		snip := truncate(strings.TrimSpace(res.Snippet), snippetChars)
		r.remember(res.URL, res.Title, via, res.Snippet+"\n"+res.Title, func(d *doc) {
			if res.Publisher != "" {
				d.publisher, d.rating = res.Publisher, res.Rating
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
	r.emit(Event{Kind: EventRead, Claim: r.index, Text: u})
	p, err := r.c.Reader.Read(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("could not read %s: %w", u, err)
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
	}
	r.remember(u, p.Title, via, p.Title+"\n"+p.Text, set)
	if p.FinalURL != "" && urlKey(p.FinalURL) != urlKey(u) {
		r.remember(p.FinalURL, p.Title, via, p.Title+"\n"+p.Text, set)
	}
	text, cut := relevantExcerpt(p.Text, r.claim, r.b.PageChars)
	if strings.TrimSpace(text) == "" {
		text = "(the page has no readable text)"
	}
	return &pageObservation{URL: u, Title: p.Title, Published: p.Published, Text: text, Excerpted: cut}, nil
}
