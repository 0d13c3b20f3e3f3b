package factcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
)

func TestCalibrationApply(t *testing.T) {
	s := func(sup, con, cst, unv float64) map[factcheck.Label]float64 {
		return map[factcheck.Label]float64{factcheck.Supported: sup, factcheck.Contradicted: con, factcheck.Contested: cst, factcheck.Unverifiable: unv}
	}
	type result struct {
		Label  factcheck.Label
		Margin float64
	}
	for _, tc := range []struct {
		name   string
		cal    *factcheck.Calibration
		scores map[factcheck.Label]float64
		want   result
	}{
		{"highest wins", nil, s(1, 5, 2, 1), result{factcheck.Contradicted, 3}},
		{"tie goes to the cautious label", nil, s(4, 1, 4, 1), result{factcheck.Contested, 0}},
		{"offset turns the verdict", &factcheck.Calibration{Offsets: map[factcheck.Label]float64{factcheck.Unverifiable: -1.5}}, s(3, 1, 1, 4), result{factcheck.Supported, 0.5}},
		{"no scores", nil, nil, result{"", 0}}, // the verdict is then unverifiable (run.label)
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, m := tc.cal.Apply(tc.scores)
			if diff := cmp.Diff(tc.want, result{l, m}); diff != "" {
				t.Errorf("Apply (-want +got):\n%s", diff)
			}
		})
	}
}

type scores struct {
	Supported    float64 `json:"supported"`
	Contradicted float64 `json:"contradicted"`
	Contested    float64 `json:"contested"`
	Unverifiable float64 `json:"unverifiable"`
}

// scoredVerdict is submit_verdict's arguments with label scores.
type scoredVerdict struct {
	Verdict   string         `json:"verdict,omitempty"`
	Scores    scores         `json:"scores"`
	Reasoning string         `json:"reasoning"`
	Evidence  []fct.Evidence `json:"evidence"`
}

// The verdict is the highest label score after the calibration's offsets;
// the confidence comes from the margin.
func TestLabelScores(t *testing.T) {
	refute := []fct.Evidence{{SourceURL: wallURL, QuoteOrSummary: goodQuote}}
	for _, tc := range []struct {
		name     string
		opts     factcheck.Options
		args     scoredVerdict
		want     factcheck.Label
		wantConf factcheck.Confidence
		note     string
	}{
		{"margin 2 is high", factcheck.Options{}, scoredVerdict{Scores: scores{1, 4, 2, 1}, Reasoning: "r", Evidence: refute}, factcheck.Contradicted, factcheck.High, ""},
		{"margin 1 is medium", factcheck.Options{}, scoredVerdict{Scores: scores{1, 4, 3, 1}, Reasoning: "r", Evidence: refute}, factcheck.Contradicted, factcheck.Medium, ""},
		{"a tie is low", factcheck.Options{}, scoredVerdict{Scores: scores{1, 4, 4, 1}, Reasoning: "r", Evidence: refute}, factcheck.Contested, factcheck.Low, ""},
		{"calibration turns it", factcheck.Options{Calibration: &factcheck.Calibration{Offsets: map[factcheck.Label]float64{factcheck.Contested: 2}}},
			scoredVerdict{Scores: scores{1, 4, 3, 1}, Reasoning: "r", Evidence: refute}, factcheck.Contested, factcheck.Medium, ""},
		{"scores win over the named label", factcheck.Options{}, scoredVerdict{Verdict: "supported", Scores: scores{1, 5, 2, 1}, Reasoning: "r", Evidence: refute},
			factcheck.Contradicted, factcheck.High, "the model named supported, its scores give contradicted"},
		{"NoScores takes the named label", factcheck.Options{NoScores: true}, scoredVerdict{Verdict: "contested", Scores: scores{1, 5, 2, 1}, Reasoning: "r", Evidence: refute},
			factcheck.Contested, factcheck.Low, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &fct.Model{Handle: fct.Script(wallSearch, wallRead, fct.Call("submit_verdict", tc.args))}
			c := checker(m)
			c.Options = tc.opts
			v, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", "")
			if err != nil {
				t.Fatal(err)
			}
			if v.Verdict != tc.want || v.Confidence != tc.wantConf {
				t.Errorf("got %s/%s, want %s/%s", v.Verdict, v.Confidence, tc.want, tc.wantConf)
			}
			wantScores := map[factcheck.Label]float64{factcheck.Supported: tc.args.Scores.Supported, factcheck.Contradicted: tc.args.Scores.Contradicted,
				factcheck.Contested: tc.args.Scores.Contested, factcheck.Unverifiable: tc.args.Scores.Unverifiable}
			if diff := cmp.Diff(wantScores, v.Scores); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
			if tc.note != "" && !strings.Contains(notes(v), tc.note) {
				t.Errorf("notes %q lack %q", notes(v), tc.note)
			}
		})
	}
}

// The schema asks for scores, not a label and a confidence; with NoScores
// the other way round. Scores out of range are rejected.
func TestScoresSchema(t *testing.T) {
	for _, tc := range []struct {
		noScores bool
		want     string
	}{{false, "[scores reasoning]"}, {true, "[verdict confidence reasoning]"}} {
		m := &fct.Model{Handle: fct.Script(
			fct.Call("submit_verdict", scoredVerdict{Scores: scores{0, 9, 1, 1}, Reasoning: "r"}),
			fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "r"}))}
		c := checker(m)
		c.Options.NoScores = tc.noScores
		if _, err := c.VerifyClaim(context.Background(), "The Great Wall is visible from space", ""); err != nil {
			t.Fatal(err)
		}
		var spec factcheck.ToolSpec
		for _, s := range m.Research()[0].Tools {
			if s.Name == factcheck.ToolSubmitVerdict {
				spec = s
			}
		}
		if got := fmtAny(spec.Parameters["required"]); got != tc.want {
			t.Errorf("NoScores=%v: required %v, want %s", tc.noScores, spec.Parameters["required"], tc.want)
		}
		if obs := lastObservation(m.Research()[1]); !strings.Contains(obs, "score of supported is 0, not from 1 to 5; score of contradicted is 9") {
			t.Errorf("observation %s does not reject the scores", obs)
		}
	}
}

// fmtAny shows a schema's list of required names as "[a b]".
func fmtAny(v any) string {
	var parts []string
	if xs, ok := v.([]any); ok {
		for _, x := range xs {
			parts = append(parts, x.(string))
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}
