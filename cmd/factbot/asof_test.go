package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/factbot-dev/factbot/eval"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/google/go-cmp/cmp"
)

// latePage says in its metadata that it was published in June 2024.
const latePage = `<!doctype html><html><head><title>Wall seen at last</title>
<meta property="article:published_time" content="2024-06-01T10:00:00Z"></head><body>
<article><h1>Wall seen at last</h1><p>LATE-PAGE-TEXT: in 2024 an astronaut photographed the wall with the naked eye, a first that settles the question.</p>
<p>The photograph was taken from the station's cupola at dawn, when the low sun casts long shadows.</p></article></body></html>`

// recordingTavily is a fake Tavily that answers every query with results
// and keeps the requests' bodies.
func recordingTavily(t *testing.T, results []map[string]any) (*httptest.Server, func() []map[string]any) {
	var mu sync.Mutex
	var reqs []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, `{"detail":{"error":"bad request"}}`, http.StatusBadRequest)
			return
		}
		mu.Lock()
		reqs = append(reqs, body)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"query": body["query"], "results": results, "response_time": 0.1})
	}))
	t.Cleanup(srv.Close)
	return srv, func() []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(reqs)
	}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A check as of a date: the provider is asked for results up to that day,
// and results and pages dated later, and excluded sites, never reach the
// model; the date is the model's today, and the speaker and source are in
// the claim's prompt.
func TestCheckAsOfAndExcludedSites(t *testing.T) {
	var w *world
	var lateURL string
	w = newWorld(t, wallFirst(func(r *geminitest.Request) geminitest.Reply {
		switch r.Turns() {
		case 0:
			return searchCall("great wall seen from space")
		case 1:
			return readCall(lateURL)
		default:
			return verdictReply("contradicted", "medium", "Only the old source was seen.")
		}
	}))
	pages := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(rw, latePage)
	}))
	t.Cleanup(pages.Close)
	lateURL = pages.URL + "/late"
	tavily, requests := recordingTavily(t, []map[string]any{
		{"title": "Old myth page", "url": "https://old.example.com/myth", "content": "OLD-RESULT: the wall is not visible.", "score": 0.9, "published_date": "2023-05-01"},
		{"title": "New claim page", "url": "https://new.example.com/seen", "content": "NEW-RESULT: the wall was seen.", "score": 0.8, "published_date": "2024-06-01"},
		{"title": "Snopes on the wall", "url": "https://www.snopes.com/fact-check/great-wall/", "content": "SNOPES-RESULT: Rating: False.", "score": 0.7},
		{"title": "Wall seen at last", "url": lateURL, "content": "An undated result whose page is dated later.", "score": 0.6},
	})
	w.env["FACTBOT_TAVILY_URL"] = tavily.URL
	exclude := writeFile(t, "exclude.txt", "# fact-checkers\nsnopes.com\n")

	rep, _ := w.checkJSON("--no-store", "--as-of", "2024-03-01", "--keep-undated", "--speaker", "A senator", "--source", "Twitter", "--exclude-sites", exclude, wallClaim)

	reqs := requests()
	if len(reqs) == 0 {
		t.Fatal("Tavily was never asked")
	}
	for _, r := range reqs {
		// Leak-free by default: the shipped fact-checkers with the file's.
		if d, _ := r["exclude_domains"].([]any); r["end_date"] != "2024-03-01" || len(d) < 2 || d[0] != "politifact.com" || !slices.Contains(d, any("snopes.com")) {
			t.Errorf("Tavily request end_date %v exclude_domains %v; want 2024-03-01 and the shipped fact-checkers with snopes.com", r["end_date"], r["exclude_domains"])
		}
	}
	sawOld, verifications := false, 0
	for _, r := range w.gemini.Requests() {
		text := r.AllText()
		for _, banned := range []string{"NEW-RESULT", "new.example.com", "SNOPES-RESULT", "snopes.com", "LATE-PAGE-TEXT"} {
			if strings.Contains(text, banned) {
				t.Errorf("%q reached the model", banned)
			}
		}
		sawOld = sawOld || strings.Contains(text, "OLD-RESULT")
		if !slices.Contains(r.ToolNames(), factcheck.ToolWebSearch) {
			continue // extraction, the plan and the critic: not the research prompt
		}
		verifications++
		if !strings.Contains(r.System, "Today is 2024-03-01") {
			t.Error("the verification prompt's today is not the as-of date")
		}
		if u := r.FirstUserText(); !strings.Contains(u, "Made by: A senator") || !strings.Contains(u, "Where it appeared: Twitter") {
			t.Errorf("the claim's prompt lacks its speaker and source:\n%s", u)
		}
	}
	if !sawOld || verifications == 0 {
		t.Errorf("the result published before the date never reached the model (%d verification requests)", verifications)
	}
	var notes []string
	for _, ev := range rep.Claims[0].Trace {
		if ev.Kind == "note" {
			notes = append(notes, ev.Note)
		}
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"dropped 1 result(s) published after the as-of date", "dropped 1 result(s) from excluded sites", "read " + lateURL + ": dropped, published 2024-06-01, after 2024-03-01"} {
		if !strings.Contains(joined, want) {
			t.Errorf("trace notes lack %q:\n%s", want, joined)
		}
	}
}

func TestCheckAsOfBadDate(t *testing.T) {
	w := newWorld(t, func(r *geminitest.Request) geminitest.Reply {
		t.Error("the model was called")
		return geminitest.Text("")
	})
	_, stderr, code := w.run("check", "--as-of", "1 March 2024", wallClaim)
	if code != exitUsage || !strings.Contains(stderr, "YYYY-MM-DD") {
		t.Errorf("exit %d, stderr %q; want a usage error asking for YYYY-MM-DD", code, stderr)
	}
}

// recordingBrave is a fake Brave Search that answers every query with one
// result and keeps the requests' parameters.
func recordingBrave(t *testing.T) (*httptest.Server, func() []url.Values) {
	var mu sync.Mutex
	var reqs []url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reqs = append(reqs, r.URL.Query())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"type":"search","web":{"type":"search","results":[
			{"title":"Council minutes","url":"https://council.example/minutes","description":"OLD-MINUTES: the council voted.","page_age":"2019-03-04T00:00:00"},
			{"title":"Library opens","url":"https://news.example/library","description":"LATER-NEWS: the library opened.","page_age":"2021-05-01T00:00:00"},
			{"title":"PolitiFact","url":"https://www.politifact.com/factchecks/library/","description":"POLITIFACT: True."}]}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []url.Values {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(reqs)
	}
}

// AVeriTeC data is verified claim by claim as given: no extraction call,
// no fact-check search, each claim as of its date with its speaker and
// source, and the summary says so.
func TestEvalAVeriTeCHonest(t *testing.T) {
	var mu sync.Mutex
	var reqs []*geminitest.Request
	w := newWorld(t, func(r *geminitest.Request) geminitest.Reply {
		mu.Lock()
		reqs = append(reqs, r)
		mu.Unlock()
		if isExtraction(r) {
			t.Error("an AVeriTeC claim went through extraction")
			return claimsReply()
		}
		if r.Turns() == 0 {
			return searchCall("exampleton")
		}
		return verdictReply("supported", "medium", "scripted")
	})
	w.env["FACTBOT_PREFETCH"] = "0" // the script's turns are the model's own searches and reads
	brave, braveReqs := recordingBrave(t)
	w.env["BRAVE_API_KEY"] = "BSA-test"
	w.env["FACTBOT_BRAVE_URL"] = brave.URL
	w.env["FACTBOT_SEARCH"] = "brave"
	w.env["GOOGLE_API_KEY"] = "google-key" // fact-check search is configured
	dataset := filepath.Join("..", "..", "eval", "testdata", "averitec_dev_fixture.json")
	stdout, stderr, code := w.run("eval", "--dataset", dataset, "--json", "--quiet", "--concurrency", "1")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var s eval.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("not a JSON summary: %v\n%s", err, stdout)
	}
	if s.Scored != 5 || s.NoClaim != 0 {
		t.Errorf("scored %d, no claim %d; want 5, 0", s.Scored, s.NoClaim)
	}
	if st := s.Setup; st == nil || !st.AsGiven || !st.AsOf || st.Dated != 4 || st.FactChecks || fmt.Sprint(st.Search) != "[brave]" || !st.LeakFree || st.ExcludeSites != "" || st.ExcludedSites < 100 {
		t.Errorf("setup = %+v", s.Setup)
	}
	sawOld := false
	for _, r := range reqs {
		if slices.Contains(r.ToolNames(), factcheck.ToolFactChecks) {
			t.Errorf("search_fact_checks offered: %v", r.ToolNames())
		}
		text := r.AllText()
		if strings.Contains(text, "POLITIFACT") {
			t.Error("an excluded site's result reached the model")
		}
		if strings.Contains(text, "approved a new library") && !strings.Contains(r.System+text, "Today is 2019-03-12") {
			t.Errorf("a model call about claim 0 lacks its date (plan, research, recheck and critic all carry it):\n%s", text)
		}
		if strings.Contains(r.FirstUserText(), "approved a new library") { // claimed 12 March 2019
			if !strings.Contains(r.System, "Today is 2019-03-12") || !strings.Contains(r.FirstUserText(), "Made by: A council member") || !strings.Contains(r.FirstUserText(), "Where it appeared: Facebook") {
				t.Errorf("claim 0's request lacks its date, speaker or source:\n%s\n%s", r.System, r.FirstUserText())
			}
			if strings.Contains(text, "LATER-NEWS") {
				t.Error("a result published after the claim's date reached the model")
			}
			sawOld = sawOld || strings.Contains(text, "OLD-MINUTES")
		}
	}
	if !sawOld {
		t.Error("the result dated before the claim never reached the model")
	}
	var freshness []string
	for _, q := range braveReqs() {
		freshness = append(freshness, q.Get("freshness"))
		if !strings.Contains(q.Get("q"), "-site:politifact.com") {
			t.Errorf("Brave query %q does not exclude politifact.com", q.Get("q"))
		}
	}
	slices.Sort(freshness)
	want := []string{"", "1990-01-01to2019-03-12", "1990-01-01to2020-06-01", "1990-01-01to2021-01-05", "1990-01-01to2022-09-30"}
	if fmt.Sprint(freshness) != fmt.Sprint(want) {
		t.Errorf("Brave freshness = %q; want %q", freshness, want)
	}

	// The table states the setup.
	stdout, stderr, code = w.run("eval", "--dataset", dataset, "--quiet", "--limit", "1", "--no-as-of", "--allow-fact-checks")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"search brave; fact-check search on; claims verified as given (no extraction); no date restriction; fact-checks ALLOWED (--allow-fact-checks); no sites excluded"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	last := reqs[len(reqs)-1]
	if !slices.Contains(last.ToolNames(), factcheck.ToolFactChecks) {
		t.Errorf("--allow-fact-checks: tools %v", last.ToolNames())
	}
	if q := braveReqs(); q[len(q)-1].Has("freshness") {
		t.Errorf("--no-as-of: Brave asked with freshness %q", q[len(q)-1].Get("freshness"))
	}
}

func TestEvalFit(t *testing.T) {
	results := filepath.Join("..", "..", "eval", "testdata", "calibration_results.jsonl")
	out := filepath.Join(t.TempDir(), "calibration.json")
	_, stderr, code := runApp(t.Context(), "eval", "--fit", results, "--fit-out", out)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	// The offsets eval's TestFitCalibration works out by hand.
	cal, err := factcheck.LoadCalibration(out)
	if err != nil {
		t.Fatal(err)
	}
	if cal.Offsets[factcheck.Contradicted] != 0.5 || cal.Offsets[factcheck.Unverifiable] != 0.5 || !strings.Contains(stderr, "FACTBOT_CALIBRATION="+out) {
		t.Errorf("offsets %v; stderr %q", cal.Offsets, stderr)
	}
	data, _ := os.ReadFile(results)
	sum := sha256.Sum256(data)
	if on := cal.FittedOn; on == nil || on.File != "calibration_results.jsonl" || on.SHA256 != hex.EncodeToString(sum[:]) || len(on.Claims) == 0 {
		t.Fatalf("fitted_on = %+v; want the results file's name, SHA-256 and claims", cal.FittedOn)
	}

	// Scoring the claims it was fitted on is refused, before any model call.
	w := newWorld(t, func(r *geminitest.Request) geminitest.Reply {
		return verdictReply("unverifiable", "low", "scripted")
	})
	w.env["FACTBOT_CALIBRATION"] = out
	w.env["BRAVE_API_KEY"], w.env["FACTBOT_SEARCH"] = "BSA-test", "brave"
	same := writeFile(t, "same.jsonl", `{"id":"x","claim":"C1","label":"contradicted"}`+"\n"+`{"id":"y","claim":"another claim","label":"supported"}`+"\n")
	_, stderr, code = w.run("eval", "--dataset", same, "--quiet")
	if code != exitUsage || !strings.Contains(stderr, "was fitted on 1 of these 2 claims") || !strings.Contains(stderr, "calibration_results.jsonl") {
		t.Errorf("scoring fitted claims: exit %d, stderr %q; want a usage error", code, stderr)
	}
	// Other claims are scored, and the summary names the offsets file.
	other := writeFile(t, "other.jsonl", `{"id":"y","claim":"another claim","label":"supported"}`+"\n")
	stdout, stderr, code := w.run("eval", "--dataset", other, "--quiet")
	if code != exitOK || !strings.Contains(stdout, "offsets "+out+"; ") {
		t.Errorf("exit %d, stderr %q; the summary does not name the offsets file:\n%s", code, stderr, stdout)
	}
}

// eval --exclusions measures the leak-free rules on an AVeriTeC file: the
// claims' own articles behind a news site's fact-check section, a
// translation proxy, archive.today, Wayback copies and a short link are
// caught; so is, as of its claim's date, a column whose address dates it
// later; a BBC article and archived Washington Post columns of the
// claim's own day (or of a claim without a date) are not, and the report
// names the archived page's own host, not the archive's; separate lines
// count them without the claims' dates and with each claim's own article
// excluded by address too (what a leak-free AVeriTeC run adds).
// --no-as-of measures the rules as a run without dates applies them.
func TestEvalExclusions(t *testing.T) {
	dataset := filepath.Join("..", "..", "eval", "testdata", "averitec_exclusions.json")
	stdout, stderr, code := runApp(context.Background(), "eval", "--exclusions", "--dataset", dataset)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	// The report eval's own test holds in its golden file.
	want, err := os.ReadFile(filepath.Join("..", "..", "eval", "testdata", "averitec_exclusions.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), stdout); d != "" {
		t.Errorf("report (-want +got):\n%s", d)
	}
	stdout, _, code = runApp(context.Background(), "eval", "--exclusions", "--json", "--dataset", dataset)
	var rep eval.ExclusionReport
	if err := json.Unmarshal([]byte(stdout), &rep); code != exitOK || err != nil || rep.Dated != 10 || rep.ArticlesExcluded != 7 || rep.EvidenceExcluded != 4 ||
		rep.WithoutDates != (eval.ExclusionCounts{ArticlesExcluded: 6, EvidenceExcluded: 3}) || rep.OwnURL != (eval.ExclusionCounts{ArticlesExcluded: 11, EvidenceExcluded: 5}) {
		t.Errorf("--json: exit %d, %v, %+v", code, err, rep)
	}
	wantMissed := []eval.HostCount{
		{Host: "washingtonpost.com", Count: 3, Via: []eval.HostCount{{Host: "web.archive.org", Count: 2}}},
		{Host: "bbc.com", Count: 1},
	}
	if d := cmp.Diff(wantMissed, rep.Missed); d != "" {
		t.Errorf("--json missed (-want +got):\n%s", d)
	}
	stdout, _, code = runApp(context.Background(), "eval", "--exclusions", "--json", "--no-as-of", "--dataset", dataset)
	rep = eval.ExclusionReport{}
	if err := json.Unmarshal([]byte(stdout), &rep); code != exitOK || err != nil || rep.Dated != 0 || rep.ArticlesExcluded != 6 || rep.EvidenceExcluded != 3 {
		t.Errorf("--no-as-of --json: exit %d, %v, %+v", code, err, rep)
	}
	if _, stderr, code := runApp(context.Background(), "eval", "--exclusions"); code != exitUsage || !strings.Contains(stderr, "needs an AVeriTeC file") {
		t.Errorf("no dataset: exit %d, %q", code, stderr)
	}
}

// A dated eval is refused when Google Search through Gemini would answer
// (it takes no date): before any model call, with what to do instead.
func TestEvalDatedRefusesGeminiSearch(t *testing.T) {
	w := newWorld(t, func(r *geminitest.Request) geminitest.Reply {
		t.Error("the model was called")
		return geminitest.Text("")
	})
	w.env["FACTBOT_SEARCH"] = "tavily,gemini"
	dataset := filepath.Join("..", "..", "eval", "testdata", "averitec_dev_fixture.json")
	_, stderr, code := w.run("eval", "--dataset", dataset, "--quiet")
	if code != exitUsage || !strings.Contains(stderr, "cannot search as of a date") || !strings.Contains(stderr, "--no-as-of") {
		t.Errorf("exit %d, stderr %q; want a usage error naming Gemini's search and --no-as-of", code, stderr)
	}
}
