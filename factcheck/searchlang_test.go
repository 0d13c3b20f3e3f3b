package factcheck_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/search"
)

// querySearcher records the queries searched and answers each with one
// result of its own.
type querySearcher struct {
	mu      sync.Mutex
	queries []string
}

func (s *querySearcher) Search(_ context.Context, sq search.Query) (*search.Response, error) {
	q := sq.Text
	s.mu.Lock()
	s.queries = append(s.queries, q)
	n := len(s.queries)
	s.mu.Unlock()
	return &search.Response{Query: q, Provider: "fake", Results: []search.Result{{Title: q,
		URL: "https://news.example.org/" + string(rune('a'+n)), Snippet: "A report about the tower's height."}}}, nil
}

func (s *querySearcher) Queries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.queries)
}

// A claim not in English is searched in its language and in English, even
// when the model searches in one of them only: through the real loop and
// Gemini's SDK against the fake server, the model's one search is kept,
// the verdict it submits next is sent back with the results of a search
// the code ran in the other language (the plan's question in it), and the
// model sees them. A claim in English is searched as the model asks only.
func TestSearchesInClaimLanguageAndEnglish(t *testing.T) {
	const (
		esClaim = "La Torre Eiffel mide 330 metros de altura"
		enClaim = "The Eiffel Tower is 330 metres tall"
		esQ     = "¿Cuánto mide la Torre Eiffel según la empresa que la gestiona?"
		enQ     = "How tall is the Eiffel Tower according to its operator?"
		esQuery = "altura de la Torre Eiffel en metros"
		enQuery = "Eiffel Tower height in metres"
	)
	for _, tc := range []struct {
		name, claim, lang, query string
		questions                []string
		want                     []string
		sentBack                 string // a word of the sent-back verdict's message
	}{
		{"Spanish claim, English search", esClaim, "es", enQuery, []string{esQ, enQ}, []string{enQuery, esQ}, "Spanish"},
		{"Spanish claim, Spanish search", esClaim, "es", esQuery, []string{esQ, enQ}, []string{esQuery, enQ}, "English"},
		{"English claim", enClaim, "en", enQuery, []string{enQ, "Who measured the Eiffel Tower?"}, []string{enQuery}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var verdicts []string // the answers to submit_verdict the model read: rejections
			srv := geminitest.NewServer(t, func(r *geminitest.Request) geminitest.Reply {
				tools := r.ToolNames()
				switch {
				case slices.Contains(tools, factcheck.ToolSubmitClaims):
					return geminitest.Call(factcheck.ToolSubmitClaims, map[string]any{"language": tc.lang,
						"claims": []map[string]string{{"claim": tc.claim, "span": tc.claim}}})
				case slices.Contains(tools, factcheck.ToolSubmitQuestions):
					return geminitest.Call(factcheck.ToolSubmitQuestions, map[string]any{"questions": tc.questions})
				case slices.Contains(tools, factcheck.ToolSubmitReview):
					return geminitest.Call(factcheck.ToolSubmitReview, map[string]any{"ok": true, "note": "fine"})
				case slices.Contains(tools, factcheck.ToolWebSearch) && r.Turns() == 0:
					return geminitest.Call(factcheck.ToolWebSearch, map[string]string{"query": tc.query})
				}
				if rs := r.LastFunctionResponses(); len(rs) > 0 && rs[0].Name == factcheck.ToolSubmitVerdict {
					b, _ := json.Marshal(rs[0].Response)
					mu.Lock()
					verdicts = append(verdicts, string(b))
					mu.Unlock()
				}
				return reply(r)
			})
			m, err := gemini.New(context.Background(), gemini.Config{APIKey: "k", BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			s := &querySearcher{}
			c := &factcheck.Checker{Model: m, Search: s, Options: factcheck.Options{NoPrefetch: true}} // the model's own searches are what is tested
			rep, err := c.Check(context.Background(), factcheck.Input{Text: tc.claim})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, s.Queries()); diff != "" {
				t.Errorf("queries searched (-want +got):\n%s", diff)
			}
			if tc.sentBack == "" {
				if len(verdicts) != 0 {
					t.Errorf("the verdict was sent back: %s", verdicts[0])
				}
				return
			}
			if len(verdicts) != 1 {
				t.Fatalf("the verdict was sent back %d times, want once", len(verdicts))
			}
			last := tc.want[len(tc.want)-1]
			if !strings.Contains(verdicts[0], "had not searched in "+tc.sentBack) || !strings.Contains(verdicts[0], last) {
				t.Errorf("the model was not shown the search in %s (%q):\n%s", tc.sentBack, last, verdicts[0])
			}
			if got := rep.Claims[0].Verdict; got != factcheck.Unverifiable {
				t.Errorf("verdict %s", got)
			}
		})
	}
}

// spanishClaim is the claim of the budget tests below.
const spanishClaim = "La Torre Eiffel mide 330 metros de altura"

// checkSpanish checks spanishClaim through the real loop and Gemini's SDK
// against the fake server: the claim is extracted as Spanish, the plan asks
// one question in English and one in Spanish, reviews pass, and a research
// call is answered by research (its verdict reply when ok is false). It
// returns the report and the queries searched.
func checkSpanish(t *testing.T, b factcheck.Budget, research func(r *geminitest.Request) (geminitest.Reply, bool)) (*factcheck.Report, []string) {
	t.Helper()
	srv := geminitest.NewServer(t, func(r *geminitest.Request) geminitest.Reply {
		tools := r.ToolNames()
		switch {
		case slices.Contains(tools, factcheck.ToolSubmitClaims):
			return geminitest.Call(factcheck.ToolSubmitClaims, map[string]any{"language": "es",
				"claims": []map[string]string{{"claim": spanishClaim, "span": spanishClaim}}})
		case slices.Contains(tools, factcheck.ToolSubmitQuestions):
			return geminitest.Call(factcheck.ToolSubmitQuestions, map[string]any{"questions": []string{"How tall is the Eiffel Tower?", "¿Cuánto mide la Torre Eiffel?"}})
		case slices.Contains(tools, factcheck.ToolSubmitReview):
			return geminitest.Call(factcheck.ToolSubmitReview, map[string]any{"ok": true, "note": "fine"})
		}
		if rep, ok := research(r); ok {
			return rep
		}
		return reply(r)
	})
	m, err := gemini.New(context.Background(), gemini.Config{APIKey: "k", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	s := &querySearcher{}
	c := &factcheck.Checker{Model: m, Search: s, Budget: b, Options: factcheck.Options{NoPrefetch: true}} // the model's own searches are what is tested
	rep, err := c.Check(context.Background(), factcheck.Input{Text: spanishClaim})
	if err != nil {
		t.Fatal(err)
	}
	return rep, s.Queries()
}

func searchCall(q string) (geminitest.Reply, bool) {
	return geminitest.Call(factcheck.ToolWebSearch, map[string]string{"query": q}), true
}

// When the model would spend the last search of the budget in the same
// language as all the others, that search is made in the missing language.
func TestLastSearchRewrittenIntoMissingLanguage(t *testing.T) {
	queries := []string{"Eiffel Tower height", "Eiffel Tower official height metres"}
	_, got := checkSpanish(t, factcheck.Budget{Searches: 2}, func(r *geminitest.Request) (geminitest.Reply, bool) {
		if slices.Contains(r.ToolNames(), factcheck.ToolWebSearch) && r.Turns() < len(queries) {
			return searchCall(queries[r.Turns()])
		}
		return geminitest.Reply{}, false
	})
	if diff := cmp.Diff([]string{"Eiffel Tower height", "¿Cuánto mide la Torre Eiffel?"}, got); diff != "" {
		t.Errorf("queries searched (-want +got):\n%s", diff)
	}
}

// A search the code adds counts against the search budget: the model's
// searches after it stop at the budget.
func TestAddedSearchCountsAgainstBudget(t *testing.T) {
	_, got := checkSpanish(t, factcheck.Budget{Searches: 2}, func(r *geminitest.Request) (geminitest.Reply, bool) {
		if !slices.Contains(r.ToolNames(), factcheck.ToolWebSearch) {
			return geminitest.Reply{}, false
		}
		switch r.Turns() {
		case 0:
			return searchCall("Eiffel Tower height")
		case 2: // after the verdict sent back with the Spanish search
			return searchCall("Eiffel Tower antenna height")
		}
		return geminitest.Reply{}, false
	})
	if diff := cmp.Diff([]string{"Eiffel Tower height", "¿Cuánto mide la Torre Eiffel?"}, got); diff != "" {
		t.Errorf("queries searched (-want +got):\n%s", diff)
	}
}

// A verdict given in the forced final call, after a budget ended the
// research, gets no search added: the model could not read it.
func TestNoSearchAddedAfterBudget(t *testing.T) {
	rep, got := checkSpanish(t, factcheck.Budget{Steps: 1}, func(r *geminitest.Request) (geminitest.Reply, bool) {
		if slices.Contains(r.ToolNames(), factcheck.ToolWebSearch) {
			return searchCall("Eiffel Tower height")
		}
		return geminitest.Reply{}, false // the forced final call, the critic's
	})
	if diff := cmp.Diff([]string{"Eiffel Tower height"}, got); diff != "" {
		t.Errorf("queries searched (-want +got):\n%s", diff)
	}
	var noted bool
	for _, e := range rep.Claims[0].Trace {
		noted = noted || e.Note == "no search in Spanish: a budget ended the research first"
	}
	if !noted {
		t.Errorf("the trace does not say why no search was added: %+v", rep.Claims[0].Trace)
	}
}
