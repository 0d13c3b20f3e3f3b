package factcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/factcheck/evidence"
)

// Retrieval before the first research turn (Options.NoPrefetch unset):
// the code searches the plan's questions and the claim at once, in
// parallel, then reads in parallel the pages of the results that best
// answer them (by BM25 over their titles and snippets, the passages'
// ranker), so that the model's first research turn already holds the
// evidence; the model keeps its tools and searches and reads more when it
// does not settle the claim. The searches and reads go through the
// research tools' own functions (webSearch, readPage): the same budgets,
// restriction, library, progress events and provenance. A search or a
// page that fails becomes an observation, as in the loop.

// retrieved is what the code retrieved before the first research turn:
// the observations as the first turn shows them (whole) and as later
// turns keep them (compact: their answers to the questions), and what
// they spent of the budgets.
type retrieved struct {
	whole, compact  string
	searches, reads int
	// factChecks says published fact-checks were searched (the claim,
	// with search_fact_checks).
	factChecks bool
}

// retrievedStep is one search or read the code made, as the model sees it.
type retrievedStep struct {
	tool, arg string
	content   json.RawMessage
	failed    bool
}

// retrieve searches and reads before the first research turn, within the
// budgets: all but one of the searches and of the reads at most (one of
// each is left to the model; a budget of one is spent here), and what is
// left of the wall time. Without a page reader nothing is read.
func (r *researcher) retrieve(ctx context.Context, start time.Time) retrieved {
	ctx, cancel := context.WithTimeout(ctx, r.b.Time-r.trace.now().Sub(start))
	defer cancel()
	n := max(r.b.Searches-1, min(r.b.Searches, 1))
	var calls []retrievalCall
	if r.factChecks && n > 1 { // published fact-checks first, as the prompt asks of the model
		calls = append(calls, retrievalCall{ToolFactChecks, truncate(r.claim, 300)})
	}
	for _, q := range r.retrievalQueries(n - len(calls)) {
		calls = append(calls, retrievalCall{ToolWebSearch, q})
	}
	steps := r.parallel(ctx, calls)
	var reads []retrievalCall
	if r.c.Reader != nil { // else read_page says why, if the model asks
		for _, u := range r.bestPages(steps, max(r.b.Reads-1, min(r.b.Reads, 1))) {
			reads = append(reads, retrievalCall{ToolReadPage, u})
		}
	}
	steps = append(steps, r.parallel(ctx, reads)...)
	if len(steps) == 0 {
		return retrieved{}
	}
	out := retrieved{searches: len(calls), reads: len(reads), factChecks: len(calls) > 0 && calls[0].tool == ToolFactChecks}
	head := fmt.Sprintf("\n\nRetrieved for you before your first turn (%d of %d searches, %d of %d reads spent; DATA):\n<retrieved>", out.searches, r.b.Searches, out.reads, r.b.Reads)
	var whole, compact strings.Builder
	whole.WriteString(head)
	compact.WriteString(head)
	t := &transcript{lib: r.lib, questions: r.questions}
	for _, s := range steps {
		fmt.Fprintf(&whole, "\n%s(%s) → %s", s.tool, s.arg, s.content)
		fmt.Fprintf(&compact, "\n%s(%s) → %s", s.tool, s.arg, foldResult(t.compact(s.tool, s.content)))
	}
	whole.WriteString("\n</retrieved>")
	compact.WriteString("\n</retrieved>")
	out.whole, out.compact = whole.String(), compact.String()
	r.trace.note(fmt.Sprintf("retrieved before the first turn: %d searches, %d reads", out.searches, out.reads))
	return out
}

// retrievalQueries are the searches made before the first turn, at most
// n: the plan's questions, then the claim. Each is marked as searched in
// its language (searchlang.go).
func (r *researcher) retrievalQueries(n int) []string {
	var qs []string
	seen := map[string]bool{}
	for _, q := range append(append([]string(nil), r.plan...), truncate(r.claim, 300)) {
		k := normalizeForMatch(q)
		if len(qs) >= n || k == "" || seen[k] {
			continue
		}
		seen[k] = true
		qs = append(qs, q)
	}
	if r.langs != nil {
		r.mu.Lock()
		for _, q := range qs {
			r.langs.searched[r.langs.english(q)] = true
		}
		r.mu.Unlock()
	}
	return qs
}

// retrievalCall is a search or a read the retrieval makes: the tool and
// its one argument.
type retrievalCall struct{ tool, arg string }

// run makes the call through the research tool's own function.
func (c retrievalCall) run(ctx context.Context, r *researcher) (any, error) {
	switch c.tool {
	case ToolFactChecks:
		return r.factCheckSearch(ctx, c.arg)
	case ToolReadPage:
		return r.readPage(ctx, readPageArgs{URL: c.arg})
	}
	return r.webSearch(ctx, c.arg)
}

// parallel makes every call at once and returns each outcome as the model
// sees it, in the calls' order; an error is an observation.
func (r *researcher) parallel(ctx context.Context, calls []retrievalCall) []retrievedStep {
	out := make([]retrievedStep, len(calls))
	var wg sync.WaitGroup
	for i, call := range calls {
		tool, a := call.tool, call.arg
		wg.Add(1)
		go func() {
			defer wg.Done()
			sctx, span := startToolSpan(ctx, tool)
			content, err := observe(call.run(sctx, r))
			endToolSpan(span, len(content), err)
			ev := TraceEvent{Kind: "tool", Tool: tool, Args: truncate(a, 500), ResultBytes: len(content), Note: "retrieved before the first turn"}
			if err != nil {
				ev.Error = err.Error()
			}
			r.trace.add(ev)
			out[i] = retrievedStep{tool: tool, arg: a, content: content, failed: err != nil}
		}()
	}
	wg.Wait()
	return out
}

// observe is a tool's result as an observation: its JSON, or the error.
func observe(v any, err error) (json.RawMessage, error) {
	if err != nil {
		return errorObservation(err), err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return errorObservation(err), err
	}
	return b, nil
}

// bestPages are the URLs of at most n search results whose titles and
// snippets best answer the questions and the claim by BM25 (the sum of
// their scores for each they may answer, as the passages are ranked),
// best first; results that answer none are not read.
func (r *researcher) bestPages(steps []retrievedStep, n int) []string {
	var urls, texts []string
	seen := map[string]bool{}
	for _, s := range steps {
		var o searchObservation
		if json.Unmarshal(s.content, &o) != nil {
			continue
		}
		for _, res := range o.Results {
			k := urlKey(res.URL)
			if k == "" || seen[k] || r.restrict.Excluded(res.URL) {
				continue
			}
			seen[k] = true
			urls = append(urls, res.URL)
			texts = append(texts, res.Title+". "+shownID().ReplaceAllString(res.Snippet+" "+res.Summary, ""))
		}
	}
	if len(urls) == 0 || n <= 0 {
		return nil
	}
	about := append(append([]evidence.Query(nil), r.questions...), evidence.NewQuery(r.claim))
	score := make([]float64, len(urls))
	for _, hits := range evidence.NewRanker(texts).Ranked(about) {
		for _, h := range hits {
			score[h.I] += h.Score
		}
	}
	order := make([]int, len(urls))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
	var out []string
	for _, i := range order {
		if score[i] <= 0 || len(out) >= n {
			break
		}
		out = append(out, urls[i])
	}
	return out
}
