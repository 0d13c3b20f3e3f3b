package factcheck

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
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
	// ToolSubmitQuestions ends the plan, ToolSubmitReview the critic.
	ToolSubmitQuestions = "submit_questions"
	ToolSubmitReview    = "submit_review"
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
	// restrict is the run's date and excluded sites: what it allows is
	// all the model sees.
	restrict search.Restriction
	// userLinks are the canonical forms of every link the user wrote,
	// with or without a scheme: the model may repeat them.
	userLinks map[string]bool
	// questions are the plan's, if any.
	questions []string
	// compactOn says the transcript is compact (Options.NoCompact unset).
	compactOn bool
	// queries are the searches made, for the critic.
	queries []string
	// today is the run's date: its as-of date, or when it started.
	today time.Time
	// undated counts results and pages dropped for having no known date.
	undated atomic.Int64
	// langs are the languages the searches must cover (searchlang.go);
	// forced is set once a budget has ended the research, when a search
	// the code added would come too late for the model to read.
	langs  *searchLangs
	forced atomic.Bool
	// read says a page was read in this run; labelsShown, that the last
	// research call carried the label definitions (see system).
	read        atomic.Bool
	labelsShown bool
}

// system is a research call's system prompt with a compact transcript: the
// label definitions are given once a page has been read, and in a call
// that may only submit the verdict; the calls before, which search and
// pick what to read, carry the research rules only.
func (r *run) system(req *ModelRequest) string {
	r.labelsShown = r.read.Load() || req.ToolMode == ToolRequired
	return verifySystemPrompt(r.today, r.b, r.factChecks, r.labelsShown)
}

// VerifyClaim runs the verification loop for one claim. userText is the
// text the claim came from (URLs in it may be read); it may be empty.
func (c *Checker) VerifyClaim(ctx context.Context, claim, userText string) (*Verdict, error) {
	return c.verify(ctx, claim, userText, claimContext{}, -1, func(Event) {})
}

func (c *Checker) verify(ctx context.Context, claim, userText string, cc claimContext, index int, emit func(Event)) (*Verdict, error) {
	r := &run{
		c: c, b: c.Budget.withDefaults(), claim: claim,
		allow: map[string]string{}, docs: map[string]*doc{},
		trace: newTracer(c.now), index: index, emit: emit, labelsShown: true,
		factChecks: c.FactChecks != nil && !c.factChecksOff.Load(),
		restrict:   search.Restriction{Before: cc.asOf, ExcludeSites: c.ExcludeSites, FactCheckPaths: c.ExcludeFactCheckPaths},
	}
	ctx = search.WithRestriction(ctx, r.restrict)
	for _, u := range urlsIn(userText) {
		r.allow[urlKey(u)] = u
	}
	r.userLinks = linkKeys(userText)
	start := c.now()
	r.setToday(cc.asOf, start)
	r.langs = newSearchLangs(cc.language, claim)
	ctxText := ""
	if strings.TrimSpace(userText) != strings.TrimSpace(claim) {
		ctxText = truncate(userText, 1500)
	}
	prompt := verifyUserPrompt(claim, ctxText, cc.speaker, cc.source) + languagePrompt(cc.language)
	if c.Options.ClosedBook {
		return r.closedBook(ctx, prompt, start)
	}
	var spent Usage
	if !c.Options.NoQuestions {
		qs, u, err := r.plan(ctx, prompt+todayLine(r.today)+planLanguagePrompt(cc.language), start)
		if err != nil {
			return nil, err
		}
		r.questions, spent = qs, u
	}
	l := &loop[verdictArgs]{
		model:  c.Model,
		system: verifySystemPrompt(r.today, r.b, r.factChecks, true),
		prompt: prompt + questionsPrompt(r.questions),
		spent:  spent, began: start,
		tools:  r.tools(),
		finish: submitVerdict(!c.Options.NoScores),
		limits: []toolLimit{
			{budget: BudgetSearches, max: r.b.Searches, tools: []string{ToolWebSearch, ToolFactChecks}},
			{budget: BudgetReads, max: r.b.Reads, tools: []string{ToolReadPage}},
		},
		steps: r.b.Steps, promptTokens: r.b.PromptTokens, time: r.b.Time,
		temperature: c.Options.temperature(),
		text:        verifyLoopText,
		trace:       r.trace,
		review:      func(va *verdictArgs) error { return r.reviewWithLanguages(ctx, va) },
		onForce: func(budget string) {
			r.forced.Store(true)
			emit(Event{Kind: EventNote, Claim: index, Text: "budget reached (" + budget + "), asking for a final verdict"})
		},
	}
	if c.Options.NoRecheck {
		l.review = nil
	}
	if !c.Options.NoCompact {
		l.compact, l.fold, r.compactOn = r.compact, r.fold, true
		l.systemFor = r.system
	}
	o, err := l.run(ctx)
	if err != nil {
		return nil, err
	}
	if !c.Options.NoCritic {
		if err := r.critic(ctx, l, o); err != nil {
			return nil, err
		}
	}
	v := r.verdict(o.result, o.stop)
	v.Claim = claim
	v.Model = c.Model.Name()
	v.CheckedAt = start
	v.StoppedBy = o.stop
	v.Usage = o.usage
	v.Trace = r.trace.list()
	v.Undated = int(r.undated.Load())
	v.Questions = r.questions
	return v, nil
}

// critic has the verdict reviewed and, when the critic objects, sends the
// researcher back once with its note, under what is left of the budgets.
func (r *run) critic(ctx context.Context, l *loop[verdictArgs], o *outcome[verdictArgs]) error {
	switch {
	case o.result == nil:
		return nil
	case o.stop != "":
		r.trace.note("critic skipped: the " + o.stop + " budget was reached")
		return nil
	}
	if stop := l.exhausted(0, l.began, o.usage); stop != "" {
		r.trace.note("critic skipped: the " + stop + " budget was reached")
		return nil
	}
	if !r.c.Options.NoCriticSkip && r.labelsShown && r.settled(o.result) {
		r.trace.note("critic skipped: every cited sentence is found, takes the label's side and reads plainly")
		return nil
	}
	note, u, err := r.critique(ctx, o.result, l.began)
	o.usage = o.usage.Add(u)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		r.trace.note("critic failed (" + err.Error() + "); the verdict stands")
		return nil
	}
	if note == "" {
		return nil
	}
	before, _ := r.label(o.result)
	r.trace.note("critic sent the researcher back: " + note)
	r.emit(Event{Kind: EventNote, Claim: r.index, Text: "the critic sent the verdict back: " + note})
	first := o.result
	if err := l.resume(ctx, o, "A reviewer sent your verdict back: "+note+" Fix it, searching more if needed, then call submit_verdict again."); err != nil {
		return err
	}
	after, _ := r.label(o.result)
	switch {
	case o.result == first:
		r.trace.note(fmt.Sprintf("after the critic: no new verdict (%s budget reached); the first, %s, stands", o.stop, before))
	case after == before:
		r.trace.note(fmt.Sprintf("after the critic: the verdict is still %s", after))
	default:
		r.trace.note(fmt.Sprintf("after the critic: the verdict changed from %s to %s", before, after))
	}
	return nil
}
