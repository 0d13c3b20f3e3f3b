package eval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
)

// Checker checks text; *factcheck.Checker satisfies it.
type Checker interface {
	Check(ctx context.Context, in factcheck.Input) (*factcheck.Report, error)
}

// Tenant is the cache tenant evaluation runs use.
const Tenant = "eval"

// Result is the outcome of one case: one line of a results file.
type Result struct {
	ID    string          `json:"id"`
	Claim string          `json:"claim"`
	Label factcheck.Label `json:"label"` // the gold label
	// Predicted is the first verdict's label; unverifiable when no claim
	// was extracted. Empty when Error is set.
	Predicted  factcheck.Label      `json:"predicted,omitempty"`
	Correct    bool                 `json:"correct"`
	Confidence factcheck.Confidence `json:"confidence,omitempty"`
	// Scores are the first verdict's per-label scores (1–5), when the
	// model gave them: what eval --fit calibrates on.
	Scores map[factcheck.Label]float64 `json:"scores,omitempty"`
	// AsOf is the date the claim was checked as of (YYYY-MM-DD), if any.
	AsOf      string               `json:"as_of,omitempty"`
	Reasoning string               `json:"reasoning,omitempty"`
	Evidence  []factcheck.Evidence `json:"evidence,omitempty"`
	// Questions are the first verdict's plan: what --predictions pairs
	// the evidence with.
	Questions []string `json:"questions,omitempty"`
	Model     string   `json:"model,omitempty"`
	// NoClaim is true when the checker found no claim in the text.
	NoClaim bool `json:"no_claim,omitempty"`
	// Claims is how many claims the checker extracted from the text.
	Claims int `json:"claims"`

	// Provenance over every verdict of the report: cited evidence URLs,
	// how many of them were retrieved in the run (in the verdict's
	// Sources), and how many evidence quotes were found verbatim.
	CitedURLs      int `json:"cited_urls"`
	CitedRetrieved int `json:"cited_retrieved"`
	EvidenceItems  int `json:"evidence_items"`
	QuotesFound    int `json:"quotes_found"`

	// Effort, from the traces and usage of the whole report.
	Searches     int     `json:"searches"`
	Reads        int     `json:"reads"`
	PromptTokens int     `json:"prompt_tokens"`
	OutputTokens int     `json:"output_tokens"`
	CachedTokens int     `json:"cached_tokens,omitempty"` // part of PromptTokens served from the prompt cache
	Seconds      float64 `json:"seconds"`
	// Undated counts results and pages dropped for having no known date
	// (a claim checked as of its date, without --keep-undated).
	Undated int `json:"undated,omitempty"`
	// StoppedBy is the budget that ended the first verdict's run, if any.
	StoppedBy string `json:"stopped_by,omitempty"`
	// VerdictError is the first verdict's Error (it could not be checked).
	VerdictError string `json:"verdict_error,omitempty"`
	// Error is set when the checker failed on the whole input; such
	// results count as errors, not predictions, and --resume retries them.
	Error string `json:"error,omitempty"`
}

// Runner checks cases with bounded concurrency, writing each result as
// soon as it is known.
type Runner struct {
	Checker Checker
	// Concurrency bounds the claims checked at once (default 2).
	Concurrency int
	// Out receives one JSON line per finished case; nil for none. Writes
	// are serialised.
	Out io.Writer
	// Progress receives a progress bar; nil for none.
	Progress io.Writer
	// Now returns the time; tests set it. Default time.Now.
	Now func() time.Time
	// AsGiven verifies each case's claim as given
	// (factcheck.Input.AsClaim): there is no extraction call.
	// Datasets of single claims, such as AVeriTeC, are run so.
	AsGiven bool
	// AsOf checks each case that has a Date as of that date.
	AsOf bool
	// ExcludeArticle keeps each case's own Article (its published
	// fact-check) and its copies on mirrors out of the check's searches
	// and page reads, by address: a leak-free run on AVeriTeC sets it.
	ExcludeArticle bool
	// StoreClaims passes each case's ID as the claim the knowledge store
	// serves (factcheck.Input.StoreClaim), with every search and read.
	StoreClaims bool
	// Hold, if set, is called before each case is checked, and the
	// release it returns once the check is done (the knowledge store
	// loads the claim's documents for the check and frees them after).
	// Its error is the case's result: counted in the summary's errors.
	Hold func(Case) (release func(), err error)
}

// input is what the checker is asked for case c.
func (r *Runner) input(c Case) factcheck.Input {
	in := factcheck.Input{Tenant: Tenant, Text: c.Claim, Fresh: true, AsClaim: r.AsGiven, Speaker: c.Speaker, Source: c.Source}
	if r.AsOf {
		in.AsOf = c.Date
	}
	if r.ExcludeArticle && c.Article != "" {
		in.ExcludeURLs = []string{c.Article}
	}
	if r.StoreClaims {
		in.StoreClaim = c.ID
	}
	return in
}

// Run checks every case that has no successful result in done (from an
// earlier, interrupted run) and returns the results of all cases that have
// one, in the order of cases. It stops early, returning what it has and
// the error, when ctx ends or the checker reports a configuration error.
func (r *Runner) Run(ctx context.Context, cases []Case, done []Result) ([]Result, error) {
	now := r.Now
	if now == nil {
		now = time.Now
	}
	conc := r.Concurrency
	if conc <= 0 {
		conc = 2
	}
	results, todo := resume(cases, done)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st := &runState{results: results, bar: newProgress(r.Progress, len(cases)), cancel: cancel, out: r.Out}
	for _, res := range results {
		if res != nil {
			st.bar.add(res)
		}
	}
	st.bar.draw()
	sem := make(chan struct{}, conc)
	var wg sync.WaitGroup
loop:
	for _, i := range todo {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			break loop
		}
		if ctx.Err() != nil { // select may pick a free slot after the run was stopped
			<-sem
			break loop
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c := cases[i]
			start := now()
			in := r.input(c)
			rep, err := r.check(ctx, c, in)
			elapsed := now().Sub(start)
			if err != nil && ctx.Err() != nil {
				return // interrupted: not a result
			}
			res := score(c, rep, err, elapsed)
			if !in.AsOf.IsZero() {
				res.AsOf = in.AsOf.Format(time.DateOnly)
			}
			st.record(i, res, err)
		}()
	}
	wg.Wait()
	st.bar.finish()
	out := make([]Result, 0, len(cases))
	for _, res := range results {
		if res != nil {
			out = append(out, *res)
		}
	}
	if st.firstErr == nil && ctx.Err() != nil {
		st.firstErr = ctx.Err()
	}
	return out, st.firstErr
}

// check checks one case, holding what it needs (Hold) for the check
// only.
func (r *Runner) check(ctx context.Context, c Case, in factcheck.Input) (*factcheck.Report, error) {
	if r.Hold != nil {
		release, err := r.Hold(c)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	return r.Checker.Check(ctx, in)
}

// resume places the results of an earlier run (done) beside their cases and
// lists the cases still to run: those never run, or whose last result was
// an error.
func resume(cases []Case, done []Result) (results []*Result, todo []int) {
	have := map[string]Result{}
	for _, d := range done {
		if d.Error == "" {
			have[d.ID] = d
		} else {
			delete(have, d.ID) // a later failure of the same id
		}
	}
	results = make([]*Result, len(cases))
	for i, c := range cases {
		if d, ok := have[c.ID]; ok {
			results[i] = &d
			continue
		}
		todo = append(todo, i)
	}
	return results, todo
}

// runState is what the concurrent checks of one run share.
type runState struct {
	mu       sync.Mutex
	results  []*Result
	bar      *progress
	out      io.Writer
	cancel   context.CancelFunc
	firstErr error
}

// record keeps case i's result: written out at once (so a stopped run can
// resume), shown on the progress bar. A configuration error stops the run
// instead: every other case would fail the same way.
func (st *runState) record(i int, res *Result, err error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	var ce *usererr.Config
	if errors.As(err, &ce) {
		if st.firstErr == nil {
			st.firstErr = err
		}
		st.cancel()
		return
	}
	if st.out != nil {
		line, _ := json.Marshal(res)
		if _, werr := st.out.Write(append(line, '\n')); werr != nil && st.firstErr == nil {
			st.firstErr = fmt.Errorf("writing results: %w", werr)
			st.cancel()
		}
	}
	st.results[i] = res
	st.bar.add(res)
	st.bar.draw()
}

// score turns one report into a Result.
func score(c Case, rep *factcheck.Report, err error, elapsed time.Duration) *Result {
	res := &Result{ID: c.ID, Claim: c.Claim, Label: c.Label, Seconds: elapsed.Seconds()}
	if err != nil {
		res.Error = err.Error()
		return res
	}
	if rep == nil {
		res.Error = "checker returned no report"
		return res
	}
	res.Model = rep.Model
	res.Claims = len(rep.Claims)
	usage := rep.Usage
	if usage == (factcheck.Usage{}) {
		for _, v := range rep.Claims {
			usage = usage.Add(v.Usage)
		}
	}
	res.PromptTokens, res.OutputTokens, res.CachedTokens = usage.PromptTokens, usage.OutputTokens, usage.CachedTokens
	countTools(rep.Trace, res)
	for _, v := range rep.Claims {
		if v == nil {
			continue
		}
		countTools(v.Trace, res)
		res.Undated += v.Undated
		retrieved := map[string]bool{}
		for _, s := range v.Sources {
			retrieved[s.URL] = true
		}
		cited := map[string]bool{}
		for _, e := range v.Evidence {
			res.EvidenceItems++
			if e.QuoteFound {
				res.QuotesFound++
			}
			if e.SourceURL == "" || cited[e.SourceURL] {
				continue
			}
			cited[e.SourceURL] = true
			res.CitedURLs++
			if retrieved[e.SourceURL] {
				res.CitedRetrieved++
			}
		}
	}
	if len(rep.Claims) == 0 || rep.Claims[0] == nil {
		res.NoClaim = true
		res.Predicted = factcheck.Unverifiable
	} else {
		v := rep.Claims[0]
		res.Predicted = v.Verdict
		if !res.Predicted.Valid() {
			res.Predicted = factcheck.Unverifiable
		}
		res.Confidence, res.Reasoning, res.Evidence, res.Scores = v.Confidence, v.Reasoning, v.Evidence, v.Scores
		res.StoppedBy, res.VerdictError = v.StoppedBy, v.Error
		res.Questions = v.Questions
		if res.Model == "" {
			res.Model = v.Model
		}
	}
	res.Correct = res.Predicted == res.Label
	return res
}

// countTools counts searches and page reads actually made (calls refused
// by a budget are not counted).
func countTools(trace []factcheck.TraceEvent, res *Result) {
	for _, ev := range trace {
		if ev.Kind != "tool" || strings.HasPrefix(ev.Error, "budget used up") {
			continue
		}
		switch ev.Tool {
		case factcheck.ToolWebSearch, factcheck.ToolFactChecks:
			res.Searches++
		case factcheck.ToolReadPage:
			res.Reads++
		}
	}
}

// ReadResults reads a results file written by Run. Later lines for the same
// id replace earlier ones. A final line cut short by an interruption is
// ignored; any other bad line is an error.
func ReadResults(r io.Reader) ([]Result, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var out []Result
	index := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	lines := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		lines++
	}
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var res Result
		if err := json.Unmarshal(line, &res); err != nil || res.ID == "" {
			if n == lines && !bytes.HasSuffix(data, []byte("\n")) {
				break // torn last write
			}
			return nil, fmt.Errorf("results line %d is not a result: %v", n, err)
		}
		if i, ok := index[res.ID]; ok {
			out[i] = res
			continue
		}
		index[res.ID] = len(out)
		out = append(out, res)
	}
	return out, sc.Err()
}

// progress draws a one-line progress bar.
type progress struct {
	w                    io.Writer
	total                int
	done, scored, right  int
	errs                 int
	promptTok, outputTok int
}

func newProgress(w io.Writer, total int) *progress { return &progress{w: w, total: total} }

func (p *progress) add(r *Result) {
	p.done++
	p.promptTok += r.PromptTokens
	p.outputTok += r.OutputTokens
	if r.Error != "" {
		p.errs++
		return
	}
	p.scored++
	if r.Correct {
		p.right++
	}
}

const barWidth = 24

func (p *progress) draw() {
	if p.w == nil {
		return
	}
	filled := 0
	if p.total > 0 {
		filled = p.done * barWidth / p.total
	}
	acc := "  -  "
	if p.scored > 0 {
		acc = fmt.Sprintf("%4.1f%%", 100*float64(p.right)/float64(p.scored))
	}
	line := fmt.Sprintf("\r[%s%s] %d/%d  accuracy %s  tokens %s in / %s out",
		strings.Repeat("#", filled), strings.Repeat(".", barWidth-filled), p.done, p.total, acc, humanCount(p.promptTok), humanCount(p.outputTok))
	if p.errs > 0 {
		line += fmt.Sprintf("  errors %d", p.errs)
	}
	fmt.Fprint(p.w, line+"  ")
}

func (p *progress) finish() {
	if p.w != nil {
		fmt.Fprintln(p.w)
	}
}

// humanCount writes 1234567 as 1.2M.
func humanCount(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%dk", n/1000)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
