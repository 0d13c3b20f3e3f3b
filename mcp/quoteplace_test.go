package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// TestQuotePlaces: show, through the official client, gives each piece of
// evidence's quote_place (the engine's one vocabulary, with not_found and,
// for a record saved before places were kept, unknown), quote_page for a
// PDF, and quote_note, the words every other report uses, which the text
// shows beside the quote.
func TestQuotePlaces(t *testing.T) {
	q := "Revenue grew by 130 percent in 2023, the annual report says."
	ev := func(url string, found bool, m factcheck.QuoteMatch) factcheck.Evidence {
		return factcheck.Evidence{SourceURL: url, Stance: factcheck.StanceSupports, QuoteOrSummary: q, QuoteFound: found, QuoteMatch: m}
	}
	stored := &store.Check{ID: "c9", Text: "Revenue grew by 130 percent in 2023.", CreatedAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		Report: &factcheck.Report{Claims: []*factcheck.Verdict{{Claim: "Revenue grew by 130 percent in 2023.", Verdict: factcheck.Supported, Confidence: factcheck.Medium,
			Evidence: []factcheck.Evidence{
				ev("https://x.example/page", true, factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}),
				ev("https://x.example/pdf", true, factcheck.QuoteMatch{Place: factcheck.QuoteInPDF, Page: 3}),
				ev("https://x.example/snippet", true, factcheck.QuoteMatch{Place: factcheck.QuoteInSnippet}),
				ev("https://x.example/title", false, factcheck.QuoteMatch{Place: factcheck.QuoteInTitle}),
				ev("https://x.example/summary", false, factcheck.QuoteMatch{Place: factcheck.QuoteInSummary}),
				ev("https://x.example/none", false, factcheck.QuoteMatch{}),
				ev("https://x.example/old", true, factcheck.QuoteMatch{}), // saved before places
			}}}}}
	cs := connect(t, &fakeChecks{stored: stored})
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "show", Arguments: map[string]any{"id": "c9"}})
	if err != nil || res.IsError {
		t.Fatalf("show: %v %s", err, text(res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var got Report
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	type place struct {
		URL, Place string
		Page       int
		Found      bool
		Note       string
	}
	var places []place
	for _, e := range got.Claims[0].Evidence {
		places = append(places, place{e.URL, e.QuotePlace, e.QuotePage, e.QuoteFound, e.QuoteNote})
	}
	want := []place{
		{"https://x.example/page", "page", 0, true, "quote found on the page"},
		{"https://x.example/pdf", "pdf", 3, true, "quote found on page 3 of the PDF"},
		{"https://x.example/snippet", "snippet", 0, true, "quote seen only in the search result's preview, not on the page itself"},
		{"https://x.example/title", "title", 0, false, "seen only in the page's title, which carries no stance"},
		{"https://x.example/summary", "summary", 0, false, "a search summary written by a model, not the source's own words"},
		{"https://x.example/none", "not_found", 0, false, "quote not found in what was read"},
		{"https://x.example/old", "unknown", 0, true, "quote found in the text that was read"},
	}
	if diff := cmp.Diff(want, places); diff != "" {
		t.Errorf("structured evidence (-want +got):\n%s", diff)
	}
	for _, p := range want {
		if line := "“" + q + "” (" + p.Note + ")"; !strings.Contains(text(res), "<"+p.URL+">\n    "+line) {
			t.Errorf("text lacks %q after %s:\n%s", line, p.URL, text(res))
		}
	}
}
