package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/factbot-dev/factbot/factcheck"
)

// Prices are model prices in US dollars per million tokens.
type Prices struct {
	InputPerM  float64 `json:"input_per_million"`
	OutputPerM float64 `json:"output_per_million"`
	// CachedPerM is the price of input tokens served from the provider's
	// prompt cache (Gemini's implicit caching bills them at 10% of input).
	CachedPerM float64 `json:"cached_per_million"`
}

// DefaultPrices are Gemini 2.5 Flash's paid-tier text prices on Google's
// Gemini API pricing page (ai.google.dev/gemini-api/docs/pricing) as
// published since mid-2025 and still listed in early 2026: $0.30 per
// million input tokens and $2.50 per million output tokens (thinking
// tokens included). Newer Flash models cost more (Gemini 3 Flash: $0.50 /
// $3.00); pass the prices of the model you run.
var DefaultPrices = Prices{InputPerM: 0.30, OutputPerM: 2.50, CachedPerM: 0.03}

// Cost returns the dollars for the given token counts; cached is the part
// of prompt served from the prompt cache.
func (p Prices) Cost(prompt, cached, output int) float64 {
	cached = min(cached, prompt)
	return float64(prompt-cached)*p.InputPerM/1e6 + float64(cached)*p.CachedPerM/1e6 + float64(output)*p.OutputPerM/1e6
}

// Goals are the targets for verdict quality (issue 7).
var Goals = struct {
	MacroF1, Accuracy, SecondsPerClaim, CostPerClaim float64
}{MacroF1: 0.60, Accuracy: 0.80, SecondsPerClaim: 30, CostPerClaim: 0.002}

// LabelStats are one label's scores.
type LabelStats struct {
	Label     factcheck.Label `json:"label"`
	Support   int             `json:"support"`   // gold cases with this label
	Predicted int             `json:"predicted"` // predictions of this label
	Correct   int             `json:"correct"`   // true positives
	Precision float64         `json:"precision"`
	Recall    float64         `json:"recall"`
	F1        float64         `json:"f1"`
}

// Confusion is the confusion matrix: Counts[gold][predicted], both indexed
// like Labels.
type Confusion struct {
	Labels []factcheck.Label `json:"labels"`
	Counts [][]int           `json:"counts"`
}

// PerClaim holds means per scored claim.
type PerClaim struct {
	Searches     float64 `json:"searches"`
	Reads        float64 `json:"reads"`
	PromptTokens float64 `json:"prompt_tokens"`
	OutputTokens float64 `json:"output_tokens"`
	Seconds      float64 `json:"seconds"`
	CostUSD      float64 `json:"cost_usd"`
}

// Goal is one target and whether the run met it.
type Goal struct {
	Name   string  `json:"name"`
	Target string  `json:"target"`
	Value  float64 `json:"value"`
	Met    bool    `json:"met"`
}

// Summary is the evaluation of a run.
type Summary struct {
	Dataset string `json:"dataset,omitempty"`
	Model   string `json:"model,omitempty"`
	// Setup says how the claims were checked; nil when not known.
	Setup *Setup `json:"setup,omitempty"`
	// Cases is the dataset's size; Scored the cases with a prediction;
	// Errors those whose check failed; Missing those not run (yet).
	Cases   int `json:"cases"`
	Scored  int `json:"scored"`
	Errors  int `json:"errors"`
	Missing int `json:"missing"`

	Accuracy float64 `json:"accuracy"`
	// MacroF1 is the unweighted mean F1 over the labels that occur as gold
	// or prediction (scikit-learn's convention).
	MacroF1   float64      `json:"macro_f1"`
	Labels    []LabelStats `json:"labels"`
	Confusion Confusion    `json:"confusion"`
	// NoClaim counts cases where no claim was extracted (scored as
	// unverifiable).
	NoClaim int `json:"no_claim"`

	CitedURLs      int     `json:"cited_urls"`
	CitedRetrieved int     `json:"cited_retrieved"`
	CitedShare     float64 `json:"cited_retrieved_share"` // must be 1
	EvidenceItems  int     `json:"evidence_items"`
	QuotesFound    int     `json:"quotes_found"`
	QuoteShare     float64 `json:"quotes_found_share"`

	Searches     int      `json:"searches"`
	Reads        int      `json:"reads"`
	PromptTokens int      `json:"prompt_tokens"`
	OutputTokens int      `json:"output_tokens"`
	CachedTokens int      `json:"cached_tokens"`
	Seconds      float64  `json:"seconds"` // summed over claims
	MaxSeconds   float64  `json:"max_seconds"`
	CostUSD      float64  `json:"cost_usd"`
	Prices       Prices   `json:"prices"`
	PerClaim     PerClaim `json:"per_claim"`

	// Undated counts results and pages dropped for having no known date.
	Undated int `json:"undated"`
	// BudgetStops counts verdicts ended by a budget; StoppedBy by which.
	BudgetStops int            `json:"budget_stops"`
	StoppedBy   map[string]int `json:"stopped_by"`

	Goals   []Goal   `json:"goals"`
	Results []Result `json:"results"`
}

// Setup is how a run checked its claims: what a reader needs to judge
// whether the measurement is honest.
type Setup struct {
	// Search names the search providers, in failover order.
	Search []string `json:"search"`
	// FactChecks says whether published fact-checks could be searched.
	FactChecks bool `json:"fact_checks"`
	// AsGiven says each claim was verified as given, with no extraction.
	AsGiven bool `json:"as_given"`
	// AsOf says claims with a date were checked as of that date; Dated
	// counts the claims that had one.
	AsOf  bool `json:"as_of"`
	Dated int  `json:"dated,omitempty"`
	// Calibration names the offsets file (FACTBOT_CALIBRATION), empty for
	// none.
	Calibration string `json:"calibration,omitempty"`
	// ClosedBook says claims were verified with no tools (--closed-book).
	ClosedBook bool `json:"closed_book,omitempty"`
	// KeepUndated says results and pages with no known date were kept in
	// the dated checks (--keep-undated); by default they are dropped.
	KeepUndated bool `json:"keep_undated,omitempty"`
	// ExcludeSites names the exclusion list and ExcludedSites counts its
	// domains.
	ExcludeSites  string `json:"exclude_sites,omitempty"`
	ExcludedSites int    `json:"excluded_sites,omitempty"`
	// LeakFree says the shipped fact-checking sites (counted in
	// ExcludedSites), the fact-check sections of any site and their
	// mirrors were excluded; false means --allow-fact-checks lifted it.
	LeakFree bool `json:"leak_free"`
}

// String describes the setup in one line.
func (s *Setup) String() string {
	search := strings.Join(s.Search, ", ")
	if search == "" {
		search = "none"
	}
	var b strings.Builder
	if s.ClosedBook {
		b.WriteString("CLOSED BOOK: no tools, the model's own knowledge; ")
	}
	if s.Calibration != "" {
		fmt.Fprintf(&b, "offsets %s; ", s.Calibration)
	} else {
		b.WriteString("no offsets; ")
	}
	fmt.Fprintf(&b, "search %s; fact-check search %s; ", search, onOff(s.FactChecks))
	if s.AsGiven {
		b.WriteString("claims verified as given (no extraction); ")
	} else {
		b.WriteString("claims extracted from each text; ")
	}
	if s.AsOf {
		undated := "dropped"
		if s.KeepUndated {
			undated = "kept (--keep-undated)"
		}
		fmt.Fprintf(&b, "as of each claim's date (%d dated; undated results and pages %s); ", s.Dated, undated)
	} else {
		b.WriteString("no date restriction; ")
	}
	switch {
	case s.LeakFree && s.ExcludeSites != "":
		fmt.Fprintf(&b, "leak-free: %d fact-checking and listed sites (%s), fact-check sections and mirrors excluded", s.ExcludedSites, s.ExcludeSites)
	case s.LeakFree:
		fmt.Fprintf(&b, "leak-free: %d fact-checking sites, fact-check sections and mirrors excluded", s.ExcludedSites)
	case s.ExcludeSites != "":
		fmt.Fprintf(&b, "fact-checks ALLOWED (--allow-fact-checks); %d sites excluded (%s)", s.ExcludedSites, s.ExcludeSites)
	default:
		b.WriteString("fact-checks ALLOWED (--allow-fact-checks); no sites excluded")
	}
	return b.String()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// Summarize evaluates results against their gold labels. cases is the
// number of cases in the dataset (for Missing); 0 means len(results).
func Summarize(results []Result, cases int, prices Prices) *Summary {
	s := &Summary{Cases: cases, Prices: prices, StoppedBy: map[string]int{}, Results: results}
	if s.Cases == 0 {
		s.Cases = len(results)
	}
	right, models := s.count(results)
	s.Missing = max(s.Cases-s.Scored-s.Errors, 0)
	s.Accuracy = ratio(right, s.Scored)
	s.labelScores()
	s.CitedShare = ratio(s.CitedRetrieved, s.CitedURLs)
	if s.CitedURLs == 0 {
		s.CitedShare = 1 // nothing cited, nothing unretrieved
	}
	s.QuoteShare = ratio(s.QuotesFound, s.EvidenceItems)
	s.CostUSD = prices.Cost(s.PromptTokens, s.CachedTokens, s.OutputTokens)
	if s.Scored > 0 {
		k := float64(s.Scored)
		s.PerClaim = PerClaim{
			Searches: float64(s.Searches) / k, Reads: float64(s.Reads) / k,
			PromptTokens: float64(s.PromptTokens) / k, OutputTokens: float64(s.OutputTokens) / k,
			Seconds: s.Seconds / k, CostUSD: s.CostUSD / k,
		}
	}
	s.Model = mostCommon(models)
	s.Goals = []Goal{
		{Name: "macro-F1", Target: "≥ 0.60", Value: s.MacroF1, Met: s.MacroF1 >= Goals.MacroF1},
		{Name: "accuracy", Target: "≥ 0.80", Value: s.Accuracy, Met: s.Accuracy >= Goals.Accuracy},
		{Name: "seconds per claim", Target: "≤ 30", Value: s.PerClaim.Seconds, Met: s.Scored > 0 && s.PerClaim.Seconds <= Goals.SecondsPerClaim},
		{Name: "cost per claim (USD)", Target: "≤ 0.002", Value: s.PerClaim.CostUSD, Met: s.Scored > 0 && s.PerClaim.CostUSD <= Goals.CostPerClaim},
		{Name: "cited URLs retrieved", Target: "= 100%", Value: s.CitedShare, Met: s.CitedShare == 1},
	}
	return s
}

// count adds up the results into s (tokens, errors, the confusion matrix,
// evidence and budget figures) and returns how many verdicts were right and
// how often each model answered.
func (s *Summary) count(results []Result) (right int, models map[string]int) {
	idx := map[factcheck.Label]int{}
	for i, l := range factcheck.Labels {
		idx[l] = i
	}
	n := len(factcheck.Labels)
	s.Confusion = Confusion{Labels: factcheck.Labels, Counts: make([][]int, n)}
	for i := range s.Confusion.Counts {
		s.Confusion.Counts[i] = make([]int, n)
	}
	models = map[string]int{}
	for _, r := range results {
		s.PromptTokens += r.PromptTokens
		s.OutputTokens += r.OutputTokens
		s.CachedTokens += r.CachedTokens
		g, okg := idx[r.Label]
		p, okp := idx[r.Predicted]
		if r.Error != "" || !okg || !okp {
			s.Errors++
			continue
		}
		s.Scored++
		s.Confusion.Counts[g][p]++
		if g == p {
			right++
		}
		if r.NoClaim {
			s.NoClaim++
		}
		if r.Model != "" {
			models[r.Model]++
		}
		s.addEvidence(r)
	}
	return right, models
}

// addEvidence adds one scored result's evidence, tool and time figures.
func (s *Summary) addEvidence(r Result) {
	s.CitedURLs += r.CitedURLs
	s.CitedRetrieved += r.CitedRetrieved
	s.EvidenceItems += r.EvidenceItems
	s.QuotesFound += r.QuotesFound
	s.Searches += r.Searches
	s.Reads += r.Reads
	s.Seconds += r.Seconds
	s.MaxSeconds = max(s.MaxSeconds, r.Seconds)
	s.Undated += r.Undated
	if r.StoppedBy != "" {
		s.BudgetStops++
		s.StoppedBy[r.StoppedBy]++
	}
}

// labelScores fills each label's precision, recall and F1 from the
// confusion matrix, and the macro-F1 over the labels that occur.
func (s *Summary) labelScores() {
	var f1s []float64
	for i, l := range factcheck.Labels {
		st := LabelStats{Label: l, Correct: s.Confusion.Counts[i][i]}
		for j := range factcheck.Labels {
			st.Support += s.Confusion.Counts[i][j]
			st.Predicted += s.Confusion.Counts[j][i]
		}
		st.Precision = ratio(st.Correct, st.Predicted)
		st.Recall = ratio(st.Correct, st.Support)
		if st.Precision+st.Recall > 0 {
			st.F1 = 2 * st.Precision * st.Recall / (st.Precision + st.Recall)
		}
		if st.Support > 0 || st.Predicted > 0 {
			f1s = append(f1s, st.F1)
		}
		s.Labels = append(s.Labels, st)
	}
	for _, f := range f1s {
		s.MacroF1 += f / float64(len(f1s))
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func mostCommon(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) == 0 {
		return ""
	}
	return keys[0]
}
