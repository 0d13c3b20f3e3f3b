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

// foldRun verifies a claim through the real Gemini client against the fake
// server: search, then read the page when read is set, then a supported
// verdict citing the sentence p1.1 (the snippet) or p1.2 (the page).
func foldRun(t *testing.T, read bool) (*factcheck.Verdict, []*geminitest.Request, string) {
	t.Helper()
	var critic string
	srv := geminitest.NewServer(t, func(r *geminitest.Request) geminitest.Reply {
		if names := r.ToolNames(); len(names) == 1 {
			switch names[0] {
			case factcheck.ToolSubmitQuestions:
				return geminitest.Call(names[0], map[string]any{"questions": []string{"When did the school close?", "Did the school close in 2019?"}})
			case factcheck.ToolSubmitReview:
				critic = r.FirstUserText()
				return geminitest.Call(names[0], map[string]any{"ok": true, "note": "It stands."})
			}
		}
		cite := "p1.1"
		switch {
		case r.Turns() == 0:
			return geminitest.Call("web_search", map[string]string{"query": "q"})
		case r.Turns() == 1 && read:
			return geminitest.Call("read_page", map[string]string{"url": foolURL})
		case read:
			cite = "p1.2"
		}
		return geminitest.Call("submit_verdict", map[string]any{
			"scores":    map[string]int{"supported": 5, "contradicted": 1, "contested": 1, "unverifiable": 1},
			"reasoning": "The source says so.", "evidence": []any{map[string]any{"passage": cite, "stance": "supports", "summary": "It closed."}}})
	})
	m, err := gemini.New(context.Background(), gemini.Config{APIKey: "k", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	c := &factcheck.Checker{Model: m,
		Search: &fct.Searcher{Results: map[string][]search.Result{"q": {{Title: "School news", URL: foolURL, Snippet: "The school closed in 2019 after the audit."}}}},
		Reader: &fct.Reader{Pages: map[string]*search.Page{foolURL: {Title: "School news", Text: "The school closed in 2019 after the audit. Its pupils moved to the next town."}}}}
	v, err := c.VerifyClaim(context.Background(), "The school closed in 2019", "")
	if err != nil {
		t.Fatal(err)
	}
	var research []*geminitest.Request
	for _, r := range srv.Requests() {
		if names := r.ToolNames(); len(names) > 1 {
			research = append(research, r)
		}
	}
	return v, research, critic
}

// On the wire, the turns before the model's latest are folded into the
// first user turn, one line each with their answers to the questions,
// delimited as data; the latest turn is a real call and response, with its
// thought signature.
func TestCompactTranscriptFoldsEarlierTurns(t *testing.T) {
	v, research, _ := foldRun(t, true)
	if v.Verdict != factcheck.Supported || len(research) != 3 {
		t.Fatalf("verdict %s after %d research calls, want supported after 3", v.Verdict, len(research))
	}
	last := research[2]
	first := last.FirstUserText()
	want := "<steps>\n1. web_search(q) → [p1.1] The school closed in 2019 after the audit. (Q2)\n</steps>"
	if !strings.Contains(first, want) {
		t.Errorf("first user turn %q lacks the folded search %q", first, want)
	}
	if len(last.Contents) != 3 || last.Turns() != 2 {
		t.Errorf("the last request has %d contents and %d turns, want 3 (claim, read, page) and 2", len(last.Contents), last.Turns())
	}
	calls := last.LastFunctionCalls()
	if len(calls) != 1 || calls[0].FunctionCall.Name != factcheck.ToolReadPage || len(calls[0].ThoughtSignature) == 0 {
		t.Errorf("latest turn %+v, want the read_page call with its signature", calls)
	}
	if strings.Contains(research[1].FirstUserText(), "<steps>") {
		t.Errorf("the second call folds nothing, got %q", research[1].FirstUserText())
	}
}

// The label definitions come with the calls after a page is read; a
// verdict given before any page was read is always reviewed by the
// critic, one given after may skip it.
func TestLabelsAfterAPageRead(t *testing.T) {
	v, research, _ := foldRun(t, true)
	for i, r := range research {
		labels := strings.Contains(r.System, "- contested: ")
		if want := i == 2; labels != want {
			t.Errorf("research call %d carries the label definitions: %v, want %v", i+1, labels, want)
		}
		if !labels && !strings.Contains(r.System, "Read a page before you judge") {
			t.Errorf("research call %d: %q does not say when the labels come", i+1, r.System)
		}
	}
	if !strings.Contains(notes(v), "critic skipped") {
		t.Errorf("notes %q: a plain verdict after a read skips the critic", notes(v))
	}
	v, _, critic := foldRun(t, false)
	if v.Verdict != factcheck.Supported || critic == "" || strings.Contains(notes(v), "critic skipped") {
		t.Errorf("verdict %s, critic shown %q, notes %q: a verdict given before any read must be reviewed", v.Verdict, critic, notes(v))
	}
}
