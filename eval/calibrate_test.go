package eval

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
)

func TestFitCalibration(t *testing.T) {
	fh, err := os.Open(filepath.Join("testdata", "calibration_results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	results, err := ReadResults(fh)
	if err != nil {
		t.Fatal(err)
	}
	fit, err := FitCalibration(results)
	if err != nil {
		t.Fatal(err)
	}
	// By hand: contradicted needs +0.5 to tie supported's 4 in claims 1
	// and 2 (a tie goes to the more cautious label, contradicted) and at
	// most +2 not to take claim 3: the nearest grid value to 0 is 0.5.
	// Unverifiable needs +0.5 in claim 6 (a tie is unverifiable's): 0.5.
	// Contested is never gold among the scored claims (7 failed, 8 has no
	// scores): 0 is as good as any.
	want := map[factcheck.Label]float64{
		factcheck.Supported: 0, factcheck.Contradicted: 0.5, factcheck.Contested: 0, factcheck.Unverifiable: 0.5,
	}
	if d := cmp.Diff(want, fit.Offsets); d != "" {
		t.Errorf("offsets (-want +got):\n%s", d)
	}
	if fit.Claims != 6 || fit.MacroF1After != 1 {
		t.Errorf("claims %d, macro-F1 after %v; want 6, 1", fit.Claims, fit.MacroF1After)
	}
	// Before: predicted supported ×5 (2 right), unverifiable ×1 (right).
	// supported P 2/5 R 1 F1 4/7; contradicted 0; unverifiable P 1 R 1/2 F1 2/3.
	if wantBefore := (4.0/7 + 0 + 2.0/3) / 3; math.Abs(fit.MacroF1Before-wantBefore) > 1e-9 {
		t.Errorf("macro-F1 before = %v, want %v", fit.MacroF1Before, wantBefore)
	}
}

func TestFitCalibrationNoScores(t *testing.T) {
	if _, err := FitCalibration([]Result{{ID: "1", Label: factcheck.Supported, Predicted: factcheck.Supported}}); err == nil {
		t.Error("fitting results without scores succeeded")
	}
}
