package factcheck_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/search"
)

var wallQuestions = []string{
	"Can the Great Wall be seen from low Earth orbit with the unaided eye?",
	"What did NASA say about seeing the Great Wall from orbit?",
	"Which recipe uses saffron and rice?",
}

// The plan writes the questions before any search; the research prompt
// carries them.
func TestQuestionsFirst(t *testing.T) {
	m := &fct.Model{
		Plan: func(*factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
			return fct.Questions(wallQuestions...), nil
		},
		Handle: fct.Script(wallSearch,
			fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "r"})),
	}
	v, err := checker(m).VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	plan := m.Requests()[0]
	if plan.ToolMode != factcheck.ToolRequired || len(plan.Tools) != 1 || plan.Tools[0].Name != factcheck.ToolSubmitQuestions {
		t.Errorf("first request offers %+v in mode %q, want only submit_questions, required", plan.Tools, plan.ToolMode)
	}
	if !strings.Contains(fct.FirstUserText(plan), "The Great Wall is visible from space") {
		t.Errorf("plan prompt %q lacks the claim", fct.FirstUserText(plan))
	}
	research := fct.FirstUserText(m.Research()[0])
	for i, q := range wallQuestions {
		if want := string(rune('1'+i)) + ". " + q; !strings.Contains(research, want) {
			t.Errorf("research prompt %q lacks %q", research, want)
		}
	}
	if !strings.Contains(notes(v), "questions: "+wallQuestions[0]) {
		t.Errorf("trace notes %q lack the questions", notes(v))
	}
}

// A plan that fails costs one call; the research then serves the claim.
func TestPlanFails(t *testing.T) {
	m := &fct.Model{
		Plan: func(*factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
			return fct.Text("I would rather not."), nil
		},
		Handle: fct.Script(fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "r"})),
	}
	v, err := checker(m).VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if research := fct.FirstUserText(m.Research()[0]); strings.Contains(research, "Questions:") {
		t.Errorf("research prompt %q lists questions after a failed plan", research)
	}
	if !strings.Contains(notes(v), "no usable questions") || m.Calls() != 3 {
		t.Errorf("notes %q after %d calls; want the failed plan noted, 3 calls", notes(v), m.Calls())
	}
}

// observationsOf returns the tool results of req, in order.
func observationsOf(req *factcheck.ModelRequest) []factcheck.ToolResult {
	var out []factcheck.ToolResult
	for _, m := range req.Messages {
		out = append(out, m.ToolResults...)
	}
	return out
}

// Once seen, a search result set or a page is reduced in the transcript to
// its answers to the questions, with quote and URL, or "nothing relevant";
// the newest observation is whole; quotes are still checked on the full
// retrieved text.
func TestCompactTranscript(t *testing.T) {
	// A quote from the page that no compact answer keeps: the page's
	// opening, which answers none of the questions.
	intro := "Visitors can walk on restored sections near Beijing."
	m := &fct.Model{
		Plan: func(*factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
			return fct.Questions(wallQuestions...), nil
		},
		Handle: fct.Script(wallSearch, wallRead,
			fct.Call("web_search", map[string]string{"query": "nothing matches this"}),
			fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high", Reasoning: "r",
				Evidence: []fct.Evidence{{SourceURL: wallURL, QuoteOrSummary: intro}}})),
	}
	ck := checker(m)
	ck.Options.NoPrefetch = true // the script's turns are the model's own searches and reads
	page := *wallReader().Pages[wallURL]
	page.Text = strings.Replace(page.Text, "Intro.", intro, 1)
	ck.Reader = &fct.Reader{Pages: map[string]*search.Page{wallURL: &page}}
	v, err := ck.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Evidence) != 1 || !v.Evidence[0].QuoteFound {
		t.Errorf("evidence %+v: the quote is in the page but not found", v.Evidence)
	}
	last := m.Research()[3]
	obs := observationsOf(last)
	if len(obs) != 3 {
		t.Fatalf("last request has %d observations, want 3", len(obs))
	}
	type answer struct {
		Q        []int  `json:"q"`
		ID       string `json:"id"`
		Sentence string `json:"s"`
	}
	type compact struct {
		Answers     []answer `json:"answers"`
		AnswersNone string   `json:"answers_none"`
	}
	var searchObs, pageObs compact
	if err := json.Unmarshal(obs[0].Content, &searchObs); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(obs[1].Content, &pageObs); err != nil {
		t.Fatal(err)
	}
	wantSearch := compact{Answers: []answer{{Q: []int{1, 2}, ID: "p1.1", Sentence: "The Great Wall is not visible to the naked eye from low Earth orbit."}}}
	if diff := cmp.Diff(wantSearch, searchObs); diff != "" {
		t.Errorf("compact search (-want +got):\n%s", diff)
	}
	wantPage := compact{Answers: []answer{{Q: []int{1, 2}, ID: "p1.3", Sentence: "The Great Wall of China, frequently billed as the only man-made object visible from space, generally isn't, at least to the unaided eye in low Earth orbit."}}}
	if diff := cmp.Diff(wantPage, pageObs); diff != "" {
		t.Errorf("compact page (-want +got):\n%s", diff)
	}
	// The newest observation, a search with no results, is whole.
	if got := string(obs[2].Content); !strings.Contains(got, `"results":[]`) {
		t.Errorf("newest observation = %s, want it whole", got)
	}
	// The turn after the read saw the page whole.
	if got := string(observationsOf(m.Research()[2])[1].Content); !strings.Contains(got, `"text":`) || !strings.Contains(got, "Other text.") {
		t.Errorf("page observation right after the read = %s, want the page's text", got)
	}
	// Earlier requests keep what they sent.
	if got := string(observationsOf(m.Research()[1])[0].Content); !strings.Contains(got, `"results":[`) {
		t.Errorf("the request after the search was rewritten afterwards: %s", got)
	}
}

// An observation that answers no question is "nothing relevant"; with
// NoCompact everything stays whole.
func TestCompactNothingRelevant(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts factcheck.Options
		want string
	}{
		{"compact", factcheck.Options{}, `{"answers_none":"nothing relevant to the questions"}`},
		{"whole", factcheck.Options{NoCompact: true}, `"snippet":"[p1.1] Astronauts say the wall cannot be seen."`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &fct.Model{
				Plan: func(*factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
					return fct.Questions("Which recipe uses saffron and rice?", "Who invented paella in Valencia?"), nil
				},
				Handle: fct.Script(fct.Call("web_search", map[string]string{"query": "great wall seen from orbit debunk"}), wallSearch,
					fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "r"})),
			}
			c := checker(m)
			c.Options = tc.opts
			if _, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", ""); err != nil {
				t.Fatal(err)
			}
			if got := string(observationsOf(m.Research()[2])[0].Content); !strings.Contains(got, tc.want) {
				t.Errorf("first observation two turns later = %s, want %s", got, tc.want)
			}
		})
	}
}
