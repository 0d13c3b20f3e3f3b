package factcheck_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
)

// Closed book: one call, offered no tool but submit_verdict; its label
// stands with no evidence, and a link it wrote is not shown.
func TestClosedBook(t *testing.T) {
	m := &fct.Model{Handle: fct.Script(
		fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "It is not visible (see https://made.up/x).",
			Evidence: []fct.Evidence{{SourceURL: "https://made.up/x", QuoteOrSummary: "invented"}}}),
	)}
	s := &fct.Searcher{}
	c := &factcheck.Checker{Model: m, Search: s, Options: factcheck.Options{ClosedBook: true}}
	rep, err := c.Check(context.Background(), factcheck.Input{Text: "The Great Wall is visible from the Moon", AsClaim: true, AsOf: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Claims[0]
	if v.Verdict != factcheck.Contradicted || len(v.Evidence) != 0 || len(v.Sources) != 0 || strings.Contains(v.Reasoning, "made.up") {
		t.Errorf("verdict %s, evidence %v, sources %v, reasoning %q; want contradicted with nothing cited", v.Verdict, v.Evidence, v.Sources, v.Reasoning)
	}
	reqs := m.Requests()
	if len(reqs) != 1 || s.Calls() != 0 {
		t.Fatalf("%d model calls, %d searches; want 1 call and no search", len(reqs), s.Calls())
	}
	if len(reqs[0].Tools) != 1 || reqs[0].Tools[0].Name != factcheck.ToolSubmitVerdict || !strings.Contains(reqs[0].System, "Today is 2020-01-01") || !strings.Contains(reqs[0].System, "no tools") {
		t.Errorf("tools %v, system %q", reqs[0].Tools, reqs[0].System)
	}
}
