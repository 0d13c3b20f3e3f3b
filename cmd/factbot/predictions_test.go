package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/factbot-dev/factbot/eval"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
)

// evidenceChecker answers every claim with a verdict that has the plan's
// questions and cites passages, one of them answering the second
// question.
type evidenceChecker struct{ label factcheck.Label }

func (e evidenceChecker) Check(_ context.Context, in factcheck.Input) (*factcheck.Report, error) {
	if strings.Contains(in.Text, "pen name") {
		return nil, errors.New("quota exceeded")
	}
	v := &factcheck.Verdict{Claim: in.Text, Verdict: e.label, Confidence: factcheck.Medium, Model: "scripted",
		Questions: []string{"When was the library approved?", "Who voted against the river survey?"},
		Evidence: []factcheck.Evidence{
			{SourceURL: "https://council.example/minutes", Supports: true, QuoteOrSummary: "The library was approved on 4 March 2019.", QuoteFound: true},
			{SourceURL: "https://geo.example/rivers", QuoteOrSummary: "Two councillors voted against the river survey.", QuoteFound: true},
		}}
	return &factcheck.Report{Input: in.Text, Claims: []*factcheck.Verdict{v}, Model: "scripted"}, nil
}

// --predictions writes the shared task's file, which its schema accepts:
// claim ids as the dataset's indices, labels in AVeriTeC's words, each
// passage paired with the question it answers.
func TestEvalPredictions(t *testing.T) {
	useChecker(t, evidenceChecker{label: factcheck.Contradicted})
	dataset := filepath.Join("..", "..", "eval", "testdata", "averitec_dev_fixture.json")
	out := filepath.Join(t.TempDir(), "predictions.json")
	_, stderr, code := runApp(context.Background(), "eval", "--dataset", dataset, "--quiet", "--no-as-of", "--predictions", out)
	if code != exitFailed {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "1 of 5 claims have no result") {
		t.Errorf("stderr does not count the claim that failed:\n%s", stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "eval", "testdata", "averitec_predictions.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(raw, &sch); err != nil {
		t.Fatal(err)
	}
	resolved, err := sch.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	var inst any
	if err := json.Unmarshal(data, &inst); err != nil {
		t.Fatal(err)
	}
	if err := resolved.Validate(inst); err != nil {
		t.Errorf("the predictions do not validate against the shared task's schema: %v\n%s", err, data)
	}
	// The validator refuses what the schema refuses.
	var bad any
	json.Unmarshal([]byte(strings.Replace(string(data), `"pred_label": "Refuted"`, `"pred_label": "False"`, 1)), &bad)
	if err := resolved.Validate(bad); err == nil || !strings.Contains(string(data), `"pred_label": "Refuted"`) {
		t.Errorf("a label outside the schema's enum validates (%v), or the file has no Refuted label to change", err)
	}
	var preds []eval.Prediction
	if err := json.Unmarshal(data, &preds); err != nil {
		t.Fatal(err)
	}
	if len(preds) != 5 || preds[0].ClaimID != float64(0) || preds[4].ClaimID != float64(4) || preds[0].PredLabel != "Refuted" || preds[3].PredLabel != "Not Enough Evidence" {
		t.Fatalf("predictions = %+v", preds)
	}
	want := []eval.PredictionEvidence{
		{Question: "When was the library approved?", Answer: "The library was approved on 4 March 2019.", URL: "https://council.example/minutes", ScrapedText: "The library was approved on 4 March 2019."},
		{Question: "Who voted against the river survey?", Answer: "Two councillors voted against the river survey.", URL: "https://geo.example/rivers", ScrapedText: "Two councillors voted against the river survey."},
	}
	if d := cmp.Diff(preds[0].Evidence, want); d != "" {
		t.Errorf("evidence (-got +want):\n%s", d)
	}
	if len(preds[3].Evidence) != 0 {
		t.Errorf("a claim not run has evidence: %+v", preds[3].Evidence)
	}
}

// --closed-book: through the real Gemini SDK, every call offers only
// submit_verdict and no search provider is asked; the summary says so.
func TestEvalClosedBook(t *testing.T) {
	w := newWorld(t, func(r *geminitest.Request) geminitest.Reply {
		if names := r.ToolNames(); len(names) != 1 || names[0] != factcheck.ToolSubmitVerdict {
			t.Errorf("closed-book call offers %v", names)
		}
		return verdictReply("contradicted", "high", "Known to be false.")
	})
	w.env["FACTBOT_SEARCH"] = "gemini" // would be refused in a dated run that searches
	dataset := filepath.Join("..", "..", "eval", "testdata", "averitec_dev_fixture.json")
	stdout, stderr, code := w.run("eval", "--dataset", dataset, "--closed-book", "--json", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var s eval.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatal(err)
	}
	if s.Setup == nil || !s.Setup.ClosedBook || s.Scored != 5 || s.Searches != 0 || s.Results[1].Predicted != factcheck.Contradicted {
		t.Errorf("setup %+v, scored %d, searches %d, results %+v", s.Setup, s.Scored, s.Searches, s.Results)
	}
}
