package factcheck_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/search"
)

// requestText is everything a request shows the model.
func requestText(t *testing.T, r *factcheck.ModelRequest) string {
	t.Helper()
	b, err := json.Marshal(r.Messages)
	if err != nil {
		t.Fatal(err)
	}
	return r.System + "\n" + string(b)
}

func TestCheckAsClaimAsOf(t *testing.T) {
	const claim = "The Great Wall is visible from space"
	const oldURL, newURL, latePage = "https://old.example/wall", "https://new.example/wall", "https://late.example/wall"
	asOf := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	s := &fct.Searcher{Results: map[string][]search.Result{"wall": {
		{Title: "Old", URL: oldURL, Snippet: "OLD-SNIPPET", PublishedAt: time.Date(2019, 12, 31, 0, 0, 0, 0, time.UTC)},
		{Title: "New", URL: newURL, Snippet: "NEW-SNIPPET", Published: "January 2, 2020"},
		{Title: "Snopes", URL: "https://www.snopes.com/wall", Snippet: "SNOPES-SNIPPET"},
		{Title: "Undated", URL: latePage, Snippet: "undated in the results"},
	}}}
	r := &fct.Reader{Pages: map[string]*search.Page{
		latePage: {Title: "Late", Text: "LATE-PAGE-TEXT", Published: "2021-05-01", PublishedAt: time.Date(2021, 5, 1, 0, 0, 0, 0, time.UTC)},
	}}
	m := &fct.Model{Handle: fct.Script(
		fct.Call("web_search", map[string]string{"query": "wall"}),
		fct.Call("read_page", map[string]string{"url": latePage}),
		fct.Call("read_page", map[string]string{"url": "https://www.snopes.com/wall"}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "medium", Reasoning: "old source", Evidence: []fct.Evidence{}}),
	)}
	// The verdict cites nothing: sent back to the model, it would need
	// another scripted turn; this test is about what the model saw.
	c := &factcheck.Checker{Model: m, Search: s, Reader: r, ExcludeSites: []string{"snopes.com"}, KeepUndated: true, Options: factcheck.Options{NoRecheck: true}}
	rep, err := c.Check(context.Background(), factcheck.Input{Text: "  " + claim + "\n", AsClaim: true, AsOf: asOf, Speaker: "A blogger", Source: "Facebook"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Claims) != 1 || rep.Claims[0].Claim != claim || rep.Claims[0].Start != 2 || rep.Claims[0].End != 2+len(claim) {
		t.Fatalf("claims = %+v; want the text itself, at [2,%d)", rep.Claims, 2+len(claim))
	}
	reqs := m.Requests()
	if n := len(m.Research()); n != 4 {
		t.Errorf("research requests = %d; want 4", n)
	}
	if r.Calls() != 1 {
		t.Errorf("pages fetched = %d; want 1 (the excluded site is refused before fetching)", r.Calls())
	}
	sawOld := false
	for _, req := range reqs {
		for _, tool := range req.Tools {
			if tool.Name == factcheck.ToolSubmitClaims {
				t.Error("a request asked for claim extraction")
			}
		}
		text := requestText(t, req)
		for _, banned := range []string{"NEW-SNIPPET", newURL, "SNOPES-SNIPPET", "LATE-PAGE-TEXT"} {
			if strings.Contains(text, banned) {
				t.Errorf("%q reached the model", banned)
			}
		}
		sawOld = sawOld || strings.Contains(text, "OLD-SNIPPET")
		if fct.Step(req) != "" {
			continue // the plan and the critic: not the research prompt
		}
		if !strings.Contains(req.System, "Today is 2020-01-01") {
			t.Error("the prompt's today is not the as-of date")
		}
		if u := req.Messages[0].Text; !strings.Contains(u, "Made by: A blogger") || !strings.Contains(u, "Where it appeared: Facebook") || strings.Contains(u, "user_text") {
			t.Errorf("the claim's prompt:\n%s", u)
		}
	}
	if !sawOld {
		t.Error("the result from before the date never reached the model")
	}
}

// A verdict as of a date answers another question than the cached one:
// it is neither read from the cache nor written to it.
func TestCheckAsOfSkipsCache(t *testing.T) {
	verdict := fct.Call("submit_verdict", fct.Verdict{Verdict: "supported", Confidence: "high", Reasoning: "r", Evidence: []fct.Evidence{}})
	m := &fct.Model{Handle: func(*factcheck.ModelRequest) (*factcheck.ModelResponse, error) { return verdict, nil }}
	cache := &recordingCache{}
	c := &factcheck.Checker{Model: m, Search: &fct.Searcher{}, Cache: cache}
	in := factcheck.Input{Tenant: "t", Text: "Bats are mammals", AsClaim: true, AsOf: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}
	if _, err := c.Check(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if cache.gets != 0 || cache.puts != 0 {
		t.Errorf("cache gets %d, puts %d; want none", cache.gets, cache.puts)
	}
	in.AsOf = time.Time{}
	if _, err := c.Check(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if cache.gets != 1 || cache.puts != 1 {
		t.Errorf("without a date: cache gets %d, puts %d; want 1, 1", cache.gets, cache.puts)
	}
}

type recordingCache struct{ gets, puts int }

func (c *recordingCache) Verdict(context.Context, string, string, time.Duration, search.Recorder) (*factcheck.Verdict, bool, error) {
	c.gets++
	return nil, false, nil
}

func (c *recordingCache) PutVerdict(context.Context, string, *factcheck.Verdict, search.Recorder) error {
	c.puts++
	return nil
}

func (c *recordingCache) Extraction(context.Context, string, string, time.Duration, search.Recorder) (*factcheck.Extraction, bool, error) {
	return nil, false, nil
}

func (c *recordingCache) PutExtraction(context.Context, string, string, *factcheck.Extraction, search.Recorder) error {
	return nil
}

// Input.ExcludeURLs keeps a claim's own fact-check out of the check, by
// address, whichever copy of it the search returns or the model asks for;
// the rest of its site stays.
func TestCheckExcludeURLs(t *testing.T) {
	const own = "https://www.news.example/politics/2020/10/14/made-up-slug/"
	const archived = "https://web.archive.org/web/20201015000000/" + own
	const other = "https://www.news.example/politics/2020/10/14/other-slug/"
	s := &fct.Searcher{Results: map[string][]search.Result{"wall": {
		{Title: "Own", URL: "http://news.example/politics/2020/10/14/made-up-slug", Snippet: "OWN-SNIPPET"},
		{Title: "Other", URL: other, Snippet: "OTHER-SNIPPET"},
	}}}
	r := &fct.Reader{Pages: map[string]*search.Page{archived: {Title: "Own", Text: "OWN-PAGE-TEXT"}}}
	m := &fct.Model{Handle: fct.Script(
		fct.Call("web_search", map[string]string{"query": "wall"}),
		fct.Call("read_page", map[string]string{"url": archived}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "r", Evidence: []fct.Evidence{}}),
	)}
	c := &factcheck.Checker{Model: m, Search: s, Reader: r, Options: factcheck.Options{NoRecheck: true}}
	if _, err := c.Check(context.Background(), factcheck.Input{Text: "The wall is old", AsClaim: true, ExcludeURLs: []string{archived}}); err != nil {
		t.Fatal(err)
	}
	if r.Calls() != 0 {
		t.Errorf("pages fetched = %d; want 0 (the excluded page is refused before fetching)", r.Calls())
	}
	sawOther := false
	for _, req := range m.Requests() {
		text := requestText(t, req)
		for _, banned := range []string{"OWN-SNIPPET", "OWN-PAGE-TEXT"} {
			if strings.Contains(text, banned) {
				t.Errorf("%q reached the model", banned)
			}
		}
		sawOther = sawOther || strings.Contains(text, "OTHER-SNIPPET")
	}
	if !sawOther {
		t.Error("the site's other page never reached the model")
	}
}

// A leak-free check refuses a page that declares itself a published
// fact-check (ClaimReview mark-up) whatever its address; a check that is
// not leak-free reads it.
func TestCheckRefusesClaimReviewPages(t *testing.T) {
	const page = "https://www.news.example/politics/2020/10/14/made-up-slug/"
	for _, leakFree := range []bool{true, false} {
		s := &fct.Searcher{Results: map[string][]search.Result{"wall": {{Title: "Column", URL: page, Snippet: "a column"}}}}
		r := &fct.Reader{Pages: map[string]*search.Page{page: {Title: "Column", Text: "VERDICT-TEXT", ClaimReview: true}}}
		m := &fct.Model{Handle: fct.Script(
			fct.Call("web_search", map[string]string{"query": "wall"}),
			fct.Call("read_page", map[string]string{"url": page}),
			fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "r", Evidence: []fct.Evidence{}}),
		)}
		c := &factcheck.Checker{Model: m, Search: s, Reader: r, ExcludeFactCheckPaths: leakFree, Options: factcheck.Options{NoRecheck: true}}
		if _, err := c.Check(context.Background(), factcheck.Input{Text: "The wall is old", AsClaim: true}); err != nil {
			t.Fatal(err)
		}
		saw := false
		for _, req := range m.Requests() {
			saw = saw || strings.Contains(requestText(t, req), "VERDICT-TEXT")
		}
		if saw == leakFree {
			t.Errorf("leak-free %v: the ClaimReview page reached the model: %v", leakFree, saw)
		}
	}
}

// A check as of a date drops what the address dates later, whatever the
// provider's date: a search result, a page the model asks for (refused
// before fetching, even one the user's text names), a page whose read
// redirects to such an address. A page of the as-of day itself is kept,
// and an archive's timestamp does not date the page it copies.
func TestCheckAsOfAddressDate(t *testing.T) {
	const (
		late     = "https://news.example/politics/2020/10/09/late/"
		sameDay  = "https://news.example/politics/2020/10/07/same-day/"
		archived = "https://web.archive.org/web/20211231000000/https://news.example/2020/10/01/archived/"
		moved    = "https://news.example/2020/10/01/moved/"
		user     = "https://user.example/2020/10/12/post"
	)
	day := func(m, d int) time.Time { return time.Date(2020, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	s := &fct.Searcher{Results: map[string][]search.Result{"wall": {
		{Title: "Late", URL: late, Snippet: "LATE-SNIPPET", PublishedAt: day(10, 1)},
		{Title: "Same day", URL: sameDay, Snippet: "SAME-DAY-SNIPPET", PublishedAt: day(10, 7)},
		{Title: "Archived", URL: archived, Snippet: "ARCHIVED-SNIPPET", PublishedAt: day(10, 1)},
		{Title: "Moved", URL: moved, Snippet: "MOVED-SNIPPET", PublishedAt: day(10, 1)},
	}}}
	r := &fct.Reader{Pages: map[string]*search.Page{
		moved: {Title: "Moved", Text: "MOVED-PAGE-TEXT", FinalURL: "https://news.example/2020/10/20/moved/", PublishedAt: day(10, 1)},
		user:  {Title: "User", Text: "USER-PAGE-TEXT", PublishedAt: day(10, 1)},
	}}
	m := &fct.Model{Handle: fct.Script(
		fct.Call(factcheck.ToolSubmitClaims, fct.Claims{Claims: []fct.Claim{{Claim: "The wall is old", Span: "The wall is old"}}}),
		fct.Call("web_search", map[string]string{"query": "wall"}),
		fct.Call("read_page", map[string]string{"url": user}),
		fct.Call("read_page", map[string]string{"url": moved}),
		fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "r", Evidence: []fct.Evidence{}}),
	)}
	c := &factcheck.Checker{Model: m, Search: s, Reader: r, KeepUndated: true, Options: factcheck.Options{NoRecheck: true}}
	rep, err := c.Check(context.Background(), factcheck.Input{Text: "The wall is old, says " + user, AsOf: day(10, 7)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Calls() != 1 {
		t.Errorf("pages fetched = %d; want 1 (the user's late address is refused before fetching)", r.Calls())
	}
	var text strings.Builder
	for _, req := range m.Requests() {
		text.WriteString(requestText(t, req))
	}
	for _, banned := range []string{"LATE-SNIPPET", "USER-PAGE-TEXT", "MOVED-PAGE-TEXT"} {
		if strings.Contains(text.String(), banned) {
			t.Errorf("%q reached the model", banned)
		}
	}
	for _, kept := range []string{"SAME-DAY-SNIPPET", "ARCHIVED-SNIPPET", "the address " + user + " dates the page 2020-10-12, after 2020-10-07"} {
		if !strings.Contains(text.String(), kept) {
			t.Errorf("%q never reached the model", kept)
		}
	}
	trace, _ := json.Marshal(rep)
	for _, note := range []string{
		"dropped 1 result(s) published after 2020-10-07",
		"read " + user + ": refused, its address dates it 2020-10-12, after 2020-10-07",
		"read " + moved + ": dropped, it redirected to https://news.example/2020/10/20/moved/, whose address dates it 2020-10-20, after 2020-10-07",
	} {
		if !strings.Contains(string(trace), note) {
			t.Errorf("the trace does not say %q:\n%s", note, trace)
		}
	}
}
