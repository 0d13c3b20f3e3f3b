package main

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/store"
)

// TestCheckQuoteOnPageNotPreview: a sentence the search result's preview
// and the page read both hold, cited by its ID in the preview, is a quote
// found on the page: the engine decides it once, and the terminal and
// --json say so; a sentence only the preview of a page not read holds
// stays "only in the search result's preview".
func TestCheckQuoteOnPageNotPreview(t *testing.T) {
	onPage := "The Great Wall of China, frequently billed as the only man-made object visible from space, generally isn't, at least to the unaided eye in low Earth orbit."
	var w *world
	w = newWorld(t, wallFirst(func(r *geminitest.Request) geminitest.Reply {
		switch r.Turns() {
		case 0:
			return searchCall("wall preview")
		case 1:
			return readCall(w.url("/nasa/great-wall"))
		default:
			return verdictReply("contradicted", "high", "NASA says the wall is not visible to the unaided eye from orbit.",
				map[string]any{"passage": "p1.1", "stance": "refutes"}, // the preview's sentence, also on the page
				map[string]any{"passage": "p2.1", "stance": "refutes"}) // only in a preview
		}
	}))
	w.results["wall preview"] = []tavilyResult{
		{Title: "Great Wall myth", URL: w.url("/nasa/great-wall"), Content: onPage, Score: 0.93},
		{Title: "Wall facts", URL: "https://facts.example/wall", Content: "The wall cannot be seen from the Moon by astronauts.", Score: 0.8},
	}
	stdout, stderr, code := w.run("check", wallClaim)
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"in low Earth orbit.” (quote found on the page)",
		"by astronauts.” (quote seen only in the search result's preview, not on the page itself)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}

	raw, stderr, code := w.run("check", "--json", "--fresh", wallClaim)
	if code != exitOK {
		t.Fatalf("check --json: exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.Contains(raw, `"quote_place": "page"`) || !strings.Contains(raw, `"quote_place": "snippet"`) {
		t.Errorf("--json lacks quote_place page and snippet:\n%s", raw)
	}
	type place struct {
		URL, Quote string
		Found      bool
		Where      factcheck.QuotePlace
	}
	rep := decodeReport(t, raw)
	var noted bool
	for _, e := range rep.Claims[0].Trace {
		noted = noted || strings.Contains(e.Note, "preview is on the page: cited as p1.")
	}
	if !noted {
		t.Errorf("the trace does not say the preview's sentence was found on the page: %+v", rep.Claims[0].Trace)
	}
	var got []place
	for _, e := range rep.Claims[0].Evidence {
		got = append(got, place{e.SourceURL, e.QuoteOrSummary, e.QuoteFound, e.Where()})
	}
	want := []place{
		{w.url("/nasa/great-wall"), onPage, true, factcheck.QuoteOnPage},
		{"https://facts.example/wall", "The wall cannot be seen from the Moon by astronauts.", true, factcheck.QuoteInSnippet},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("--json evidence (-want +got):\n%s", diff)
	}

	// The page's kept snapshot holds the sentence labelled on the page.
	db, err := store.Open(w.env["FACTBOT_DB"], store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var sha string
	for _, src := range rep.Claims[0].Sources {
		if src.URL == w.url("/nasa/great-wall") {
			sha = src.SHA256
		}
	}
	pg, err := db.PageSnapshot(context.Background(), sha)
	if err != nil || !strings.Contains(pg.Text, onPage) {
		t.Errorf("snapshot %q of the page: %v, holds the sentence: %v", sha, err, pg != nil && strings.Contains(pg.Text, onPage))
	}
}
