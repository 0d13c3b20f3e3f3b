package factcheck_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/search"
)

// In a run as of a date, every model call (the plan, each research turn,
// the recheck after bad evidence, the critic) carries the date as today,
// and results with no known date never reach the model: they are dropped
// and counted.
func TestAsOfDateInEveryCallUndatedDropped(t *testing.T) {
	const claim = "The bridge opened in 2019"
	const dated, undated = "https://news.example/bridge", "https://blog.example/bridge"
	s := &fct.Searcher{Results: map[string][]search.Result{"bridge": {
		{Title: "Bridge opens", URL: dated, Snippet: "The new bridge opened to traffic on 3 May 2019.", Published: "2019-05-03"},
		{Title: "Undated", URL: undated, Snippet: "UNDATED-SNIPPET"},
	}}}
	r := &fct.Reader{Pages: map[string]*search.Page{
		dated: {Title: "Bridge opens", Text: "The new bridge opened to traffic on 3 May 2019."},
	}}
	m := &fct.Model{Handle: fct.Script(
		fct.Call("web_search", map[string]string{"query": "bridge"}),
		fct.Call("read_page", map[string]string{"url": dated}), // the page has no date, its result has one
		fct.Call("submit_verdict", fct.Verdict{Verdict: "supported", Confidence: "high", Reasoning: "r",
			Evidence: []fct.Evidence{{SourceURL: dated, Supports: true, QuoteOrSummary: "a quote that is nowhere in the page"}}}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "supported", Confidence: "high", Reasoning: "r",
			Evidence: []fct.Evidence{{SourceURL: dated, Supports: true, QuoteOrSummary: "The new bridge opened to traffic on 3 May 2019."}}}),
	)}
	c := &factcheck.Checker{Model: m, Search: s, Reader: r}
	asOf := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	rep, err := c.Check(context.Background(), factcheck.Input{Text: claim, AsClaim: true, AsOf: asOf})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Claims[0]
	if v.Verdict != factcheck.Supported || v.Undated != 1 || r.Calls() != 1 {
		t.Errorf("verdict %s, undated %d, pages read %d; want supported, 1, 1\n%+v", v.Verdict, v.Undated, r.Calls(), v.Trace)
	}
	steps := map[string]int{}
	for _, req := range m.Requests() {
		steps[fct.Step(req)]++
		text := requestText(t, req)
		if !strings.Contains(text, "Today is 2020-01-01") {
			t.Errorf("a %q call lacks the date:\n%s", fct.Step(req), text)
		}
		if strings.Contains(text, "UNDATED-SNIPPET") {
			t.Error("an undated result reached the model")
		}
	}
	if steps[factcheck.ToolSubmitQuestions] != 1 || steps[factcheck.ToolSubmitReview] != 1 || steps[""] != 4 {
		t.Errorf("calls by step %v; want a plan, four research turns (one a recheck) and a critic", steps)
	}

	// KeepUndated lets them through.
	m = &fct.Model{Handle: fct.Script(
		fct.Call("web_search", map[string]string{"query": "bridge"}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "r", Evidence: []fct.Evidence{}}),
	)}
	c = &factcheck.Checker{Model: m, Search: s, Reader: r, KeepUndated: true}
	rep, err = c.Check(context.Background(), factcheck.Input{Text: claim, AsClaim: true, AsOf: asOf})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Claims[0].Undated != 0 || !strings.Contains(requestText(t, m.Research()[1]), "UNDATED-SNIPPET") {
		t.Errorf("with KeepUndated the undated result did not reach the model (undated %d)", rep.Claims[0].Undated)
	}
}

// A page the user linked to, with no known date, is dropped in a run as
// of a date.
func TestAsOfUndatedPageDropped(t *testing.T) {
	const link = "https://blog.example/post"
	r := &fct.Reader{Pages: map[string]*search.Page{link: {Title: "Post", Text: "UNDATED-PAGE"}}}
	m := &fct.Model{Handle: fct.Script(
		fct.Call(factcheck.ToolSubmitClaims, fct.Claims{Claims: []fct.Claim{{Claim: "The post says the bridge opened", Span: "the bridge opened"}}}),
		fct.Call("read_page", map[string]string{"url": link}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "r", Evidence: []fct.Evidence{}}),
	)}
	c := &factcheck.Checker{Model: m, Search: &fct.Searcher{}, Reader: r}
	rep, err := c.Check(context.Background(), factcheck.Input{Text: "the bridge opened " + link, AsOf: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if v := rep.Claims[0]; v.Undated != 1 {
		t.Errorf("undated %d; want 1\n%+v", v.Undated, v.Trace)
	}
	for _, req := range m.Requests() {
		if strings.Contains(requestText(t, req), "UNDATED-PAGE") {
			t.Error("the undated page reached the model")
		}
	}
}
