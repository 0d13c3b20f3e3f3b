package eval

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/factbot-dev/factbot/factcheck"
)

// The AVeriTeC shared task's output: one object per claim, in the
// dataset's order, with the label in AVeriTeC's words and the evidence as
// question–answer pairs, which the task's own scorer reads.

// Prediction is one claim's entry in a predictions file.
type Prediction struct {
	// ClaimID is the claim's index in the dataset (a number), or its id
	// as a string when it is not one.
	ClaimID   any                  `json:"claim_id"`
	Claim     string               `json:"claim"`
	PredLabel string               `json:"pred_label"`
	Evidence  []PredictionEvidence `json:"evidence"`
}

// PredictionEvidence is one question with the passage that answers it.
type PredictionEvidence struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	URL      string `json:"url"`
	// ScrapedText is the cited passage, as it was found in the retrieved
	// text.
	ScrapedText string `json:"scraped_text"`
}

// maxPredictionEvidence is the shared task's bound on question–answer
// pairs per claim.
const maxPredictionEvidence = 10

// noAnswer is AVeriTeC's wording for a question nothing answered.
const noAnswer = "No answer could be found."

// AVeriTeCName is l in AVeriTeC's words.
func AVeriTeCName(l factcheck.Label) string {
	switch l {
	case factcheck.Supported:
		return "Supported"
	case factcheck.Contradicted:
		return "Refuted"
	case factcheck.Contested:
		return "Conflicting Evidence/Cherrypicking"
	}
	return "Not Enough Evidence"
}

// Predictions turns a run's results into the shared task's entries, one
// per case in order. A case with no result, or whose check failed, is
// predicted Not Enough Evidence with no evidence (the scorer needs every
// claim); missing counts them.
func Predictions(cases []Case, results []Result) (out []Prediction, missing int) {
	byID := map[string]Result{}
	for _, r := range results {
		byID[r.ID] = r
	}
	out = make([]Prediction, 0, len(cases))
	for _, c := range cases {
		p := Prediction{ClaimID: c.ID, Claim: c.Claim, PredLabel: AVeriTeCName(factcheck.Unverifiable), Evidence: []PredictionEvidence{}}
		if n, err := strconv.Atoi(c.ID); err == nil {
			p.ClaimID = n
		}
		r, ok := byID[c.ID]
		if !ok || r.Error != "" {
			missing++
			out = append(out, p)
			continue
		}
		p.PredLabel = AVeriTeCName(r.Predicted)
		p.Evidence = pairEvidence(r.Questions, r.Evidence, c.Claim)
		out = append(out, p)
	}
	return out, missing
}

// pairEvidence gives each cited passage to the question it shares most
// words with (the first on a tie), lists the pairs question by question,
// and answers the questions no passage went to with noAnswer. With no
// plan, the claim is the one question.
func pairEvidence(questions []string, evidence []factcheck.Evidence, claim string) []PredictionEvidence {
	if len(questions) == 0 {
		questions = []string{claim}
	}
	qwords := make([]map[string]bool, len(questions))
	for i, q := range questions {
		qwords[i] = words(q)
	}
	byQ := make([][]factcheck.Evidence, len(questions))
	for _, e := range evidence {
		if strings.TrimSpace(e.QuoteOrSummary) == "" {
			continue
		}
		ew := words(e.QuoteOrSummary)
		best, bestN := 0, -1
		for i, qw := range qwords {
			n := 0
			for w := range qw {
				if ew[w] {
					n++
				}
			}
			if n > bestN {
				best, bestN = i, n
			}
		}
		byQ[best] = append(byQ[best], e)
	}
	out := []PredictionEvidence{}
	for i, q := range questions {
		if len(byQ[i]) == 0 {
			out = append(out, PredictionEvidence{Question: q, Answer: noAnswer})
		}
		for _, e := range byQ[i] {
			quote := strings.TrimSpace(e.QuoteOrSummary)
			out = append(out, PredictionEvidence{Question: q, Answer: quote, URL: e.SourceURL, ScrapedText: quote})
		}
	}
	if len(out) > maxPredictionEvidence {
		out = out[:maxPredictionEvidence]
	}
	return out
}

// words are the lower-case words of s of four letters or more.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) >= 4 {
			out[w] = true
		}
	}
	return out
}

// WritePredictions writes the entries as one JSON array, indented.
func WritePredictions(w io.Writer, preds []Prediction) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(preds)
}
