package factcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
)

// notes returns the trace's notes joined by newlines.
func notes(v *factcheck.Verdict) string {
	var ns []string
	for _, e := range v.Trace {
		if e.Kind == "note" {
			ns = append(ns, e.Note)
		}
	}
	return strings.Join(ns, "\n")
}

// lastObservation returns the content of the last tool result of req.
func lastObservation(req *factcheck.ModelRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if rs := req.Messages[i].ToolResults; len(rs) > 0 {
			return string(rs[len(rs)-1].Content)
		}
	}
	return ""
}

var (
	wallSearch = fct.Call("web_search", map[string]string{"query": "great wall visible from space"})
	wallRead   = fct.Call("read_page", map[string]string{"url": wallURL})
	goodQuote  = "generally isn't, at least to the unaided eye in low Earth orbit"
)

// Evidence that fails the checks, or stances at odds with the label, go
// back to the model once with what is wrong; a model that fixes them keeps
// its verdict instead of being downgraded.
func TestRecheckLetsTheModelFixItsVerdict(t *testing.T) {
	for _, tc := range []struct {
		name    string
		bad     fct.Verdict
		told    []string
		fixed   fct.Verdict
		want    factcheck.Label
		wantLen int
	}{
		{"unretrieved source and misquote",
			fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "r", Evidence: []fct.Evidence{
				{SourceURL: "https://invented.example/x", QuoteOrSummary: "anything"},
				{SourceURL: wallURL, QuoteOrSummary: "NASA says it cannot be seen"}}},
			[]string{"evidence 1: no tool returned https://invented.example/x", "evidence 2: the quote is not in the text retrieved for " + wallURL},
			fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "r", Evidence: []fct.Evidence{{SourceURL: wallURL, QuoteOrSummary: goodQuote}}},
			factcheck.Contradicted, 1},
		{"supported on refuting evidence only",
			fct.Verdict{Verdict: "supported", Confidence: "high", Reasoning: "r", Evidence: []fct.Evidence{{SourceURL: wallURL, QuoteOrSummary: goodQuote}}},
			[]string{"the verdict is supported but every source refutes the claim"},
			fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "r", Evidence: []fct.Evidence{{SourceURL: wallURL, QuoteOrSummary: goodQuote}}},
			factcheck.Contradicted, 1},
		{"contradicted on supporting evidence only",
			fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "r", Evidence: []fct.Evidence{{SourceURL: wallURL, Supports: true, QuoteOrSummary: goodQuote}}},
			[]string{"the verdict is contradicted but every source supports the claim"},
			fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "r", Evidence: []fct.Evidence{{SourceURL: wallURL, QuoteOrSummary: goodQuote}}},
			factcheck.Contradicted, 1},
		{"no evidence at all",
			fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "r"},
			[]string{"a contradicted verdict needs evidence"},
			fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "Nothing usable."},
			factcheck.Unverifiable, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &fct.Model{Handle: fct.Script(wallSearch, wallRead,
				fct.Call("submit_verdict", tc.bad), fct.Call("submit_verdict", tc.fixed))}
			v, err := checker(m).VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
			if err != nil {
				t.Fatal(err)
			}
			if v.Verdict != tc.want || len(v.Evidence) != tc.wantLen || v.StoppedBy != "" {
				t.Errorf("got %s with %+v stopped by %q, want %s with %d evidence", v.Verdict, v.Evidence, v.StoppedBy, tc.want, tc.wantLen)
			}
			if tc.wantLen > 0 && !v.Evidence[0].QuoteFound {
				t.Errorf("evidence %+v: quote not found", v.Evidence[0])
			}
			obs := lastObservation(m.Research()[3])
			for _, want := range append(tc.told, "rejected: ", "call submit_verdict again") {
				if !strings.Contains(obs, want) {
					t.Errorf("observation %s lacks %q", obs, want)
				}
			}
			if !strings.Contains(notes(v), "submit_verdict sent back once") {
				t.Errorf("trace notes %q do not record the send-back", notes(v))
			}
		})
	}
}

// When the budget is out the model has no turn to fix its evidence: the
// verdict is downgraded as before, and the trace says why.
func TestRecheckBudgetOut(t *testing.T) {
	bad := fct.Call("submit_verdict", fct.Verdict{Verdict: "supported", Confidence: "high", Reasoning: "Everyone knows.",
		Evidence: []fct.Evidence{{SourceURL: "https://never.example/retrieved", QuoteOrSummary: "x"}}})
	m := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		if req.ToolMode == factcheck.ToolRequired {
			return bad, nil
		}
		return wallSearch, nil
	}}
	c := checker(m)
	c.Budget = factcheck.Budget{Steps: 1}
	v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != factcheck.Unverifiable || v.StoppedBy != factcheck.BudgetSteps || len(m.Research()) != 2 {
		t.Errorf("got %s stopped by %q after %d research calls, want unverifiable, steps, 2 calls", v.Verdict, v.StoppedBy, len(m.Research()))
	}
	n := notes(v)
	for _, want := range []string{"no turn left to fix the submit_verdict (budget reached): evidence 1: no tool returned https://never.example/retrieved", "changed to unverifiable"} {
		if !strings.Contains(n, want) {
			t.Errorf("trace notes %q lack %q", n, want)
		}
	}
}

// Sent back on the last step, the model fixes its verdict in the forced
// final call; the budget still ends the run.
func TestRecheckOnTheLastStep(t *testing.T) {
	m := &fct.Model{Handle: fct.Script(wallSearch,
		fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "r", Evidence: []fct.Evidence{{SourceURL: wallURL, QuoteOrSummary: "made up"}}}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "r", Evidence: []fct.Evidence{{SourceURL: wallURL, QuoteOrSummary: "not visible to the naked eye"}}}),
	)}
	c := checker(m)
	c.Budget = factcheck.Budget{Steps: 2}
	v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != factcheck.Contradicted || v.StoppedBy != factcheck.BudgetSteps || len(v.Evidence) != 1 || !v.Evidence[0].QuoteFound {
		t.Errorf("got %s %+v stopped by %q, want contradicted with the quote found, stopped by steps", v.Verdict, v.Evidence, v.StoppedBy)
	}
	if forced := m.Research()[2]; forced.ToolMode != factcheck.ToolRequired || !strings.Contains(lastObservation(forced), "the quote is not in the text") {
		t.Errorf("forced call %+v does not carry the rejection", forced)
	}
}

// With NoRecheck the verdict is taken at once, and downgraded as before.
func TestNoRecheck(t *testing.T) {
	m := &fct.Model{Handle: fct.Script(
		fct.Call("submit_verdict", fct.Verdict{Verdict: "supported", Confidence: "high", Reasoning: "Everyone knows.",
			Evidence: []fct.Evidence{{SourceURL: "https://never.example/retrieved", QuoteOrSummary: "x"}}}))}
	c := checker(m)
	c.Options.NoRecheck = true
	v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != factcheck.Unverifiable || len(m.Research()) != 1 {
		t.Errorf("got %s after %d research calls, want unverifiable after 1", v.Verdict, len(m.Research()))
	}
}
