package factcheck

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/factbot-dev/factbot/factcheck/evidence"
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

// The verification of one claim is a list of stages, in verify:
//
//  1. plan (questions.go): the questions whose answers would settle the
//     claim, unless the extraction wrote them with it; then retrieval
//     (retrieve.go): the questions and the claim searched, and the best
//     results' pages read, in parallel before the first research turn;
//  2. research (researcher.research, its tools in webtools.go): the tool
//     loop, which searches and reads into the library (library.go) under
//     the budgets, and ends with the model's verdict; the verdict is
//     reviewed once before it is accepted (researcher.reviewOnce:
//     provenance.review, with the searches a language still lacked);
//  3. review (critic.go): a critic weighs the verdict; when it objects,
//     verify sends the research back once with its note (sendBack);
//  4. cite and check provenance (cite.go, provenance.go): each piece of
//     evidence is located in the library, as the whole sentence(s) it
//     names, and what no tool retrieved is dropped, links included.
//
// Each stage is a function of its inputs; the state it builds is its own
// (the library is the research's, read by the stages after it).

// researcher is the research stage's state: the tools' budgets, the
// restriction, the searches made, and the library they fill.
type researcher struct {
	c     *Checker
	b     Budget
	claim string
	lib   *library
	mu    sync.Mutex // guards queries and langs during parallel tool calls
	trace *tracer
	index int
	emit  func(Event)
	// factChecks says whether search_fact_checks is offered in this run.
	factChecks bool
	// restrict is the run's date and excluded sites: what it allows is
	// all the model sees.
	restrict search.Restriction
	// storeClaim is Input.StoreClaim and recorder Input.Recorder, passed
	// with every search and read.
	storeClaim string
	recorder   search.Recorder
	// plan are the plan's questions; questions, the same ranked against
	// (the claim when there are none).
	plan      []string
	questions []evidence.Query
	// compactOn says the transcript is compact (Options.NoCompact unset).
	compactOn bool
	// queries are the searches made, for the critic.
	queries []string
	// today is the run's date: its as-of date, or when it started.
	today time.Time
	// undated counts results and pages dropped for having no known date.
	undated atomic.Int64
	// pageRead says a page was read (readPage), by the retrieval or the
	// model: the research's calls define the labels from then on.
	pageRead atomic.Bool
	// langs are the languages the searches must cover (searchlang.go).
	langs *searchLangs
}

// VerifyClaim runs the verification loop for one claim. userText is the
// text the claim came from (URLs in it may be read); it may be empty.
func (c *Checker) VerifyClaim(ctx context.Context, claim, userText string) (*Verdict, error) {
	return c.verify(ctx, claim, userText, claimContext{}, -1, func(Event) {})
}

// verify is the verification of one claim, stage by stage.
func (c *Checker) verify(ctx context.Context, claim, userText string, cc claimContext, index int, emit func(Event)) (*Verdict, error) {
	start := c.now()
	trace := newTracer(c.now)
	today := runToday(trace, cc.asOf, start)
	lib := newLibrary(c.now, userText)
	prov := &provenance{lib: lib, trace: trace, opts: c.Options}
	prompt := claimPrompt(claim, userText, cc)
	if c.Options.ClosedBook {
		return c.closedBook(ctx, closedBookInput{claim: claim, prompt: prompt, today: today, start: start, trace: trace, prov: prov})
	}

	// 1. Plan: written with the claim by the extraction, or by a call of
	// its own.
	var p planned
	switch {
	case c.Options.NoQuestions:
	case len(cc.questions) > 0:
		p.questions = cc.questions
		trace.note("questions (written with the claims): " + strings.Join(p.questions, " | "))
	default:
		var err error
		if p, err = c.plan(ctx, planInput{prompt: prompt + todayLine(today) + planLanguagePrompt(cc.language), start: start, trace: trace}); err != nil {
			return nil, err
		}
	}

	// 2. Research, the verdict reviewed before it is accepted.
	r := &researcher{
		c: c, b: c.Budget.withDefaults(), claim: claim, lib: lib, trace: trace, index: index, emit: emit, today: today,
		factChecks: c.FactChecks != nil && !c.factChecksOff.Load(),
		restrict:   search.Restriction{Before: cc.asOf, ExcludeSites: c.ExcludeSites, FactCheckPaths: c.ExcludeFactCheckPaths, ExcludeURLs: cc.excludeURLs},
		storeClaim: cc.storeClaim, recorder: cc.recorder,
		plan: p.questions, questions: rankQueries(p.questions, claim), compactOn: !c.Options.NoCompact,
		langs: newSearchLangs(cc.language, claim),
	}
	var pre retrieved
	if !c.Options.NoPrefetch {
		pre = r.retrieve(ctx, start) // retrieve.go: before the first turn
		// A fact-check search that failed for good is not offered again.
		r.factChecks = r.factChecks && !c.factChecksOff.Load()
	}
	res, err := r.research(ctx, prompt+questionsPrompt(p.questions), pre, p.spent, start, prov)
	if err != nil {
		return nil, err
	}

	// 3. Review by the critic; when it objects, the research resumes once
	// with its note.
	if !c.Options.NoCritic {
		cr := &critic{c: c, claim: claim, today: today, trace: trace, prov: prov, questions: r.questions, queries: r.searches, emit: emit, index: index}
		note, err := cr.review(ctx, res)
		if err != nil {
			return nil, err
		}
		if note != "" {
			if err := cr.sendBack(ctx, res, note); err != nil {
				return nil, err
			}
		}
	}

	// 4. Cite, and check the provenance of what is cited.
	v := prov.verdict(res.o.result, res.o.stop)
	v.Claim = claim
	v.Model = c.Model.Name()
	v.CheckedAt = start
	v.StoppedBy = res.o.stop
	v.Usage = res.o.usage
	v.Trace = trace.list()
	v.Undated = int(r.undated.Load())
	v.Questions = p.questions
	return v, nil
}

// claimPrompt is the research's first message: the claim, its context
// when the user wrote more, and the language to answer in.
func claimPrompt(claim, userText string, cc claimContext) string {
	ctxText := ""
	if strings.TrimSpace(userText) != strings.TrimSpace(claim) {
		ctxText = truncate(userText, 1500)
	}
	return verifyUserPrompt(claim, ctxText, cc.speaker, cc.source) + languagePrompt(cc.language)
}

// researched is the research stage's end: its loop, to be resumed by the
// critic, and the loop's outcome; labelsShown says the last research call
// carried the label definitions (always so without the compact
// transcript).
type researched struct {
	l           *loop[verdictArgs]
	o           *outcome[verdictArgs]
	labelsShown bool
}

// research runs the tool loop until the model's verdict or a budget. The
// verdict is reviewed (prov.review, after the searches a language still
// lacked) before it is accepted.
// What was retrieved before the first turn (pre) comes after the prompt,
// counts against the search and read budgets, and is kept as its answers
// once the model has seen it.
func (r *researcher) research(ctx context.Context, prompt string, pre retrieved, spent Usage, start time.Time, prov *provenance) (*researched, error) {
	c := r.c
	full := verifySystemPrompt(r.today, r.b, r.factChecks, pre.factChecks, true)
	l := &loop[verdictArgs]{
		model:  c.Model,
		system: full,
		prompt: prompt + pre.whole,
		tools:  r.tools(),
		finish: submitVerdict(!c.Options.NoScores),
		budget: loopBudget{
			steps: r.b.Steps, promptTokens: r.b.PromptTokens, time: r.b.Time,
			limits: []toolLimit{
				{budget: BudgetSearches, max: r.b.Searches, tools: []string{ToolWebSearch, ToolFactChecks}, used: pre.searches},
				{budget: BudgetReads, max: r.b.Reads, tools: []string{ToolReadPage}, used: pre.reads},
			},
			began: start, spent: spent,
		},
		temperature: c.Options.temperature(),
		text:        verifyLoopText,
		trace:       r.trace,
		hooks: hooks[verdictArgs]{forcing: func(stop string) {
			r.emit(Event{Kind: EventNote, Claim: r.index, Text: "budget reached (" + stop + "), asking for a final verdict"})
		}},
	}
	if !c.Options.NoRecheck {
		l.hooks.review = r.reviewOnce(ctx, prov)
	}
	labelsShown := !r.compactOn
	if r.compactOn {
		// The label definitions are given once a page has been read, and
		// in a call that may only submit the verdict; the calls before,
		// which search and pick what to read, carry the research rules
		// only.
		l.system = verifySystemPrompt(r.today, r.b, r.factChecks, pre.factChecks, false)
		cp := &compacting{t: &transcript{lib: r.lib, questions: r.questions}}
		if pre.compact != "" {
			cp.first = prompt + pre.compact
		}
		l.hooks.before = func(req *ModelRequest) {
			cp.apply(req)
			if labelsShown = r.pageRead.Load() || req.ToolMode == ToolRequired; labelsShown {
				req.System = full
			}
		}
	}
	o, err := l.run(ctx)
	if err != nil {
		return nil, err
	}
	return &researched{l: l, o: o, labelsShown: labelsShown}, nil
}

// reviewOnce is the research's review of a verdict before it is
// accepted (reviewWithLanguages): what it reports sends the verdict back
// once; in the forced final call, which leaves no turn to fix anything,
// it is only noted.
func (r *researcher) reviewOnce(ctx context.Context, prov *provenance) func(*verdictArgs, bool) error {
	sent := false
	return func(va *verdictArgs, forced bool) error {
		if sent {
			return nil
		}
		err := r.reviewWithLanguages(ctx, va, forced, prov)
		switch {
		case err == nil:
			return nil
		case forced:
			r.trace.note(fmt.Sprintf("no turn left to fix the %s (budget reached): %v", ToolSubmitVerdict, err))
			return err
		}
		sent = true
		r.trace.note(fmt.Sprintf("%s sent back once: %v", ToolSubmitVerdict, err))
		return err
	}
}

// searches are the searches made so far, for the critic.
func (r *researcher) searches() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.queries...)
}
