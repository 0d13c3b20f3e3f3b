package slack_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
	"github.com/google/go-cmp/cmp"
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

// TestCheckRecordsItsCaches: a check through the chat core keeps, with the
// saved check, every cache record the engine read or wrote for it, passed
// down as the check's recorder: its extraction, its verdict and its search
// answer the first time; the second time the records it was answered from.
func TestCheckRecordsItsCaches(t *testing.T) {
	const claim = "The Great Wall of China is visible from space."
	model := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		switch {
		case fct.ClaimOf(req) == "":
			return fct.Call("submit_claims", fct.Claims{Claims: []fct.Claim{{Claim: claim, Span: "The Great Wall of China is visible from space"}}}), nil
		case len(req.Messages) == 1:
			return fct.Call("web_search", map[string]string{"query": "great wall visible from space"}), nil
		default:
			return fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "Nothing found.", Evidence: []fct.Evidence{}}), nil
		}
	}}
	db, err := store.Open(filepath.Join(t.TempDir(), "f.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ck := &factcheck.Checker{Model: model, Cache: db,
		Search: search.NewCachedSearcher(&fct.Searcher{}, db, search.CacheOptions{}),
		Reader: &fct.Reader{Pages: map[string]*search.Page{}},
		// One search, the model's own: what is counted is the records a
		// check makes, not the retrieval before the first turn.
		Options: factcheck.Options{NoPrefetch: true},
	}
	e := start(t, setup{store: db, checker: ck})
	seen := map[string]bool{}
	kinds := func(eventID, ts string) map[string]int {
		t.Helper()
		id, err := e.fake.Send("events_api", slacktest.Mention(eventID, "C1", "U1", ts, "<@UBOT> "+claim))
		if err != nil {
			t.Fatal(err)
		}
		waitAck(t, e.fake, id)
		waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
		var saved *store.Check
		for deadline := time.Now().Add(30 * time.Second); saved == nil; time.Sleep(10 * time.Millisecond) { // hang guard only
			if time.Now().After(deadline) {
				t.Fatal("the check was not saved")
			}
			if err := db.EachCheck(context.Background(), slacktest.TeamID, func(c *store.Check) error {
				if !seen[c.ID] {
					saved = c
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		seen[saved.ID] = true
		got := map[string]int{}
		for _, r := range saved.CacheRefs {
			got[r.Kind]++
		}
		return got
	}
	if diff := cmp.Diff(map[string]int{store.RefExtraction: 1, store.RefVerdict: 1, store.RefWeb: 1}, kinds("EvR1", "1700000300.000100")); diff != "" {
		t.Errorf("first check's cache records by kind (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{store.RefExtraction: 1, store.RefVerdict: 1}, kinds("EvR2", "1700000301.000100")); diff != "" {
		t.Errorf("second check's cache records by kind (-want +got):\n%s", diff)
	}
}
