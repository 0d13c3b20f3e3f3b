package factcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/search"
)

type fakeFactChecks struct{}

func (fakeFactChecks) SearchFactChecks(ctx context.Context, q search.Query) (*search.Response, error) {
	return &search.Response{Query: q.Text, Provider: "factchecktools", Results: []search.Result{{
		Title: "Is the Great Wall visible from space?", URL: "https://www.snopes.com/fact-check/great-wall/",
		Snippet: "Claim: The Great Wall can be seen from space. Rating: False", Publisher: "Snopes", Rating: "False",
	}}}, nil
}

type notedSearcher struct{}

func (notedSearcher) Search(ctx context.Context, q search.Query) (*search.Response, error) {
	return &search.Response{Query: q.Text, Provider: "brave", Notes: []string{"tavily skipped: 429 rate limited, cooling down for 2m0s"},
		Results: []search.Result{{Title: "t", URL: "https://example.org/a", Snippet: "s"}}}, nil
}

func TestPublishedFactCheckInEvidence(t *testing.T) {
	m := &fct.Model{Handle: fct.Script(
		fct.Call("search_fact_checks", map[string]string{"query": "great wall visible from space"}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "Snopes rates it false.",
			Evidence: []fct.Evidence{{SourceURL: "https://www.snopes.com/fact-check/great-wall/", QuoteOrSummary: "Claim: The Great Wall can be seen from space. Rating: False"}}}),
	)}
	c := &factcheck.Checker{Model: m, Search: notedSearcher{}, Reader: &fct.Reader{}, FactChecks: fakeFactChecks{},
		Options: factcheck.Options{NoPrefetch: true}} // the script's turns are the model's own searches
	v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Evidence) != 1 || v.Evidence[0].Publisher != "Snopes" || v.Evidence[0].Rating != "False" || !v.Evidence[0].QuoteFound ||
		v.Evidence[0].QuoteMatch != (factcheck.QuoteMatch{Place: factcheck.QuoteInSnippet}) {
		t.Errorf("evidence = %+v, want the Snopes review with publisher and rating, quoted from its snippet", v.Evidence)
	}
	if v.Sources[0].Via != "fact_check" {
		t.Errorf("source via %q, want fact_check", v.Sources[0].Via)
	}
	// The tool is offered first, and the prompt asks for it first.
	req := m.Research()[0]
	if req.Tools[0].Name != "search_fact_checks" || !strings.Contains(req.System, "First call search_fact_checks") {
		t.Errorf("tools %v; the fact-check tool must come first", req.Tools)
	}
}

func TestTraceRecordsProviders(t *testing.T) {
	m := &fct.Model{Handle: fct.Script(
		fct.Call("web_search", map[string]string{"query": "q"}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "r"}),
	)}
	c := &factcheck.Checker{Model: m, Search: notedSearcher{}, Reader: &fct.Reader{}}
	v, err := c.VerifyClaim(context.Background(), "claim", "")
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, e := range v.Trace {
		if e.Kind == "note" {
			notes = append(notes, e.Note)
		}
	}
	got := strings.Join(notes, "\n")
	for _, want := range []string{"tavily skipped: 429", `search "q" answered by brave`} {
		if !strings.Contains(got, want) {
			t.Errorf("trace notes %q lack %q", got, want)
		}
	}
}

type disabledFactChecks struct{ calls int }

func (d *disabledFactChecks) SearchFactChecks(ctx context.Context, q search.Query) (*search.Response, error) {
	d.calls++
	return nil, &search.ProviderError{Provider: "factchecktools", Status: 403, Kind: search.ErrMisconfigured, Msg: "Fact Check Tools API has not been used in project 123 or it is disabled"}
}

// A key that cannot use the Fact Check Tools API fails once; later runs no
// longer offer the tool, so no step is wasted on it again.
func TestFactChecksDisabledAfterPermanentFailure(t *testing.T) {
	fc := &disabledFactChecks{}
	m := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		last := req.Messages[len(req.Messages)-1]
		if len(last.ToolResults) > 0 {
			return fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "r"}), nil
		}
		if req.Tools[0].Name == "search_fact_checks" {
			return fct.Call("search_fact_checks", map[string]string{"query": "q"}), nil
		}
		return fct.Call("web_search", map[string]string{"query": "q"}), nil
	}}
	c := &factcheck.Checker{Model: m, Search: notedSearcher{}, Reader: &fct.Reader{}, FactChecks: fc,
		Options: factcheck.Options{NoPrefetch: true}} // the model's own call is tested (TestRetrievalFactChecks: the retrieval's)
	for i := 0; i < 2; i++ {
		if _, err := c.VerifyClaim(context.Background(), "claim", ""); err != nil {
			t.Fatal(err)
		}
	}
	if fc.calls != 1 {
		t.Errorf("fact-check API called %d times, want 1", fc.calls)
	}
	reqs := m.Research()
	first := reqs[1].Messages[len(reqs[1].Messages)-1].ToolResults[0]
	if !strings.Contains(string(first.Content), "not available, use web_search") {
		t.Errorf("observation = %s", first.Content)
	}
	for _, tool := range reqs[len(reqs)-1].Tools {
		if tool.Name == "search_fact_checks" {
			t.Error("the second run still offers search_fact_checks")
		}
	}
	if strings.Contains(reqs[len(reqs)-1].System, "search_fact_checks") {
		t.Error("the second run's prompt still asks for search_fact_checks")
	}
}
