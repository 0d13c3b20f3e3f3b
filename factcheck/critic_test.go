package factcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
)

var (
	supportedOnSnippet = fct.Call("submit_verdict", fct.Verdict{Verdict: "supported", Confidence: "high", Reasoning: "Many say so.",
		Evidence: []fct.Evidence{{SourceURL: wallURL, Supports: true, QuoteOrSummary: "The Great Wall is not visible to the naked eye"}}})
	contradictedOnPage = fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "NASA says it is not visible.",
		Evidence: []fct.Evidence{{SourceURL: wallURL, QuoteOrSummary: goodQuote}}})
	sendBack = "The quote refutes the claim; read the NASA page and search for astronauts' accounts."
)

// The critic sees the verdict and its evidence, sends the researcher back
// once with its note, and the trace shows the note and the outcome.
func TestCriticSendsResearcherBack(t *testing.T) {
	reviews := 0
	m := &fct.Model{
		Review: func(*factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
			reviews++
			return fct.SendBack(sendBack), nil
		},
		Handle: fct.Script(wallSearch, supportedOnSnippet, wallRead, contradictedOnPage),
	}
	c := checker(m)
	c.Options.NoRecheck = true  // the stances are the critic's to catch here
	c.Options.NoPrefetch = true // the script's turns are the model's own searches and reads
	v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != factcheck.Contradicted || v.StoppedBy != "" || !v.Evidence[0].QuoteFound {
		t.Errorf("got %s %+v stopped by %q, want the revised contradicted verdict", v.Verdict, v.Evidence, v.StoppedBy)
	}
	if reviews != 1 {
		t.Errorf("critic called %d times, want once", reviews)
	}
	var review *factcheck.ModelRequest
	for _, r := range m.Requests() {
		if fct.Step(r) == factcheck.ToolSubmitReview {
			review = r
		}
	}
	prompt := fct.FirstUserText(review)
	for _, want := range []string{"<claim>\nThe Great Wall is visible from space\n</claim>", `Searches: "great wall visible from space"`,
		"Verdict: supported", "Reasoning: Many say so.", "1. supports: p1.1 in " + wallURL + ": [p1.1] The Great Wall is not visible to the naked eye from low Earth orbit."} {
		if !strings.Contains(prompt, want) {
			t.Errorf("critic prompt lacks %q:\n%s", want, prompt)
		}
	}
	// The researcher resumed with the note after its first verdict.
	resumed := m.Research()[2]
	if got := resumed.Messages[len(resumed.Messages)-1].Text; !strings.Contains(got, "A reviewer sent your verdict back: "+sendBack) {
		t.Errorf("resumed turn ends with %q, want the critic's note", got)
	}
	n := notes(v)
	for _, want := range []string{"critic sent the researcher back: " + sendBack, "after the critic: the verdict changed from supported to contradicted"} {
		if !strings.Contains(n, want) {
			t.Errorf("trace notes %q lack %q", n, want)
		}
	}
}

// The critic's send-back resumes the same budgets: here the steps run out,
// the forced call gives the final verdict, and the run says so.
func TestCriticSendBackUnderBudget(t *testing.T) {
	m := &fct.Model{
		Review: func(*factcheck.ModelRequest) (*factcheck.ModelResponse, error) { return fct.SendBack(sendBack), nil },
		Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
			switch {
			case req.ToolMode == factcheck.ToolRequired:
				return contradictedOnPage, nil
			case len(req.Messages) == 1:
				return wallSearch, nil
			case len(req.Messages) == 3:
				return supportedOnSnippet, nil
			}
			return wallRead, nil // the reads go on until the steps run out
		},
	}
	c := checker(m)
	c.Options.NoRecheck = true
	c.Budget = factcheck.Budget{Steps: 3, Reads: 10}
	v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.StoppedBy != factcheck.BudgetSteps || v.Verdict != factcheck.Contradicted {
		t.Errorf("got %s stopped by %q, want contradicted from the forced call, stopped by steps", v.Verdict, v.StoppedBy)
	}
	// search, verdict, one read (the last step), then the forced call.
	if got := len(m.Research()); got != 4 {
		t.Errorf("research calls = %d, want 4: 3 steps and the forced call", got)
	}
	reviews := 0
	for _, r := range m.Requests() {
		if fct.Step(r) == factcheck.ToolSubmitReview {
			reviews++
		}
	}
	if reviews != 1 {
		t.Errorf("critic called %d times, want once", reviews)
	}
	if n := notes(v); !strings.Contains(n, "critic sent the researcher back") || !strings.Contains(n, "budget reached: steps") {
		t.Errorf("trace notes %q lack the send-back and the budget", n)
	}
}

// A run the budget ended is not reviewed; an approving critic changes
// nothing; NoCritic makes no critic call.
func TestCriticSkipped(t *testing.T) {
	t.Run("budget", func(t *testing.T) {
		m := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
			if req.ToolMode == factcheck.ToolRequired {
				return contradictedOnPage, nil
			}
			return wallSearch, nil
		}}
		c := checker(m)
		c.Budget = factcheck.Budget{Steps: 1}
		v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(notes(v), "critic skipped: the steps budget was reached") || m.Calls() != 3 {
			t.Errorf("notes %q after %d calls; want the critic skipped (plan, step, forced)", notes(v), m.Calls())
		}
	})
	t.Run("approves", func(t *testing.T) {
		m := &fct.Model{Handle: fct.Script(wallSearch, wallRead, contradictedOnPage)}
		v, err := checker(m).VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
		if err != nil {
			t.Fatal(err)
		}
		if v.Verdict != factcheck.Contradicted || !strings.Contains(notes(v), "critic: the verdict stands") {
			t.Errorf("got %s, notes %q", v.Verdict, notes(v))
		}
	})
	t.Run("off", func(t *testing.T) {
		m := &fct.Model{Handle: fct.Script(wallSearch, wallRead, contradictedOnPage)}
		c := checker(m)
		c.Options.NoCritic = true
		if _, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", ""); err != nil {
			t.Fatal(err)
		}
		for _, r := range m.Requests() {
			if fct.Step(r) == factcheck.ToolSubmitReview {
				t.Error("the critic was called with NoCritic")
			}
		}
	})
}
