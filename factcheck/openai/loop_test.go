package openai

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/search"
)

// Local models often write their calls and answers into the message text.
// The provider returns that text as text; the factcheck loop reads it.
// These checks run the whole loop against the fake server.

const eiffelURL = "https://example.org/eiffel"

// textReply is a completion whose message content is text.
func textReply(text string) reply {
	msg, _ := json.Marshal(map[string]any{"role": "assistant", "content": text})
	return reply{body: completion(string(msg), "stop")}
}

func eiffelChecker(t *testing.T, f *fakeServer) (*factcheck.Checker, *fct.Searcher, *fct.Reader) {
	t.Helper()
	srch := &fct.Searcher{Results: map[string][]search.Result{
		"eiffel tower height": {{Title: "Eiffel Tower", URL: eiffelURL, Snippet: "The tower is 330 metres tall."}},
	}}
	rd := &fct.Reader{Pages: map[string]*search.Page{
		eiffelURL: {Title: "Eiffel Tower facts", Text: "The Eiffel Tower is 330 metres (1,083 ft) tall since 2022."},
	}}
	// The scripts' turns are the model's own searches and reads (no
	// retrieval before the first turn): the calls written as text are what
	// is tested.
	return &factcheck.Checker{Model: newModel(t, f, nil), Search: srch, Reader: rd, Options: factcheck.Options{NoPrefetch: true}}, srch, rd
}

// planText and reviewText are the plan's questions and the critic's
// approval, written as text too.
const (
	planText   = `{"questions": ["How tall is the Eiffel Tower in metres?", "Has its height changed recently?"]}`
	reviewText = "```json\n{\"ok\": true, \"note\": \"The page gives the height.\"}\n```"
)

const eiffelVerdict = `{"verdict":"supported","confidence":"high","reasoning":"The page gives 330 metres.",` +
	`"evidence":[{"source_url":"` + eiffelURL + `","source_title":"t","supports":true,"quote_or_summary":"is 330 metres (1,083 ft) tall"}]}`

func TestLoopReadsCallsWrittenAsText(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []reply
	}{
		{"JSON content, then a fenced call with parameters, then a fenced verdict", []reply{
			textReply(planText),
			textReply(`{"name": "web_search", "arguments": {"query": "eiffel tower height"}}`),
			textReply("```json\n{\"name\": \"read_page\", \"parameters\": {\"url\": \"" + eiffelURL + "\"}}\n```"),
			textReply("Here is my verdict:\n```json\n" + eiffelVerdict + "\n```"),
			textReply(reviewText),
		}},
		{"tool_call tags (Hermes/Qwen), two calls in one turn, then the verdict as a call in tags", []reply{
			textReply(planText),
			textReply("Let me search.\n<tool_call>\n{\"name\": \"web_search\", \"arguments\": {\"query\": \"eiffel tower height\"}}\n</tool_call>\n" +
				"<tool_call>{\"name\": \"read_page\", \"arguments\": \"{\\\"url\\\": \\\"" + eiffelURL + "\\\"}\"}</tool_call>"),
			textReply("<tool_call>{\"name\": \"submit_verdict\", \"arguments\": " + eiffelVerdict + "}</tool_call>"),
			textReply("<tool_call>{\"name\": \"submit_review\", \"arguments\": {\"ok\": true, \"note\": \"Fine.\"}}</tool_call>"),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeServer(t, tc.replies...)
			c, srch, rd := eiffelChecker(t, f)
			// The user wrote the page's URL, so reading it in the same turn as
			// the search is allowed whichever call runs first.
			v, err := c.VerifyClaim(context.Background(), "The Eiffel Tower is 330 m tall.", "Source: "+eiffelURL)
			if err != nil {
				t.Fatal(err)
			}
			if v.Verdict != factcheck.Supported || len(v.Evidence) != 1 || !v.Evidence[0].QuoteFound {
				t.Errorf("got %s with %+v, want supported with the page's quote found", v.Verdict, v.Evidence)
			}
			if srch.Calls() != 1 || rd.Calls() != 1 {
				t.Errorf("searches %d, reads %d; want the calls written as text run once each", srch.Calls(), rd.Calls())
			}
			// The calls read from text went back to the server as calls, with
			// their observations as tool messages.
			msgs := f.requests()[2]["messages"].([]any) // after the plan and the first research turn
			var tools int
			for _, m := range msgs {
				if m.(map[string]any)["role"] == "tool" {
					tools++
				}
			}
			if tools == 0 {
				t.Errorf("second request has no tool messages: %v", msgs)
			}
		})
	}
}

// The whole check, extraction included, from a model that only writes text.
func TestCheckWithTextOnlyModel(t *testing.T) {
	f := newFakeServer(t,
		textReply("```json\n"+`{"claims":[{"claim":"The Eiffel Tower is 330 m tall.","span":"The Eiffel Tower is 330 m tall."}]}`+"\n```"),
		textReply(planText),
		textReply(`{"name": "web_search", "arguments": {"query": "eiffel tower height"}}`),
		textReply(`{"name": "read_page", "arguments": {"url": "`+eiffelURL+`"}}`),
		textReply(eiffelVerdict),
		textReply(reviewText),
	)
	c, _, _ := eiffelChecker(t, f)
	rep, err := c.Check(context.Background(), factcheck.Input{Text: "The Eiffel Tower is 330 m tall."})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Claims) != 1 || rep.Claims[0].Verdict != factcheck.Supported || rep.Claims[0].StoppedBy != "" {
		t.Fatalf("report claims = %+v, want one supported claim", rep.Claims)
	}
	if rep.Usage.PromptTokens != 6*120 {
		t.Errorf("usage = %+v, want 6 calls of 120 prompt tokens: extraction, plan, 3 research turns, critic", rep.Usage)
	}
}

// Every call carries the checker's temperature, low by default, on the wire.
func TestTemperatureOnTheWire(t *testing.T) {
	f := newFakeServer(t,
		textReply(planText),
		textReply(`{"name": "web_search", "arguments": {"query": "eiffel tower height"}}`),
		textReply(`{"name": "read_page", "arguments": {"url": "`+eiffelURL+`"}}`),
		textReply(eiffelVerdict),
		textReply(reviewText),
	)
	c, _, _ := eiffelChecker(t, f)
	if _, err := c.VerifyClaim(context.Background(), "The Eiffel Tower is 330 m tall.", ""); err != nil {
		t.Fatal(err)
	}
	for i, body := range f.requests() {
		if got, _ := body["temperature"].(float64); float32(got) != float32(factcheck.DefaultTemperature) {
			t.Errorf("request %d temperature = %v, want %v", i, body["temperature"], factcheck.DefaultTemperature)
		}
	}
}
