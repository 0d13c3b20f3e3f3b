package factcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/search"
)

// foolCase is an input made to have a source say what it does not, and
// how the report must show it.
type foolCase struct {
	name    string
	claim   string
	result  search.Result
	page    string // the page's text, "" for a search result not read
	cite    map[string]any
	label   string // the verdict the model gives
	shown   string // the quote the report must show
	found   bool
	place   factcheck.QuotePlace
	sentBak string // what the one-chance recheck must say, "" if it must not send back
	critic  string // what the critic's prompt must hold, "" for no check
}

const foolURL = "https://news.example.net/story"

func foolCases() []foolCase {
	denial := "The ministry denies reports that the school closed in 2019. Classes went on as usual that year."
	splice := "The regional vaccine is not approved for children. The national vaccine is approved for children over five."
	byString := func(quote, stance string) map[string]any {
		return map[string]any{"source_url": foolURL, "quote_or_summary": quote, "stance": stance}
	}
	byID := func(id, stance string) map[string]any {
		return map[string]any{"passage": id, "stance": stance, "summary": "What the source says."}
	}
	snippet := search.Result{Title: "School report", URL: foolURL, Snippet: "A report on the school."}
	return []foolCase{
		{name: "cut out of a denial, by string", claim: "The school closed in 2019", result: snippet, page: denial,
			cite: byString("the school closed in 2019", "supports"), label: "supported",
			shown: "The ministry denies reports that the school closed in 2019.", found: true, place: factcheck.QuoteOnPage,
			sentBak: `whose word "denies" may change their meaning`},
		{name: "cut out of a denial, by ID", claim: "The school closed in 2019", result: snippet, page: denial,
			cite: byID("p1.2", "supports"), label: "supported",
			shown: "The ministry denies reports that the school closed in 2019.", found: true, place: factcheck.QuoteOnPage,
			critic: "1. supports: p1.2 in " + foolURL + ": [p1.2] The ministry denies reports that the school closed in 2019. [p1.3] Classes went on as usual that year."},
		{name: "spliced across sentences, by string", claim: "The regional vaccine is approved for children over five",
			result: snippet, page: splice, cite: byString("The regional vaccine is … approved for children over five", "supports"), label: "supported",
			shown: "The regional vaccine is … approved for children over five", found: false,
			sentBak: "parts joined by … must come from one sentence"},
		{name: "spliced across sentences, by ID", claim: "The regional vaccine is approved for children over five",
			result: snippet, page: splice, cite: byID("p1.2-p1.3", "supports"), label: "supported",
			shown: splice, found: true, place: factcheck.QuoteOnPage,
			critic: "[p1.2] The regional vaccine is not approved for children. [p1.3] The national vaccine is approved for children over five."},
		{name: "question headline, by string", claim: "The mayor resigned in May",
			result: search.Result{Title: "Did the mayor really resign in May?", URL: foolURL, Snippet: "City hall has not commented on it."},
			cite:   byString("the mayor really resign in May", "supports"), label: "supported",
			shown: "the mayor really resign in May", found: false, sentBak: "the quote is not in the text retrieved"},
		{name: "question headline, by ID", claim: "The mayor resigned in May",
			result: search.Result{Title: "Did the mayor really resign in May?", URL: foolURL, Snippet: "City hall has not commented on it."},
			cite:   byID("p1.1", "supports"), label: "supported",
			shown: "City hall has not commented on it.", found: true, place: factcheck.QuoteInSnippet},
		{name: "declarative title alone, by string", claim: "The mayor resigned in May",
			result: search.Result{Title: "The mayor resigned in May after the audit", URL: foolURL, Snippet: "City hall has not commented on it."},
			cite:   byString("The mayor resigned in May", "supports"), label: "supported",
			shown: "The mayor resigned in May after the audit", found: false, place: factcheck.QuoteInTitle,
			sentBak: "found only in the title, which carries no stance"},
		{name: "snippet's sentence the page holds, by ID", claim: "Classes went on as usual in 2019",
			result: search.Result{Title: "School report", URL: foolURL, Snippet: "Classes went on as usual that year."}, page: denial,
			cite: byID("p1.1", "supports"), label: "supported",
			shown: "Classes went on as usual that year.", found: true, place: factcheck.QuoteOnPage},
		{name: "snippet cut out of a denial, by ID", claim: "The school closed in 2019",
			result: search.Result{Title: "School report", URL: foolURL, Snippet: "… reports that the school closed in 2019."}, page: denial,
			cite: byID("p1.1", "supports"), label: "supported",
			shown: "The ministry denies reports that the school closed in 2019.", found: true, place: factcheck.QuoteOnPage,
			sentBak: `whose word "denies" may change their meaning`},
		{name: "model-written grounding snippet, by string", claim: "The mayor resigned in May",
			result: search.Result{Title: "City news", URL: foolURL, Snippet: "The mayor resigned in May, several reports say.", ModelWritten: true},
			cite:   byString("The mayor resigned in May", "supports"), label: "supported",
			shown: "The mayor resigned in May, several reports say.", found: false, place: factcheck.QuoteInSummary,
			sentBak: "search summary written by a model"},
		{name: "model-written grounding snippet, by ID", claim: "The mayor resigned in May",
			result: search.Result{Title: "City news", URL: foolURL, Snippet: "The mayor resigned in May, several reports say.", ModelWritten: true},
			cite:   byID("p1.1", "supports"), label: "supported",
			shown: "The mayor resigned in May, several reports say.", found: false, place: factcheck.QuoteInSummary,
			sentBak: "search summary written by a model"},
	}
}

// TestFoolingInputs runs each fooling input through the real loop and
// Gemini's wire format, for a model citing IDs and one writing quote
// strings: the quote shown is the source's whole sentence(s), found where
// the report says, or not found; the recheck or the critic sees what is
// wrong.
func TestFoolingInputs(t *testing.T) {
	for _, tc := range foolCases() {
		t.Run(tc.name, func(t *testing.T) {
			v, srv, criticPrompt := runFool(t, tc)
			if len(v.Evidence) != 1 {
				t.Fatalf("evidence %+v, want one", v.Evidence)
			}
			e := v.Evidence[0]
			if e.QuoteOrSummary != tc.shown || e.QuoteFound != tc.found || e.QuoteMatch.Place != tc.place {
				t.Errorf("shown %q found %v in %q; want %q found %v in %q", e.QuoteOrSummary, e.QuoteFound, e.QuoteMatch.Place, tc.shown, tc.found, tc.place)
			}
			sent := sentBack(srv)
			switch {
			case tc.sentBak == "" && sent != "":
				t.Errorf("sent back %q, want no recheck", sent)
			case !strings.Contains(sent, tc.sentBak):
				t.Errorf("sent back %q, want it to say %q", sent, tc.sentBak)
			}
			if !strings.Contains(criticPrompt, tc.critic) {
				t.Errorf("critic prompt %q lacks %q", criticPrompt, tc.critic)
			}
		})
	}
}

// foolModel searches, reads the page if there is one, and cites as the
// case says, the same way again when sent back; the critic lets every
// verdict stand and records what it was shown.
func foolModel(tc foolCase, criticPrompt *string) geminitest.Handler {
	return func(r *geminitest.Request) geminitest.Reply {
		if names := r.ToolNames(); len(names) == 1 {
			switch names[0] {
			case factcheck.ToolSubmitQuestions:
				return geminitest.Call(names[0], map[string]any{"questions": []string{"Is it true that " + tc.claim + "?", "Has it been denied?"}})
			case factcheck.ToolSubmitReview:
				*criticPrompt = r.FirstUserText()
				return geminitest.Call(names[0], map[string]any{"ok": true, "note": "It stands."})
			}
		}
		switch {
		case r.Turns() == 0:
			return geminitest.Call("web_search", map[string]string{"query": "q"})
		case r.Turns() == 1 && tc.page != "":
			return geminitest.Call("read_page", map[string]string{"url": foolURL})
		}
		return geminitest.Call("submit_verdict", map[string]any{"verdict": tc.label, "confidence": "high",
			"scores":    map[string]int{"supported": 5, "contradicted": 1, "contested": 1, "unverifiable": 1},
			"reasoning": "The source says so.", "evidence": []any{tc.cite}})
	}
}

// sentBack returns what the recheck sent back to the model, "" if nothing.
func sentBack(srv *geminitest.Server) string {
	for _, r := range srv.Requests() {
		for _, fr := range r.LastFunctionResponses() {
			if fr.Name == factcheck.ToolSubmitVerdict {
				if e, ok := fr.Response["error"].(string); ok {
					return e
				}
			}
		}
	}
	return ""
}

// runFool runs a fooling case through the real loop and the fake Gemini,
// returning the verdict, the server and what the critic was shown.
func runFool(t *testing.T, tc foolCase) (*factcheck.Verdict, *geminitest.Server, string) {
	t.Helper()
	var criticPrompt string
	srv := geminitest.NewServer(t, foolModel(tc, &criticPrompt))
	m, err := gemini.New(context.Background(), gemini.Config{APIKey: "k", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	c := &factcheck.Checker{Model: m,
		Search: &fct.Searcher{Results: map[string][]search.Result{"q": {tc.result}}},
		Reader: &fct.Reader{Pages: map[string]*search.Page{foolURL: {Title: tc.result.Title, Text: tc.page}}}}
	v, err := c.VerifyClaim(context.Background(), tc.claim, "")
	if err != nil {
		t.Fatal(err)
	}
	return v, srv, criticPrompt
}
