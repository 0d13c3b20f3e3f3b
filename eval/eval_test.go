package eval

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/goldentest"
	"github.com/factbot-dev/factbot/internal/usererr"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fakeClock advances only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fakeChecker answers from a script keyed by claim text and counts calls.
type fakeChecker struct {
	mu      sync.Mutex
	reports map[string]*factcheck.Report
	errs    map[string]error
	calls   []string
	clock   *fakeClock
	// before, if set, runs first on each call with the call's number (1-based).
	before func(ctx context.Context, n int) error
}

func (f *fakeChecker) Check(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
	f.mu.Lock()
	f.calls = append(f.calls, in.Text)
	n := len(f.calls)
	f.mu.Unlock()
	if in.Tenant != "eval" || !in.Fresh {
		return nil, fmt.Errorf("input %+v: want tenant eval, fresh", in)
	}
	if f.before != nil {
		if err := f.before(ctx, n); err != nil {
			return nil, err
		}
	}
	if f.clock != nil {
		f.clock.Advance(3 * time.Second)
	}
	if err := f.errs[in.Text]; err != nil {
		return nil, err
	}
	rep, ok := f.reports[in.Text]
	if !ok {
		return &factcheck.Report{Input: in.Text}, nil
	}
	return rep, nil
}

func (f *fakeChecker) called() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func tool(name string) factcheck.TraceEvent { return factcheck.TraceEvent{Kind: "tool", Tool: name} }

// verdictReport is a report whose first verdict has label l.
func verdictReport(l factcheck.Label, mods ...func(*factcheck.Verdict)) *factcheck.Report {
	v := &factcheck.Verdict{Verdict: l, Confidence: factcheck.Medium, Model: "fake-flash",
		Trace: []factcheck.TraceEvent{tool(factcheck.ToolWebSearch), tool(factcheck.ToolReadPage), {Kind: "model"}}}
	for _, m := range mods {
		m(v)
	}
	return &factcheck.Report{Claims: []*factcheck.Verdict{v}, Model: "fake-flash", Usage: factcheck.Usage{PromptTokens: 1000, OutputTokens: 100}}
}

// arithmeticSet is ten cases with known predictions:
//
//	gold \ predicted  S  R  C  U
//	supported         2  1  0  0
//	contradicted      1  2  0  0
//	contested         0  1  1  0
//	unverifiable      0  0  0  2   (one of them: no claim extracted)
func arithmeticSet() ([]Case, *fakeChecker) {
	S, R, C, U := factcheck.Supported, factcheck.Contradicted, factcheck.Contested, factcheck.Unverifiable
	type row struct {
		gold, pred factcheck.Label
		noClaim    bool
	}
	rows := []row{{S, S, false}, {S, S, false}, {S, R, false}, {R, R, false}, {R, S, false}, {R, R, false}, {C, C, false}, {C, R, false}, {U, U, false}, {U, "", true}}
	f := &fakeChecker{reports: map[string]*factcheck.Report{}}
	var cases []Case
	for i, r := range rows {
		claim := fmt.Sprintf("claim %d", i+1)
		cases = append(cases, Case{ID: fmt.Sprint(i + 1), Claim: claim, Label: r.gold})
		if r.noClaim {
			f.reports[claim] = &factcheck.Report{Input: claim, Usage: factcheck.Usage{PromptTokens: 500, OutputTokens: 50}}
			continue
		}
		f.reports[claim] = verdictReport(r.pred)
	}
	// Claim 1: two cited URLs, one retrieved; one quote found. Stopped by time.
	f.reports["claim 1"] = verdictReport(S, func(v *factcheck.Verdict) {
		v.Evidence = []factcheck.Evidence{
			{SourceURL: "https://a.example/1", QuoteOrSummary: "q", QuoteFound: true},
			{SourceURL: "https://b.example/2", QuoteOrSummary: "q2"},
			{SourceURL: "https://a.example/1", QuoteOrSummary: "q3", QuoteFound: true},
		}
		v.Sources = []factcheck.Source{{URL: "https://a.example/1", Via: "read"}}
		v.StoppedBy = factcheck.BudgetTime
	})
	// Claim 4: one more search refused by the budget (not counted), stopped by searches.
	f.reports["claim 4"] = verdictReport(R, func(v *factcheck.Verdict) {
		v.Trace = append(v.Trace, tool(factcheck.ToolFactChecks), factcheck.TraceEvent{Kind: "tool", Tool: factcheck.ToolWebSearch, Error: "budget used up: searches"})
		v.StoppedBy = factcheck.BudgetSearches
		v.Evidence = []factcheck.Evidence{{SourceURL: "https://c.example/", QuoteFound: true}}
		v.Sources = []factcheck.Source{{URL: "https://c.example/"}}
	})
	return cases, f
}

func TestSummaryArithmetic(t *testing.T) {
	cases, f := arithmeticSet()
	clock := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	f.clock = clock
	r := &Runner{Checker: f, Concurrency: 1, Now: clock.Now}
	results, err := r.Run(context.Background(), cases, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	s := Summarize(results, len(cases), Prices{InputPerM: 1, OutputPerM: 10})

	S, R, C, U := factcheck.Supported, factcheck.Contradicted, factcheck.Contested, factcheck.Unverifiable
	wantConf := Confusion{Labels: []factcheck.Label{S, R, C, U}, Counts: [][]int{{2, 1, 0, 0}, {1, 2, 0, 0}, {0, 1, 1, 0}, {0, 0, 0, 2}}}
	if diff := cmp.Diff(wantConf, s.Confusion); diff != "" {
		t.Errorf("confusion (-want +got):\n%s", diff)
	}
	// By hand: supported P=2/3 R=2/3; contradicted P=2/4 R=2/3 F1=4/7;
	// contested P=1 R=1/2 F1=2/3; unverifiable P=R=F1=1.
	wantLabels := []LabelStats{
		{Label: S, Support: 3, Predicted: 3, Correct: 2, Precision: 2.0 / 3, Recall: 2.0 / 3, F1: 2.0 / 3},
		{Label: R, Support: 3, Predicted: 4, Correct: 2, Precision: 0.5, Recall: 2.0 / 3, F1: 4.0 / 7},
		{Label: C, Support: 2, Predicted: 1, Correct: 1, Precision: 1, Recall: 0.5, F1: 2.0 / 3},
		{Label: U, Support: 2, Predicted: 2, Correct: 2, Precision: 1, Recall: 1, F1: 1},
	}
	approx := cmpopts.EquateApprox(0, 1e-12)
	if diff := cmp.Diff(wantLabels, s.Labels, approx); diff != "" {
		t.Errorf("per-label (-want +got):\n%s", diff)
	}
	type headline struct {
		Cases, Scored, Errors, Missing, NoClaim       int
		Accuracy, MacroF1                             float64
		CitedURLs, CitedRetrieved, Evidence, QuotesOK int
		CitedShare, QuoteShare                        float64
		Searches, Reads, In, Out                      int
		Seconds, PerClaimSeconds, Cost, PerClaimCost  float64
		BudgetStops                                   int
		StoppedBy                                     map[string]int
	}
	got := headline{s.Cases, s.Scored, s.Errors, s.Missing, s.NoClaim, s.Accuracy, s.MacroF1,
		s.CitedURLs, s.CitedRetrieved, s.EvidenceItems, s.QuotesFound, s.CitedShare, s.QuoteShare,
		s.Searches, s.Reads, s.PromptTokens, s.OutputTokens, s.Seconds, s.PerClaim.Seconds, s.CostUSD, s.PerClaim.CostUSD, s.BudgetStops, s.StoppedBy}
	want := headline{
		Cases: 10, Scored: 10, NoClaim: 1,
		Accuracy: 0.7,
		MacroF1:  (2.0/3 + 4.0/7 + 2.0/3 + 1) / 4, // 61/84
		// Claim 1 cites a.example (retrieved) and b.example (not); claim 4 cites c.example (retrieved).
		CitedURLs: 3, CitedRetrieved: 2, Evidence: 4, QuotesOK: 3, CitedShare: 2.0 / 3, QuoteShare: 0.75,
		// Nine verdicts with one search and one read each, plus claim 4's fact-check search.
		Searches: 10, Reads: 9, In: 9*1000 + 500, Out: 9*100 + 50,
		Seconds: 30, PerClaimSeconds: 3,
		Cost:         9500*1.0/1e6 + 950*10.0/1e6, // $0.019
		PerClaimCost: 0.0019,
		BudgetStops:  2, StoppedBy: map[string]int{"time": 1, "searches": 1},
	}
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if math.Abs(s.MacroF1-61.0/84) > 1e-12 {
		t.Errorf("macro-F1 = %v, want 61/84", s.MacroF1)
	}

	// The terminal table is stable: compare with a golden file.
	s.Dataset = "arithmetic"
	var table bytes.Buffer
	if err := WriteTable(&table, s); err != nil {
		t.Fatal(err)
	}
	goldentest.Golden(t, filepath.Join("testdata", "summary_table.golden"), table.Bytes(), *update)
}

func TestResumeChecksNothingTwice(t *testing.T) {
	cases, f := arithmeticSet()
	// The first run is interrupted while checking the fifth claim.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.before = func(ctx context.Context, n int) error {
		if n == 5 {
			cancel()
			<-ctx.Done()
			return ctx.Err()
		}
		return nil
	}
	// One claim fails outright: it is recorded as an error and retried.
	f.errs = map[string]error{"claim 2": errors.New("search provider down")}
	var out bytes.Buffer
	r := &Runner{Checker: f, Concurrency: 1, Out: &out}
	got, err := r.Run(ctx, cases, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run err = %v, want context.Canceled", err)
	}
	if len(got) != 4 {
		t.Fatalf("first run returned %d results, want 4", len(got))
	}
	// A write torn by the interruption ends the file.
	out.WriteString(`{"id":"5","claim":"claim 5","lab`)

	done, err := ReadResults(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatalf("ReadResults: %v", err)
	}
	if len(done) != 4 {
		t.Fatalf("results file holds %d results, want 4", len(done))
	}

	second := &fakeChecker{reports: f.reports}
	var out2 bytes.Buffer
	var bar bytes.Buffer
	r2 := &Runner{Checker: second, Concurrency: 3, Out: &out2, Progress: &bar}
	all, err := r2.Run(context.Background(), cases, done)
	if err != nil {
		t.Fatalf("resumed run: %v", err)
	}
	checked := second.called()
	wantChecked := []string{"claim 2", "claim 5", "claim 6", "claim 7", "claim 8", "claim 9", "claim 10"}
	if diff := cmp.Diff(wantChecked, checked, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("claims checked on resume (-want +got):\n%s", diff)
	}
	if len(all) != len(cases) {
		t.Fatalf("resumed run returned %d results, want %d", len(all), len(cases))
	}
	for i, res := range all {
		if res.ID != cases[i].ID || res.Error != "" {
			t.Errorf("result %d = %s (error %q), want %s without error", i, res.ID, res.Error, cases[i].ID)
		}
	}
	if s := Summarize(all, len(cases), DefaultPrices); s.Accuracy != 0.7 {
		t.Errorf("accuracy after resume = %v, want 0.7", s.Accuracy)
	}
	if !strings.Contains(bar.String(), "10/10") || !strings.Contains(bar.String(), "accuracy 70.0%") {
		t.Errorf("progress bar %q lacks 10/10 and accuracy 70.0%%", bar.String())
	}
	// The file, both parts together, reads back as every case once.
	both, err := ReadResults(strings.NewReader(strings.TrimSuffix(out.String(), `{"id":"5","claim":"claim 5","lab`) + out2.String()))
	if err != nil || len(both) != len(cases) {
		t.Errorf("combined results file: %d results, err %v; want %d", len(both), err, len(cases))
	}
}

func TestConfigErrorStopsRun(t *testing.T) {
	cases, f := arithmeticSet()
	f.errs = map[string]error{"claim 3": &usererr.Config{Var: "GEMINI_API_KEY", Msg: "rejected"}}
	var out bytes.Buffer
	r := &Runner{Checker: f, Concurrency: 1, Out: &out}
	got, err := r.Run(context.Background(), cases, nil)
	var ce *usererr.Config
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want the ConfigError", err)
	}
	if len(got) != 2 || len(f.called()) != 3 {
		t.Errorf("got %d results after %d calls, want 2 after 3", len(got), len(f.called()))
	}
	if strings.Contains(out.String(), "claim 3") {
		t.Errorf("a configuration failure was written as a result: %s", out.String())
	}
}

// loadFile reads a dataset file in format f.
func loadFile(t *testing.T, path string, f Format) ([]Case, error) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Load(bytes.NewReader(b), f)
}

func TestLoadAVeriTeC(t *testing.T) {
	cases, err := loadFile(t, filepath.Join("testdata", "averitec_dev_fixture.json"), FormatAuto)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := []Case{
		{ID: "0", Claim: "The town council of Exampleton approved a new library in 2019.", Label: factcheck.Supported, Notes: "claim date 12-3-2019",
			Date: time.Date(2019, 3, 12, 0, 0, 0, 0, time.UTC), Speaker: "A council member", Source: "Facebook",
			Article: "https://factcheck.example/exampleton-library"},
		{ID: "1", Claim: "Exampleton's river is the longest in the country.", Label: factcheck.Contradicted, Notes: "claim date 1-6-2020",
			Date: time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC), Speaker: "A tourism leaflet", Source: "Website",
			Article: "https://factcheck.example/river"},
		{ID: "2", Claim: "Crime in Exampleton doubled last year.", Label: factcheck.Contested, Notes: "claim date 5-1-2021",
			Date: time.Date(2021, 1, 5, 0, 0, 0, 0, time.UTC), Speaker: "A candidate"},
		{ID: "3", Claim: "The mayor of Exampleton wrote a novel under a pen name.", Label: factcheck.Unverifiable, Speaker: "An anonymous post"},
		{ID: "4", Claim: "Exampleton's bridge is 200 years old and was never repaired.", Label: factcheck.Contested, Notes: "claim date 30-9-2022",
			Date: time.Date(2022, 9, 30, 0, 0, 0, 0, time.UTC), Speaker: "A local newspaper"},
	}
	if diff := cmp.Diff(want, cases); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
	// The explicit format gives the same; a JSON Lines reading fails clearly.
	if _, err := loadFile(t, filepath.Join("testdata", "averitec_dev_fixture.json"), FormatJSONL); err == nil {
		t.Error("reading the AVeriTeC file as JSON Lines succeeded")
	}
}

func TestAVeriTeCLabels(t *testing.T) {
	for in, want := range map[string]factcheck.Label{
		"Supported":                          factcheck.Supported,
		"Refuted":                            factcheck.Contradicted,
		"Conflicting Evidence/Cherrypicking": factcheck.Contested,
		"Not Enough Evidence":                factcheck.Unverifiable,
	} {
		if got, ok := AVeriTeCLabel(in); !ok || got != want {
			t.Errorf("AVeriTeCLabel(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, err := LoadAVeriTeC(strings.NewReader(`[{"claim":"x","label":"Pants on Fire"}]`)); err == nil || !strings.Contains(err.Error(), "Pants on Fire") {
		t.Errorf("unknown label: err = %v", err)
	}
}

func TestLoadJSONL(t *testing.T) {
	good := "// a comment\n" +
		`{"claim":"A","label":"supported","id":"a1","notes":"n"}` + "\n\n" +
		`{"claim":" B ","label":"Contradicted","id":7}` + "\n" +
		`{"claim":"C","label":"unverifiable"}` + "\n" +
		`{"claim":"D","label":"supported","date":"2024-03-01","speaker":"A senator","source":"Twitter"}` + "\n"
	got, err := LoadJSONL(strings.NewReader(good))
	if err != nil {
		t.Fatalf("LoadJSONL: %v", err)
	}
	want := []Case{
		{ID: "a1", Claim: "A", Label: factcheck.Supported, Notes: "n"},
		{ID: "7", Claim: "B", Label: factcheck.Contradicted},
		{ID: claimID("C"), Claim: "C", Label: factcheck.Unverifiable},
		{ID: claimID("D"), Claim: "D", Label: factcheck.Supported, Date: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), Speaker: "A senator", Source: "Twitter"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
	for _, tc := range []struct{ name, in, wantErr string }{
		{"bad label", `{"claim":"A","label":"true"}`, `line 1: label "true"`},
		{"no claim", `{"label":"supported"}`, `line 1: no "claim"`},
		{"duplicate id", `{"claim":"A","label":"supported","id":"x"}` + "\n" + `{"claim":"B","label":"supported","id":"x"}`, `line 2: id "x" already used on line 1`},
		{"not JSON", `claim,label`, "line 1: not a JSON object"},
		{"bad date", `{"claim":"A","label":"supported","date":"1 March 2024"}`, `line 1: date "1 March 2024" is not YYYY-MM-DD`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadJSONL(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}

func TestShippedSet(t *testing.T) {
	cases := Shipped()
	if len(cases) < 60 {
		t.Errorf("shipped set has %d claims, want at least 60", len(cases))
	}
	per := map[factcheck.Label]int{}
	claims := map[string]bool{}
	for _, c := range cases {
		per[c.Label]++
		if strings.TrimSpace(c.Notes) == "" || strings.Contains(c.Notes, "\n") {
			t.Errorf("case %s: notes must be one non-empty line", c.ID)
		}
		if claims[c.Claim] {
			t.Errorf("case %s: duplicate claim %q", c.ID, c.Claim)
		}
		claims[c.Claim] = true
	}
	for _, l := range factcheck.Labels {
		if per[l] < 15 {
			t.Errorf("label %s has %d claims, want at least 15", l, per[l])
		}
	}
	// The file on disk is the embedded one.
	fromDisk, err := loadFile(t, "claims.jsonl", FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(cases, fromDisk); diff != "" {
		t.Errorf("embedded vs disk (-want +got):\n%s", diff)
	}
}

func TestHTMLSelfContained(t *testing.T) {
	cases, f := arithmeticSet()
	f.reports["claim 3"] = verdictReport(factcheck.Contradicted, func(v *factcheck.Verdict) {
		v.Reasoning = `<script>alert(1)</script>`
		v.Evidence = []factcheck.Evidence{{SourceURL: "https://evil.example/pixel.png", QuoteOrSummary: `"><img src="https://evil.example/x.png">`}}
	})
	cases[2].Claim = "claim 3"
	results, err := (&Runner{Checker: f}).Run(context.Background(), cases, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(results, len(cases), DefaultPrices)
	var b bytes.Buffer
	if err := WriteHTML(&b, s); err != nil {
		t.Fatalf("WriteHTML: %v", err)
	}
	html := b.String()
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(src|href|srcset|poster|data)\s*=\s*["']?\s*(https?:)?//`),
		regexp.MustCompile(`(?i)<(script|link|iframe|img|object|embed)\b`),
		regexp.MustCompile(`(?i)@import|url\(`),
	} {
		if m := bad.FindString(html); m != "" {
			t.Errorf("HTML report is not self-contained or not escaped: found %q", m)
		}
	}
	for _, want := range []string{"<svg", "Confusion matrix", "<style>", "macro-F1", "&lt;script&gt;", "https://evil.example/pixel.png"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML report lacks %q", want)
		}
	}
}

func TestCompare(t *testing.T) {
	S, R, U := factcheck.Supported, factcheck.Contradicted, factcheck.Unverifiable
	a := []Result{
		{ID: "1", Claim: "one", Label: S, Predicted: S, Correct: true},
		{ID: "2", Claim: "two", Label: R, Predicted: S},
		{ID: "3", Claim: "three", Label: U, Predicted: R},
		{ID: "4", Claim: "four", Label: U, Error: "boom"},
		{ID: "5", Claim: "five", Label: U, Predicted: U, Correct: true},
	}
	b := []Result{
		{ID: "1", Claim: "one", Label: S, Predicted: R},
		{ID: "2", Claim: "two", Label: R, Predicted: R, Correct: true},
		{ID: "3", Claim: "three", Label: U, Predicted: S},
		{ID: "4", Claim: "four", Label: U, Predicted: U, Correct: true},
		{ID: "6", Claim: "six", Label: U, Predicted: U, Correct: true},
	}
	got := Compare(a, b)
	want := &Comparison{
		Changes: []Change{
			{ID: "1", Claim: "one", Label: S, Before: "supported", After: "contradicted", Kind: "broken"},
			{ID: "2", Claim: "two", Label: R, Before: "supported", After: "contradicted", Kind: "fixed"},
			{ID: "3", Claim: "three", Label: U, Before: "contradicted", After: "supported", Kind: "changed"},
			{ID: "4", Claim: "four", Label: U, Before: "error", After: "unverifiable", Kind: "fixed"},
		},
		Common: 4, OnlyA: 1, OnlyB: 1, AccuracyA: 0.25, AccuracyB: 0.5,
		// A scored 1, 2, 3 (4 failed): supported P 1/2 R 1, the others 0.
		// B: contradicted P 1/2 R 1, unverifiable P 1 R 1/2, supported 0.
		MacroF1A: 2.0 / 9, MacroF1B: 4.0 / 9,
		Labels: []LabelChange{
			{Label: S, F1A: 2.0 / 3, F1B: 0},
			{Label: R, F1A: 0, F1B: 2.0 / 3},
			{Label: factcheck.Contested},
			{Label: U, F1A: 0, F1B: 2.0 / 3},
		},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("Compare (-want +got):\n%s", diff)
	}

	// LoadRun reads both a --json summary and an --out results file.
	dir := t.TempDir()
	var js bytes.Buffer
	if err := WriteJSON(&js, Summarize(a, 0, DefaultPrices)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.json"), js.Bytes(), 0o644)
	var jl bytes.Buffer
	r := &Runner{Checker: &fakeChecker{}, Out: &jl}
	if _, err := r.Run(context.Background(), []Case{{ID: "1", Claim: "one", Label: S}}, nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "b.jsonl"), jl.Bytes(), 0o644)
	ra, err := LoadRun(filepath.Join(dir, "a.json"))
	if err != nil || len(ra) != len(a) {
		t.Fatalf("LoadRun(summary) = %d results, %v", len(ra), err)
	}
	rb, err := LoadRun(filepath.Join(dir, "b.jsonl"))
	if err != nil || len(rb) != 1 {
		t.Fatalf("LoadRun(results) = %d results, %v", len(rb), err)
	}
	var out bytes.Buffer
	if err := WriteComparison(&out, Compare(ra, rb)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "broken") || !strings.Contains(out.String(), "supported") {
		t.Errorf("comparison output:\n%s", out.String())
	}
}

// inputRecorder records the inputs it is asked to check.
type inputRecorder struct {
	mu  sync.Mutex
	ins map[string]factcheck.Input
}

func (r *inputRecorder) Check(_ context.Context, in factcheck.Input) (*factcheck.Report, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	in.Progress = nil
	r.ins[in.Text] = in
	v := &factcheck.Verdict{Claim: in.Text, Verdict: factcheck.Supported, Scores: map[factcheck.Label]float64{factcheck.Supported: 4}}
	return &factcheck.Report{Input: in.Text, Claims: []*factcheck.Verdict{v}}, nil
}

func TestRunnerAsGivenAsOf(t *testing.T) {
	cases, err := loadFile(t, filepath.Join("testdata", "averitec_dev_fixture.json"), FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	lib, mayor := cases[0], cases[3]
	tests := []struct {
		name           string
		asGiven, asOf  bool
		exclude        bool // Runner.ExcludeArticle
		wantLib, wantM factcheck.Input
	}{
		{"leak-free: its own article excluded", true, true, true,
			factcheck.Input{Tenant: Tenant, Text: lib.Claim, Fresh: true, AsClaim: true, AsOf: lib.Date, Speaker: "A council member", Source: "Facebook",
				ExcludeURLs: []string{"https://factcheck.example/exampleton-library"}},
			factcheck.Input{Tenant: Tenant, Text: mayor.Claim, Fresh: true, AsClaim: true, Speaker: "An anonymous post"}},
		{"as given, as of", true, true, false,
			factcheck.Input{Tenant: Tenant, Text: lib.Claim, Fresh: true, AsClaim: true, AsOf: lib.Date, Speaker: "A council member", Source: "Facebook"},
			factcheck.Input{Tenant: Tenant, Text: mayor.Claim, Fresh: true, AsClaim: true, Speaker: "An anonymous post"}},
		{"as given, no date", true, false, false,
			factcheck.Input{Tenant: Tenant, Text: lib.Claim, Fresh: true, AsClaim: true, Speaker: "A council member", Source: "Facebook"},
			factcheck.Input{Tenant: Tenant, Text: mayor.Claim, Fresh: true, AsClaim: true, Speaker: "An anonymous post"}},
		{"extracted", false, false, false,
			factcheck.Input{Tenant: Tenant, Text: lib.Claim, Fresh: true, Speaker: "A council member", Source: "Facebook"},
			factcheck.Input{Tenant: Tenant, Text: mayor.Claim, Fresh: true, Speaker: "An anonymous post"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &inputRecorder{ins: map[string]factcheck.Input{}}
			r := &Runner{Checker: rec, AsGiven: tc.asGiven, AsOf: tc.asOf, ExcludeArticle: tc.exclude}
			res, err := r.Run(context.Background(), cases, nil)
			if err != nil {
				t.Fatal(err)
			}
			ignore := cmpopts.IgnoreFields(factcheck.Input{}, "Progress")
			if d := cmp.Diff(tc.wantLib, rec.ins[lib.Claim], ignore); d != "" {
				t.Errorf("input (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantM, rec.ins[mayor.Claim], ignore); d != "" {
				t.Errorf("input (-want +got):\n%s", d)
			}
			wantAsOf := ""
			if tc.asOf {
				wantAsOf = "2019-03-12"
			}
			if res[0].AsOf != wantAsOf || res[0].Scores[factcheck.Supported] != 4 {
				t.Errorf("result as of %q, scores %v; want %q and the verdict's scores", res[0].AsOf, res[0].Scores, wantAsOf)
			}
		})
	}
}

func TestSummaryCountsUndated(t *testing.T) {
	results := []Result{
		{ID: "1", Label: factcheck.Supported, Predicted: factcheck.Supported, Undated: 2},
		{ID: "2", Label: factcheck.Contradicted, Predicted: factcheck.Unverifiable, Undated: 1},
	}
	s := Summarize(results, 0, DefaultPrices)
	s.Setup = &Setup{AsOf: true, Dated: 2, LeakFree: true}
	var b strings.Builder
	if err := WriteTable(&b, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"undated: 3 results and pages dropped", "undated results and pages dropped); leak-free"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}
