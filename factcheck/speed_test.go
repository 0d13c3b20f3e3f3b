package factcheck_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
)

// Tests of the faster path (issue 47) in the fake world, with the model
// that reacts to what it is shown: the plan written with the claims, the
// retrieval before the first research turn, the critic where the verdict
// is in doubt.

// oldPath switches the three steps off.
var oldPath = factcheck.Options{NoJointPlan: true, NoPrefetch: true, NoCriticDoubt: true}

const wallClaim = "The Great Wall of China is visible from space"

// calls names the model's requests by their finishing tool: extraction,
// plan, research, forced, critic.
func calls(w *world) []string {
	var out []string
	for _, r := range w.srv.Requests() {
		names := r.ToolNames()
		switch last := names[len(names)-1]; {
		case last == factcheck.ToolSubmitClaims:
			out = append(out, "extraction")
		case last == factcheck.ToolSubmitQuestions:
			out = append(out, "plan")
		case last == factcheck.ToolSubmitReview:
			out = append(out, "critic")
		case len(names) == 1:
			out = append(out, "forced")
		default:
			out = append(out, "research")
		}
	}
	return out
}

// check runs one check in w, recording its progress events.
func check(t *testing.T, w *world, text string) (*factcheck.Verdict, []factcheck.Event) {
	t.Helper()
	var mu sync.Mutex
	var events []factcheck.Event
	rep, err := w.c.Check(context.Background(), factcheck.Input{Tenant: "t", Text: text, Progress: func(e factcheck.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Claims) != 1 {
		t.Fatalf("%d claims, want 1", len(rep.Claims))
	}
	return rep.Claims[0], events
}

// The first research turn holds the evidence: the questions come with the
// claims, the code has searched them and read the pages that answer
// them, in parallel, and the model gives its verdict at once. The
// verdict, its evidence and its quote are those of the old path, and the
// progress shows every search and read, before the verdict.
func TestRetrievalEvidenceInFirstTurn(t *testing.T) {
	w := newWorld(t, &reacting{needSearches: 1, needReads: 1}, latency{}, factcheck.Options{})
	w.search.together, w.reader.together = 3, 2
	v, events := check(t, w, wallClaim+".")
	if diff := cmp.Diff([]string{"extraction", "research"}, calls(w)); diff != "" {
		t.Errorf("model calls (-want +got):\n%s", diff)
	}
	first := w.srv.Requests()[1]
	if !settling.MatchString(first.AllText()) {
		t.Errorf("the first research turn does not hold the settling sentence:\n%s", first.FirstUserText())
	}
	if !strings.Contains(first.System, "contradicted") {
		t.Error("the first research turn lacks the label definitions, though pages were read")
	}
	if got, want := w.search.calls.Load(), int32(3); got != want {
		t.Errorf("%d searches, want %d (the three questions; one left to the model)", got, want)
	}
	if got := w.search.most.Load(); got != 3 {
		t.Errorf("at most %d searches ran at once, want 3", got)
	}
	if got := w.reader.calls.Load(); got != 2 {
		t.Errorf("%d pages read, want 2 (one read left to the model)", got)
	}
	if got := w.reader.most.Load(); got != 2 {
		t.Errorf("at most %d pages were read at once, want 2", got)
	}
	var kinds []factcheck.EventKind
	for _, e := range events {
		if e.Kind != factcheck.EventNote {
			kinds = append(kinds, e.Kind)
		}
	}
	if diff := cmp.Diff([]factcheck.EventKind{factcheck.EventClaims, factcheck.EventSearch, factcheck.EventSearch, factcheck.EventSearch,
		factcheck.EventRead, factcheck.EventRead, factcheck.EventVerdict}, kinds); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}

	old := newWorld(t, &reacting{needSearches: 1, needReads: 1}, latency{}, oldPath)
	ov, _ := check(t, old, wallClaim+".")
	if diff := cmp.Diff([]string{"extraction", "plan", "research", "research", "research"}, calls(old)); diff != "" {
		t.Errorf("old path's model calls (-want +got):\n%s", diff)
	}
	if v.Verdict != ov.Verdict || v.Confidence != ov.Confidence {
		t.Errorf("verdict %s/%s, the old path's %s/%s", v.Verdict, v.Confidence, ov.Verdict, ov.Confidence)
	}
	quotes := func(v *factcheck.Verdict) []string {
		var q []string
		for _, e := range v.Evidence {
			q = append(q, string(e.Stance)+" "+e.QuoteOrSummary+" "+string(e.QuoteMatch.Place))
		}
		return q
	}
	if diff := cmp.Diff(quotes(ov), quotes(v)); diff != "" || len(v.Evidence) != 1 {
		t.Errorf("evidence (-old path +new):\n%s", diff)
	}
}

// When what was retrieved does not settle the claim, the model keeps its
// tools: it reads and searches more, within what is left of the budgets.
func TestRetrievalSearchesMoreWhenNotSettled(t *testing.T) {
	w := newWorld(t, &reacting{needSearches: 1, needReads: 1}, latency{}, factcheck.Options{})
	w.search.settles = func(q string) bool { return q == wallClaim } // only the claim itself finds the page
	v, _ := check(t, w, wallClaim+".")
	if v.Verdict != factcheck.Contradicted || v.StoppedBy != "" || len(v.Evidence) != 1 || !v.Evidence[0].QuoteFound {
		t.Fatalf("verdict %s stopped by %q with %+v, want contradicted on the page the model found", v.Verdict, v.StoppedBy, v.Evidence)
	}
	if got := w.search.calls.Load(); got != 4 {
		t.Errorf("%d searches, want 4: three retrieved, the claim by the model", got)
	}
	if r := w.srv.Requests()[1]; settling.MatchString(r.AllText()) {
		t.Error("the first turn holds a settling sentence the world does not give")
	}
	if diff := cmp.Diff([]string{"extraction", "research", "research", "research", "research"}, calls(w)); diff != "" {
		t.Errorf("model calls (-want +got):\n%s", diff)
	}
}

// The critic's rule: skipped on a plain verdict the model is confident of
// that cites a page read; kept when the model is not confident and when
// the only evidence is a search snippet; skipped on both under the old
// rule (NoCriticDoubt); never skipped with NoCriticSkip.
func TestCriticWhereInDoubt(t *testing.T) {
	for _, tc := range []struct {
		name    string
		model   *reacting
		snippet bool
		opts    factcheck.Options
		critic  bool
		note    string
	}{
		{"confident, from a page", &reacting{needSearches: 1, needReads: 1}, false, factcheck.Options{}, false, "critic skipped"},
		{"not confident", &reacting{needSearches: 1, needReads: 1, lowConfidence: true}, false, factcheck.Options{}, true, "critic kept: the model's confidence is medium"},
		{"thin: a snippet only", &reacting{needSearches: 1}, true, factcheck.Options{}, true, "critic kept: the evidence is thin"},
		{"thin, the old rule", &reacting{needSearches: 1}, true, factcheck.Options{NoCriticDoubt: true}, false, "critic skipped"},
		{"not confident, the old rule", &reacting{needSearches: 1, needReads: 1, lowConfidence: true}, false, factcheck.Options{NoCriticDoubt: true}, false, "critic skipped"},
		{"never skipped", &reacting{needSearches: 1, needReads: 1}, false, factcheck.Options{NoCriticSkip: true}, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.model, latency{}, tc.opts)
			w.search.snippetSettles = tc.snippet
			v, _ := check(t, w, wallClaim+".")
			if v.Verdict != factcheck.Contradicted {
				t.Fatalf("verdict %s, want contradicted", v.Verdict)
			}
			if got := slices.Contains(calls(w), "critic"); got != tc.critic {
				t.Errorf("critic ran: %v, want %v (calls %v)", got, tc.critic, calls(w))
			}
			if tc.note != "" && !slices.ContainsFunc(v.Trace, func(e factcheck.TraceEvent) bool { return strings.HasPrefix(e.Note, tc.note) }) {
				t.Errorf("the trace does not say %q", tc.note)
			}
		})
	}
}

// The retrieval honours the budgets: it leaves one search and one read to
// the model, counts its own against them, and ends with the wall time.
func TestRetrievalBudgets(t *testing.T) {
	t.Run("searches and reads", func(t *testing.T) {
		// The model wants more than the budgets allow.
		w := newWorld(t, &reacting{needSearches: 9, needReads: 9}, latency{}, factcheck.Options{})
		w.c.Budget = factcheck.Budget{Searches: 2, Reads: 2}
		v, _ := check(t, w, wallClaim+".")
		if got := w.search.calls.Load(); got != 2 {
			t.Errorf("%d searches, want the budget's 2", got)
		}
		if got := w.reader.calls.Load(); got > 2 {
			t.Errorf("%d reads, over the budget's 2", got)
		}
		first := w.srv.Requests()[1].FirstUserText()
		if !strings.Contains(first, "1 of 2 searches, 1 of 2 reads spent") {
			t.Errorf("the first turn does not say what the retrieval spent:\n%s", first)
		}
		if v.StoppedBy != factcheck.BudgetSearches {
			t.Errorf("stopped by %q, want searches", v.StoppedBy)
		}
	})
	t.Run("time", func(t *testing.T) {
		w := newWorld(t, &reacting{needSearches: 1, needReads: 1}, latency{}, factcheck.Options{})
		w.search.delay = time.Hour // the searches outlast the wall-time budget
		w.c.Budget = factcheck.Budget{Time: 50 * time.Millisecond}
		v, _ := check(t, w, wallClaim+".")
		if v.StoppedBy != factcheck.BudgetTime || v.Verdict != factcheck.Unverifiable {
			t.Errorf("verdict %s stopped by %q, want unverifiable by time", v.Verdict, v.StoppedBy)
		}
		if got := w.reader.calls.Load(); got != 0 {
			t.Errorf("%d pages read after the time ran out", got)
		}
	})
}

// A search provider or a page that fails mid-retrieval is an observation
// the model reads, not an error: the check goes on with the rest.
func TestRetrievalFailures(t *testing.T) {
	w := newWorld(t, &reacting{needSearches: 1, needReads: 1}, latency{}, factcheck.Options{})
	questions := planQuestions(wallClaim)
	w.search.fail = func(q string) error {
		if q == questions[0] {
			return errWorld
		}
		return nil
	}
	w.reader.fail = func(u string) error {
		if u == "https://science.example/wall/"+slugOf(questions[1]) {
			return errWorld
		}
		return nil
	}
	v, _ := check(t, w, wallClaim+".")
	if v.Verdict != factcheck.Contradicted || len(v.Evidence) != 1 || v.Evidence[0].SourceURL != "https://science.example/wall/"+slugOf(questions[2]) {
		t.Fatalf("verdict %s with %s, want contradicted on the page that could be read", v.Verdict, jsonOf(v.Evidence))
	}
	first := w.srv.Requests()[1].FirstUserText()
	if strings.Count(first, "503 Service Unavailable") != 2 {
		t.Errorf("the first turn does not show the failed search and read as observations:\n%s", first)
	}
	var failed []string
	for _, e := range v.Trace {
		if e.Kind == "tool" && e.Error != "" {
			failed = append(failed, e.Tool)
		}
	}
	if diff := cmp.Diff([]string{factcheck.ToolWebSearch, factcheck.ToolReadPage}, failed); diff != "" {
		t.Errorf("failed tools in the trace (-want +got):\n%s", diff)
	}
}

// The extraction's tool asks for each claim's questions only on the new
// path; on the old one the plan takes a call of its own.
func TestJointPlan(t *testing.T) {
	for _, tc := range []struct {
		opts  factcheck.Options
		asks  bool
		calls []string
	}{
		{factcheck.Options{NoPrefetch: true}, true, []string{"extraction", "research", "research", "research"}},
		{factcheck.Options{NoPrefetch: true, NoJointPlan: true}, false, []string{"extraction", "plan", "research", "research", "research"}},
	} {
		w := newWorld(t, &reacting{needSearches: 1, needReads: 1}, latency{}, tc.opts)
		v, _ := check(t, w, wallClaim+".")
		decl := w.srv.Requests()[0].Tools[0]
		if got := strings.Contains(string(decl.ParametersJSONSchema)+string(decl.Parameters), `"questions"`); got != tc.asks {
			t.Errorf("%+v: submit_claims asks for questions: %v, want %v", tc.opts, got, tc.asks)
		}
		if diff := cmp.Diff(tc.calls, calls(w)); diff != "" {
			t.Errorf("%+v: model calls (-want +got):\n%s", tc.opts, diff)
		}
		if diff := cmp.Diff(planQuestions(wallClaim), v.Questions); diff != "" {
			t.Errorf("%+v: questions (-want +got):\n%s", tc.opts, diff)
		}
	}
}

// With published fact-checks configured, the retrieval searches them for
// the claim first, and the prompt says so; a key that cannot use them
// fails once, and the tool is not offered to the model after it.
func TestRetrievalFactChecks(t *testing.T) {
	w := newWorld(t, &reacting{needSearches: 1, needReads: 1}, latency{}, factcheck.Options{})
	w.c.FactChecks = fakeFactChecks{}
	v, _ := check(t, w, wallClaim+".")
	first := w.srv.Requests()[1]
	if !strings.Contains(first.FirstUserText(), factcheck.ToolFactChecks+"("+wallClaim+") → ") || !strings.Contains(first.FirstUserText(), "Snopes") {
		t.Errorf("the first turn does not hold the fact-check search:\n%s", first.FirstUserText())
	}
	if !strings.Contains(first.System, "searched for you") || strings.Contains(first.System, "First call search_fact_checks") {
		t.Errorf("the prompt does not say the fact-checks were searched:\n%s", first.System)
	}
	if got := w.search.calls.Load(); got != 2 {
		t.Errorf("%d web searches, want 2 (the fact-check search is the third of the budget's four)", got)
	}
	if v.Verdict != factcheck.Contradicted {
		t.Errorf("verdict %s, want contradicted", v.Verdict)
	}

	fc := &disabledFactChecks{}
	w = newWorld(t, &reacting{needSearches: 1, needReads: 1}, latency{}, factcheck.Options{})
	w.c.FactChecks = fc
	check(t, w, wallClaim+".")
	if fc.calls != 1 {
		t.Errorf("fact-check API called %d times, want 1", fc.calls)
	}
	for _, r := range w.srv.Requests()[1:] {
		if slices.Contains(r.ToolNames(), factcheck.ToolFactChecks) || strings.Contains(r.System, factcheck.ToolFactChecks) {
			t.Errorf("search_fact_checks still offered after it failed for good: %v", r.ToolNames())
		}
	}
}
