package factcheck_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/search"
)

const wallURL = "https://www.nasa.gov/great-wall"

func wallSearcher() *fct.Searcher {
	return &fct.Searcher{Results: map[string][]search.Result{
		"great wall visible from space":     {{Title: "Great Wall myth", URL: wallURL, Snippet: "The Great Wall is not visible to the naked eye from low Earth orbit.", Score: 0.9}},
		"great wall seen from orbit debunk": {{Title: "Snopes", URL: "https://www.snopes.com/wall", Snippet: "Astronauts say the wall cannot be seen."}},
	}}
}

func wallReader() *fct.Reader {
	return &fct.Reader{Pages: map[string]*search.Page{
		wallURL: {Title: "NASA: The Great Wall from space", Text: "Intro.\nThe Great Wall of China, frequently billed as the only man-made object visible from space, generally isn't, at least to the unaided eye in low Earth orbit.\nOther text.", SHA256: "abc123", FetchedAt: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)},
	}}
}

func checker(m factcheck.Model) *factcheck.Checker {
	return &factcheck.Checker{Model: m, Search: wallSearcher(), Reader: wallReader()}
}

func TestVerifySearchReadSubmit(t *testing.T) {
	m := &fct.Model{Handle: fct.Script(
		fct.Call("web_search", map[string]string{"query": "great wall visible from space"}),
		fct.Call("read_page", map[string]string{"url": wallURL}),
		fct.Call("web_search", map[string]string{"query": "great wall seen from orbit debunk"}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "NASA says it is not visible.",
			Evidence: []fct.Evidence{{SourceURL: wallURL, SourceTitle: "x", Supports: false,
				QuoteOrSummary: "frequently billed as the only man-made object visible from space, generally isn't"}}}),
	)}
	c := checker(m)
	c.Options.NoPrefetch = true // the script's turns are the model's own searches and reads
	v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	// The quote shown is the whole sentence the model's words come from.
	want := []factcheck.Evidence{{SourceURL: wallURL, SourceTitle: "NASA: The Great Wall from space", Supports: false, Stance: factcheck.StanceRefutes,
		QuoteOrSummary: "The Great Wall of China, frequently billed as the only man-made object visible from space, generally isn't, at least to the unaided eye in low Earth orbit.",
		Passage:        "p1.3", QuoteFound: true,
		QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}}}
	if diff := cmp.Diff(want, v.Evidence); diff != "" {
		t.Errorf("evidence (-want +got):\n%s", diff)
	}
	if v.Verdict != factcheck.Contradicted || v.Confidence != factcheck.High || v.StoppedBy != "" {
		t.Errorf("verdict = %s/%s stopped by %q, want contradicted/high, not stopped", v.Verdict, v.Confidence, v.StoppedBy)
	}
	var tools []string
	for _, e := range v.Trace {
		if e.Kind == "tool" {
			tools = append(tools, e.Tool)
		}
	}
	if diff := cmp.Diff([]string{"submit_questions", "web_search", "read_page", "web_search", "submit_verdict", "submit_review"}, tools); diff != "" {
		t.Errorf("traced tools (-want +got):\n%s", diff)
	}
	if len(v.Sources) != 2 || v.Sources[0].SHA256 != "abc123" || !v.Sources[0].Cited || v.Sources[1].Cited {
		t.Errorf("sources = %+v, want the NASA page (read, hashed, cited) then Snopes (not cited)", v.Sources)
	}
	if v.Usage.PromptTokens != 600 {
		t.Errorf("usage = %+v, want 600 prompt tokens over 6 calls: the plan, 4 research turns and the critic", v.Usage)
	}
	// The read_page observation was sent back to the model as data.
	last := m.Research()[3]
	var found bool
	for _, msg := range last.Messages {
		for _, r := range msg.ToolResults {
			if r.Name == "read_page" && strings.Contains(string(r.Content), "unaided eye") {
				found = true
			}
		}
	}
	if !found {
		t.Error("the page text was not sent back to the model")
	}
}

func TestModelThatNeverStops(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reply  *factcheck.ModelResponse
		budget factcheck.Budget
		want   string
	}{
		{"searches forever", fct.Call("web_search", map[string]string{"query": "great wall visible from space"}), factcheck.Budget{Searches: 2, Steps: 10}, factcheck.BudgetSearches},
		{"talks forever", fct.Text("Let me think about it some more."), factcheck.Budget{Steps: 3}, factcheck.BudgetSteps},
		{"reads forever", fct.Call("read_page", map[string]string{"url": "https://example.com/nowhere"}), factcheck.Budget{Steps: 4, Reads: 100, PromptTokens: 250}, factcheck.BudgetPromptTokens},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var forced *factcheck.ModelRequest
			m := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
				if req.ToolMode == factcheck.ToolRequired {
					forced = req
					return fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "Ran out of budget."}), nil
				}
				return tc.reply, nil
			}}
			c := checker(m)
			c.Budget = tc.budget
			v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
			if err != nil {
				t.Fatal(err)
			}
			if v.StoppedBy != tc.want {
				t.Errorf("StoppedBy = %q, want %q", v.StoppedBy, tc.want)
			}
			if forced == nil {
				t.Fatal("no forced final call")
			}
			if diff := cmp.Diff([]string{"submit_verdict"}, forced.Allowed); diff != "" {
				t.Errorf("forced call allowed tools (-want +got):\n%s", diff)
			}
			if len(forced.Tools) != 1 || forced.Tools[0].Name != "submit_verdict" {
				t.Errorf("forced call offers %d tools, want only submit_verdict", len(forced.Tools))
			}
			if v.Verdict != factcheck.Unverifiable || v.Reasoning != "Ran out of budget." {
				t.Errorf("verdict = %s %q, want the forced one", v.Verdict, v.Reasoning)
			}
		})
	}
}

func TestForcedCallGarbage(t *testing.T) {
	m := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		return fct.Text("I cannot decide {not json"), nil
	}}
	c := checker(m)
	c.Budget = factcheck.Budget{Steps: 2}
	v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != factcheck.Unverifiable || v.Confidence != factcheck.Low || v.StoppedBy != factcheck.BudgetSteps {
		t.Errorf("got %s/%s stopped by %q, want unverifiable/low stopped by steps", v.Verdict, v.Confidence, v.StoppedBy)
	}
	if !strings.Contains(v.Reasoning, "steps budget") {
		t.Errorf("reasoning %q does not explain the budget", v.Reasoning)
	}
	if len(m.Research()) != 3 {
		t.Errorf("research calls = %d, want 2 steps + 1 forced", len(m.Research()))
	}
}

func TestVerdictAsText(t *testing.T) {
	verdict := `{"verdict":"contradicted","confidence":"medium","reasoning":"Not visible.","evidence":[{"source_url":"` + wallURL + `","source_title":"t","supports":false,"quote_or_summary":"generally isn't, at least to the unaided eye"}]}`
	for name, text := range map[string]string{
		"fenced":      "Here is my verdict:\n```json\n" + verdict + "\n```\nThanks.",
		"prose":       "After checking, " + verdict + " is my answer.",
		"bare":        verdict,
		"fenced-bare": "```\n" + verdict + "\n```",
	} {
		t.Run(name, func(t *testing.T) {
			// The quote is not in the snippet: the answer goes back once, and
			// the model insists.
			m := &fct.Model{Handle: fct.Script(
				fct.Call("web_search", map[string]string{"query": "great wall visible from space"}),
				fct.Text(text),
				fct.Text(text),
			)}
			v, err := checker(m).VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
			if err != nil {
				t.Fatal(err)
			}
			if v.Verdict != factcheck.Contradicted || len(v.Evidence) != 1 || v.Evidence[0].QuoteFound {
				// Only the search ran: its snippet says "not visible to the naked
				// eye", not "generally isn't, at least to the unaided eye", which
				// is on the page never read, so the quote is not found.
				t.Errorf("got %s with %+v, want contradicted with one unverified-quote evidence", v.Verdict, v.Evidence)
			}
			msgs := m.Research()[2].Messages
			if got := msgs[len(msgs)-1].Text; !strings.Contains(got, "the quote is not in the text retrieved for "+wallURL) {
				t.Errorf("the model was told %q, want what was wrong with its quote", got)
			}
		})
	}
}

func TestEvidenceProvenance(t *testing.T) {
	// The model is told what is wrong once and submits the same again.
	submit := fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "r",
		Evidence: []fct.Evidence{
			{SourceURL: "https://invented.example.org/proof", SourceTitle: "Made up", QuoteOrSummary: "anything"},
			{SourceURL: "HTTPS://WWW.NASA.GOV/great-wall/?utm_source=x", SourceTitle: "NASA", QuoteOrSummary: "This sentence is not on the page."},
		}})
	m := &fct.Model{Handle: fct.Script(
		fct.Call("web_search", map[string]string{"query": "great wall visible from space"}),
		submit, submit,
	)}
	v, err := checker(m).VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Evidence) != 1 || v.Evidence[0].SourceURL != wallURL {
		t.Fatalf("evidence = %+v, want only the retrieved NASA URL, as retrieved", v.Evidence)
	}
	if v.Evidence[0].QuoteFound {
		t.Error("a quote absent from the retrieved text is marked found")
	}
	var notes []string
	for _, e := range v.Trace {
		if e.Kind == "note" {
			notes = append(notes, e.Note)
		}
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"submit_verdict sent back once", "removed evidence: no tool returned https://invented.example.org/proof", "quote not found"} {
		if !strings.Contains(joined, want) {
			t.Errorf("trace notes %q lack %q", joined, want)
		}
	}
}

func TestVerdictWithoutEvidenceBecomesUnverifiable(t *testing.T) {
	// Told once that the source was never retrieved, the model insists.
	submit := fct.Call("submit_verdict", fct.Verdict{Verdict: "supported", Confidence: "high", Reasoning: "Everyone knows.",
		Evidence: []fct.Evidence{{SourceURL: "https://never.example/retrieved", QuoteOrSummary: "x"}}})
	m := &fct.Model{Handle: fct.Script(submit, submit)}
	v, err := checker(m).VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != factcheck.Unverifiable || v.Confidence != factcheck.Low || len(v.Evidence) != 0 {
		t.Errorf("got %s/%s with %d evidence, want unverifiable/low with none", v.Verdict, v.Confidence, len(v.Evidence))
	}
	if !strings.Contains(v.Reasoning, "No source retrieved") {
		t.Errorf("reasoning %q does not say why", v.Reasoning)
	}
}

func TestToolFailuresAreObservations(t *testing.T) {
	m := &fct.Model{Handle: fct.Script(
		fct.Call("delete_everything", map[string]string{}),
		fct.Call("web_search", map[string]int{"query": 3}),
		fct.Call("web_search", map[string]string{}),
		fct.Call("read_page", map[string]string{"url": "https://not-from-a-search.example/"}),
		fct.Call("web_search", map[string]string{"query": "nothing matches this"}),
		fct.Call("submit_verdict", map[string]string{"verdict": "true", "confidence": "sure"}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "Nothing found."}),
	)}
	c := checker(m)
	c.Budget = factcheck.Budget{Searches: 10, Steps: 10}
	v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != factcheck.Unverifiable || v.StoppedBy != "" {
		t.Errorf("got %s stopped by %q", v.Verdict, v.StoppedBy)
	}
	reqs := m.Research()
	obs := func(i int) string {
		msgs := reqs[i].Messages
		return string(msgs[len(msgs)-1].ToolResults[0].Content)
	}
	for i, want := range []string{
		`unknown tool \"delete_everything\"`,
		"do not match the schema",
		"missing required argument(s): query",
		"refused: https://not-from-a-search.example/ was not returned by a search",
		"Rephrase",
		"is not one of supported, contradicted, contested, unverifiable",
	} {
		if got := obs(i + 1); !strings.Contains(got, want) {
			t.Errorf("observation %d = %s, want it to contain %q", i, got, want)
		}
	}
}

type panicReader struct{}

func (panicReader) ReadPage(context.Context, search.PageRequest) (*search.Page, error) { panic("boom") }

func TestToolPanicIsObservation(t *testing.T) {
	m := &fct.Model{Handle: fct.Script(
		fct.Call("web_search", map[string]string{"query": "great wall visible from space"}),
		fct.Call("read_page", map[string]string{"url": wallURL}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "Reader broke."}),
	)}
	c := checker(m)
	c.Reader = panicReader{}
	if _, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", ""); err != nil {
		t.Fatal(err)
	}
	msgs := m.Research()[2].Messages
	if got := string(msgs[len(msgs)-1].ToolResults[0].Content); !strings.Contains(got, "failed unexpectedly: boom") {
		t.Errorf("observation = %s, want the panic reported", got)
	}
}

func TestUserURLMayBeRead(t *testing.T) {
	m := &fct.Model{Handle: fct.Script(
		fct.Call("read_page", map[string]string{"url": wallURL}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "medium", Reasoning: "r",
			Evidence: []fct.Evidence{{SourceURL: wallURL, QuoteOrSummary: "generally isn't, at least to the unaided eye"}}}),
	)}
	v, err := checker(m).VerifyClaim(context.Background(), "The Great Wall is visible from space", "My source: "+wallURL+".")
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != factcheck.Contradicted || !v.Evidence[0].QuoteFound || v.Sources[0].Via != "input" {
		t.Errorf("got %s %+v %+v", v.Verdict, v.Evidence, v.Sources)
	}
}

func TestModelErrorFailsClaim(t *testing.T) {
	rl := errors.Join(factcheck.ErrRateLimited, errors.New("429 RESOURCE_EXHAUSTED"))
	m := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		if req.Tools[0].Name == factcheck.ToolSubmitClaims {
			return fct.Call("submit_claims", fct.Claims{Claims: []fct.Claim{{Claim: "Water boils at 100 °C at sea level.", Span: "Water boils at 100 °C at sea level."}}}), nil
		}
		return nil, rl
	}}
	rep, err := checker(m).Check(context.Background(), factcheck.Input{Text: "Water boils at 100 °C at sea level."})
	if !errors.Is(err, factcheck.ErrRateLimited) {
		t.Fatalf("err = %v, want ErrRateLimited", err)
	}
	if rep == nil || len(rep.Claims) != 1 || rep.Claims[0].Error == "" || !strings.Contains(rep.Claims[0].Reasoning, "rate limit") {
		t.Errorf("report = %+v, want the claim marked as failed by the rate limit", rep)
	}
}

var _ = json.Marshal
var _ sync.Mutex

func TestURLsInProseAreScrubbed(t *testing.T) {
	// The quote is not in the snippet: sent back once, the model insists.
	submit := fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high",
		Reasoning: "NASA (" + wallURL + ") says no; see also https://evil.example/phish for details.",
		Evidence:  []fct.Evidence{{SourceURL: wallURL, QuoteOrSummary: "Not visible, as https://evil.example/x explains."}}})
	m := &fct.Model{Handle: fct.Script(
		fct.Call("web_search", map[string]string{"query": "great wall visible from space"}),
		submit, submit,
	)}
	v, err := checker(m).VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := "NASA (" + wallURL + ") says no; see also [link removed] for details."; v.Reasoning != want {
		t.Errorf("reasoning = %q, want %q", v.Reasoning, want)
	}
	if strings.Contains(v.Evidence[0].QuoteOrSummary, "evil.example") {
		t.Errorf("quote keeps an unretrieved URL: %q", v.Evidence[0].QuoteOrSummary)
	}
}

// A model that writes its calls and its verdict as text still gets through
// the loop: the calls are run, the verdict is accepted after validation.
func TestCallsAndVerdictAsText(t *testing.T) {
	srch := wallSearcher()
	m := &fct.Model{Handle: fct.Script(
		fct.Text("Let me search.\n<tool_call>\n{\"name\": \"web_search\", \"arguments\": {\"query\": \"great wall visible from space\"}}\n</tool_call>"),
		fct.Text("```json\n"+`{"verdict":"contradicted","confidence":"medium","reasoning":"Not visible.","evidence":[{"source_url":"`+wallURL+`","source_title":"t","supports":false,"quote_or_summary":"not visible to the naked eye"}]}`+"\n```"),
	)}
	c := checker(m)
	c.Options.NoPrefetch = true // the calls written as text are what is tested
	c.Search = srch
	v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != factcheck.Contradicted || len(v.Evidence) != 1 || !v.Evidence[0].QuoteFound {
		t.Errorf("got %s with %+v, want contradicted with the snippet quoted", v.Verdict, v.Evidence)
	}
	if srch.Calls() != 1 {
		t.Errorf("searches = %d, want the one written as text", srch.Calls())
	}
	msgs := m.Research()[1].Messages
	if res := msgs[len(msgs)-1].ToolResults; len(res) != 1 || res[0].Name != "web_search" {
		t.Errorf("second request ends with %+v, want the search's observation", msgs[len(msgs)-1])
	}
}

// The forced final call is answered with the verdict as text.
func TestForcedVerdictAsText(t *testing.T) {
	m := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		if req.ToolMode == factcheck.ToolRequired {
			return fct.Text(`{"verdict":"unverifiable","confidence":"low","reasoning":"Out of steps."}`), nil
		}
		return fct.Text("Still thinking."), nil
	}}
	c := checker(m)
	c.Budget = factcheck.Budget{Steps: 1}
	v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Reasoning != "Out of steps." || v.StoppedBy != factcheck.BudgetSteps {
		t.Errorf("got %q stopped by %q, want the forced verdict, stopped by steps", v.Reasoning, v.StoppedBy)
	}
}
