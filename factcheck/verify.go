package factcheck

import (
	"context"
	"strings"
	"sync"
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

// run is the state of one claim's verification: what its tools retrieved.
type run struct {
	c     *Checker
	b     Budget
	claim string
	allow map[string]string // URLs the user wrote, by key
	docs  map[string]*doc   // URLs retrieved in this run, by key
	order []string          // doc keys in retrieval order
	mu    sync.Mutex        // guards docs and order during parallel tool calls
	trace *tracer
	index int
	emit  func(Event)
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
		trace: newTracer(c.now), index: index, emit: emit,
		factChecks: c.FactChecks != nil && !c.factChecksOff.Load(),
	}
	for _, u := range urlsIn(userText) {
		r.allow[urlKey(u)] = u
	}
	start := c.now()
	ctxText := ""
	if strings.TrimSpace(userText) != strings.TrimSpace(claim) {
		ctxText = truncate(userText, 1500)
	}
	l := &loop[verdictArgs]{
		model:  c.Model,
		system: verifySystemPrompt(start, r.b, r.factChecks),
		prompt: verifyUserPrompt(claim, ctxText),
		tools:  r.tools(),
		finish: submitVerdict,
		limits: []toolLimit{
			{budget: BudgetSearches, max: r.b.Searches, tools: []string{ToolWebSearch, ToolFactChecks}},
			{budget: BudgetReads, max: r.b.Reads, tools: []string{ToolReadPage}},
		},
		steps: r.b.Steps, promptTokens: r.b.PromptTokens, time: r.b.Time,
		temperature: c.Options.temperature(),
		text:        verifyLoopText,
		trace:       r.trace,
		review:      r.review,
		onForce: func(budget string) {
			emit(Event{Kind: EventNote, Claim: index, Text: "budget reached (" + budget + "), asking for a final verdict"})
		},
	}
	if c.Options.NoRecheck {
		l.review = nil
	}
	o, err := l.run(ctx)
	if err != nil {
		return nil, err
	}
	v := r.verdict(o.result, o.stop)
	v.Claim = claim
	v.Model = c.Model.Name()
	v.CheckedAt = start
	v.StoppedBy = o.stop
	v.Usage = o.usage
	v.Trace = r.trace.list()
	return v, nil
}
