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

// The pages of the evidence tests: a search finds them all, and each may
// then be read.
const (
	growthURL = "https://news.example.com/growth"
	bridgeURL = "https://news.example.com/bridge"
	titledURL = "https://blog.example.org/untitled"
)

// evidenceChecker checks with the given model. These tests are about how
// the final evidence is marked, so a verdict with quotes not found is taken
// as it is (NoRecheck) rather than sent back to the model.
func evidenceChecker(m factcheck.Model) *factcheck.Checker {
	return &factcheck.Checker{
		Model:   m,
		Options: factcheck.Options{NoRecheck: true},
		Search: &fct.Searcher{Results: map[string][]search.Result{"q": {
			{Title: "Revenue report 2023", URL: growthURL, Snippet: "The annual report gives the company's revenue for 2023 and its forecasts for 2024."},
			{Title: "Bridge history", URL: bridgeURL, Snippet: "Why the river crossing took thirty years."},
			{URL: titledURL, Snippet: "A post without a title."},
		}}},
		Reader: &fct.Reader{Pages: map[string]*search.Page{
			growthURL: {Title: "Revenue report 2023", Text: "Revenue grew by 130 percent in 2023, according to the annual report."},
			bridgeURL: {Title: "Bridge history", Text: "The bridge was not built in 1990 because the funds ran out."},
		}},
	}
}

// The quotes a model cites are matched by what they say, not by letters:
// a number cut short, words left out behind an ellipsis or parts from two
// sentences are not found, and a match says where it was made. Each quote
// is cited in a run of its own (the same sentence cited twice is shown
// once).
func TestQuotesCannotBeFooled(t *testing.T) {
	page := factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}
	snippet := factcheck.QuoteMatch{Place: factcheck.QuoteInSnippet}
	for _, tc := range []struct {
		url, quote string
		want       factcheck.QuoteMatch
	}{
		{growthURL, "Revenue grew by 13", factcheck.QuoteMatch{}},                                   // the page says 130
		{bridgeURL, "The bridge was … built in 1990", factcheck.QuoteMatch{}},                       // the page says it was not
		{growthURL, "Revenue grew by 130 percent in 2023", page},                                    // on the page
		{growthURL, "the company's revenue for 2023 and its forecasts", snippet},                    // in the snippet only
		{bridgeURL, "Bridge history", factcheck.QuoteMatch{}},                                       // too short to verify
		{growthURL, "revenue report 2023, the annual report", factcheck.QuoteMatch{}},               // not anywhere as one text
		{growthURL, "Revenue grew by 130 percent … according to the annual", page},                  // elided, in order
		{growthURL, "according to the annual report … Revenue grew by 130", factcheck.QuoteMatch{}}, // elided, out of order
		{bridgeURL, "Why the river crossing took thirty years", snippet},                            // snippet of a page read
		{bridgeURL, "funds ran out", factcheck.QuoteMatch{}},                                        // on the page, but three words
		{growthURL, "REVENUE GREW BY 130 PERCENT, in 2023 — according to the", page},                // case and punctuation
	} {
		m := &fct.Model{Handle: fct.Script(
			fct.Call("web_search", map[string]string{"query": "q"}),
			fct.Call("read_page", map[string]string{"url": growthURL}),
			fct.Call("read_page", map[string]string{"url": bridgeURL}),
			fct.Call("submit_verdict", fct.Verdict{Verdict: "supported", Confidence: "high", Reasoning: "r", Evidence: []fct.Evidence{
				{SourceURL: tc.url, SourceTitle: "t", Supports: true, QuoteOrSummary: tc.quote}}}),
		)}
		v, err := evidenceChecker(m).VerifyClaim(context.Background(), "Revenue grew by 130 percent in 2023", "")
		if err != nil {
			t.Fatal(err)
		}
		e := v.Evidence[0]
		if e.QuoteMatch != tc.want || e.QuoteFound != tc.want.Found() {
			t.Errorf("quote %q: found %v in %+v, want %+v", tc.quote, e.QuoteFound, e.QuoteMatch, tc.want)
		}
		// JSON: quote_found is true only for a match, with the place beside it.
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var js map[string]any
		if err := json.Unmarshal(b, &js); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"quote_found": tc.want.Found()}
		if tc.want.Found() {
			want["quote_place"] = string(tc.want.Place)
		}
		g := map[string]any{}
		for _, k := range []string{"quote_found", "quote_place", "quote_page"} {
			if x, ok := js[k]; ok {
				g[k] = x
			}
		}
		if diff := cmp.Diff(want, g); diff != "" {
			t.Errorf("quote %q JSON (-want +got):\n%s", tc.quote, diff)
		}
	}
}

// Words found only in the title are reported as such, and are no found
// quote: a title alone carries no stance.
func TestQuoteInTitleOnly(t *testing.T) {
	m := &fct.Model{Handle: fct.Script(
		fct.Call("web_search", map[string]string{"query": "q"}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "supported", Confidence: "low", Reasoning: "r", Evidence: []fct.Evidence{
			{SourceURL: growthURL, QuoteOrSummary: "quarterly revenue report for 2023"},
		}}),
	)}
	c := evidenceChecker(m)
	c.Search = &fct.Searcher{Results: map[string][]search.Result{"q": {{Title: "Quarterly revenue report for 2023 published", URL: growthURL, Snippet: "Figures."}}}}
	v, err := c.VerifyClaim(context.Background(), "Revenue grew by 130 percent in 2023", "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.Evidence[0].QuoteMatch, (factcheck.QuoteMatch{Place: factcheck.QuoteInTitle}); got != want || v.Evidence[0].QuoteFound {
		t.Errorf("match = %+v found %v, want %+v not found", got, v.Evidence[0].QuoteFound, want)
	}
	if notes := traceNotes(v); !strings.Contains(notes, "quote seen only in the title retrieved for "+growthURL+": not the source's own sentence, no stance") {
		t.Errorf("trace notes %q do not say the quote was found only in the title", notes)
	}
}

// Links the model writes into anything shown are removed unless the run
// retrieved them or the user wrote them, whatever their case and whether
// or not they have a scheme. (Claims are scrubbed as they are extracted:
// TestExtractKeepsOnlyTheUsersLinks.)
func TestLinksInModelTextAreScrubbed(t *testing.T) {
	m := &fct.Model{Handle: fct.Script(
		fct.Call("web_search", map[string]string{"query": "q"}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "supported", Confidence: "high",
			Reasoning: "Per NEWS.example.com/growth, and not HTTPS://evil.example/x, evil.example/login or www.evil.example; as the user said, Stats.example.net/2023.",
			Evidence: []fct.Evidence{
				{SourceURL: titledURL, SourceTitle: "Log in at evil.example/login", Supports: true, QuoteOrSummary: "A post without a title, see www.evil.example"},
				{SourceURL: growthURL, SourceTitle: "evil.example/title", Supports: true, QuoteOrSummary: "the company's revenue for 2023"},
			}}),
	)}
	user := "Revenue grew by 130 percent in 2023 (stats.example.net/2023)"
	v, err := evidenceChecker(m).VerifyClaim(context.Background(), "Revenue grew by 130 percent in 2023", user)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{v.Reasoning, v.Evidence[0].SourceTitle, v.Evidence[0].QuoteOrSummary, v.Evidence[1].SourceTitle}
	want := []string{
		"Per NEWS.example.com/growth, and not [link removed], [link removed] or [link removed]; as the user said, Stats.example.net/2023.",
		"Log in at [link removed]", // the page had no title: the model's is shown, scrubbed
		"A post without a title, see [link removed]",
		"Revenue report 2023", // the page's own title
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reasoning, titles and quote (-want +got):\n%s", diff)
	}
	notes := traceNotes(v)
	for _, l := range []string{"HTTPS://evil.example/x", "evil.example/login", "www.evil.example"} {
		if !strings.Contains(notes, "removed a link no tool returned from the model's text: "+l) {
			t.Errorf("trace notes %q do not record removing %s", notes, l)
		}
	}
}

func traceNotes(v *factcheck.Verdict) string {
	var notes []string
	for _, e := range v.Trace {
		if e.Kind == "note" {
			notes = append(notes, e.Note)
		}
	}
	return strings.Join(notes, "\n")
}

// A quote from a PDF is matched on its page: the evidence says which page,
// links to it (#page=N), and carries the document's date.
func TestPDFQuotesNameTheirPage(t *testing.T) {
	const reportURL = "https://stats.example.gov/release.pdf"
	m := &fct.Model{Handle: fct.Script(
		fct.Call("read_page", map[string]string{"url": reportURL}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "supported", Confidence: "high", Reasoning: "r", Evidence: []fct.Evidence{
			{SourceURL: reportURL, Supports: true, QuoteOrSummary: "unemployment fell to 3.9 percent in March"},
			{SourceURL: reportURL, Supports: true, QuoteOrSummary: "the labour force grew … unemployment fell to 3.9 percent"}, // across pages
		}}),
	)}
	ck := &factcheck.Checker{
		Model:   m,
		Options: factcheck.Options{NoRecheck: true}, // the quote across pages is not found, by design
		Reader: &fct.Reader{Pages: map[string]*search.Page{reportURL: {
			Title: "Labour market release", Published: "2024-04-05",
			Text:      "Summary. The labour force grew by 0.2 percent.\n\nIn detail: unemployment fell to 3.9 percent in March.",
			PageCount: 2,
			Pages: []search.PageText{
				{N: 1, Text: "Summary. The labour force grew by 0.2 percent."},
				{N: 2, Text: "In detail: unemployment fell to 3.9 percent in March."},
			},
		}}},
	}
	v, err := ck.VerifyClaim(context.Background(), "Unemployment fell to 3.9 percent in March", "Unemployment fell to 3.9% in March, see "+reportURL)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Evidence) != 2 {
		t.Fatalf("evidence = %+v, want both items", v.Evidence)
	}
	onPage2 := v.Evidence[0]
	if onPage2.QuoteMatch != (factcheck.QuoteMatch{Place: factcheck.QuoteInPDF, Page: 2}) || !onPage2.QuoteFound {
		t.Errorf("quote on page 2 matched %+v, want pdf page 2", onPage2.QuoteMatch)
	}
	if onPage2.SourceURL != reportURL+"#page=2" || onPage2.Published != "2024-04-05" {
		t.Errorf("evidence URL %q, published %q; want the link to page 2 and the document's date", onPage2.SourceURL, onPage2.Published)
	}
	if across := v.Evidence[1]; across.QuoteFound || across.SourceURL != reportURL {
		t.Errorf("a quote across two pages = %+v, want not found and the plain URL", across)
	}
}
