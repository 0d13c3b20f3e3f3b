package slack_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

// TestRealEngineThroughSlack runs the real engine (scripted model, table
// search and reader) and the real store behind the Slack adapter: a mention
// gets a verified report with the source's link, and the same claim again is
// answered from the cache, saying when it was checked.
func TestRealEngineThroughSlack(t *testing.T) {
	const page = "https://www.nasa.gov/great-wall"
	model := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		claim := fct.ClaimOf(req)
		switch {
		case claim == "":
			return fct.Call("submit_claims", fct.Claims{Claims: []fct.Claim{{
				Claim: "The Great Wall of China is visible from space.", Span: "The Great Wall of China is visible from space"}}}), nil
		case len(req.Messages) == 1:
			return fct.Call("web_search", map[string]string{"query": "great wall visible from space"}), nil
		default:
			return fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high",
				Reasoning: "NASA says it is not visible to the unaided eye <!channel>.",
				Evidence: []fct.Evidence{{SourceURL: page, SourceTitle: "NASA", Supports: false,
					QuoteOrSummary: "The Great Wall is not visible to the naked eye from low Earth orbit."}}}), nil
		}
	}}
	db, err := store.Open(filepath.Join(t.TempDir(), "f.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ck := &factcheck.Checker{Model: model, Cache: db,
		Search: &fct.Searcher{Results: map[string][]search.Result{"great wall visible from space": {{Title: "Great Wall myth", URL: page,
			Snippet: "The Great Wall is not visible to the naked eye from low Earth orbit."}}}},
		Reader: &fct.Reader{Pages: map[string]*search.Page{}},
	}
	e := start(t, setup{store: db, checker: ck})

	report := func(eventID, ts string) string {
		t.Helper()
		id, err := e.fake.Send("events_api", slacktest.Mention(eventID, "C1", "U1", ts, "<@UBOT> The Great Wall of China is visible from space"))
		if err != nil {
			t.Fatal(err)
		}
		waitAck(t, e.fake, id)
		c := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
		return c.Text()
	}
	first := report("EvE1", "1700000200.000100")
	for _, want := range []string{"Contradicted", "<" + page + "|Great Wall myth>", "refutes", "&lt;!channel&gt;"} {
		if !strings.Contains(first, want) {
			t.Errorf("report lacks %q:\n%s", want, first)
		}
	}
	if strings.Contains(first, "cached") {
		t.Errorf("first report claims to be cached")
	}
	second := report("EvE2", "1700000201.000100")
	today := "cached, checked " + time.Now().UTC().Format("2006-01-02")
	if !strings.Contains(second, today) || !strings.Contains(second, "Contradicted") {
		t.Errorf("second report lacks %q:\n%s", today, second)
	}
}
