package factcheck

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCalibrationApply(t *testing.T) {
	scores := map[Label]float64{Supported: 4, Contradicted: 3.5, Contested: 1, Unverifiable: 2}
	tests := []struct {
		name       string
		c          *Calibration
		scores     map[Label]float64
		want       Label
		wantMargin float64
	}{
		{"no calibration", nil, scores, Supported, 0.5},
		{"offset flips", &Calibration{Offsets: map[Label]float64{Contradicted: 0.75}}, scores, Contradicted, 0.25},
		{"tie goes to the more cautious label", &Calibration{Offsets: map[Label]float64{Contradicted: 0.5}}, scores, Contradicted, 0},
		{"one score", nil, map[Label]float64{Contested: 2}, Contested, 0},
		{"no scores", &Calibration{}, nil, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, margin := tc.c.Apply(tc.scores)
			if got != tc.want || margin != tc.wantMargin {
				t.Errorf("Apply = %s, %v; want %s, %v", got, margin, tc.want, tc.wantMargin)
			}
		})
	}
}

func TestLoadCalibration(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"offsets": {"supported": 0, "contradicted": 0.75}, "claims": 6}`), 0o644)
	c, err := LoadCalibration(good)
	if err != nil || c.Offsets[Contradicted] != 0.75 {
		t.Errorf("LoadCalibration = %+v, %v", c, err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"offsets": {"true": 1}}`), 0o644)
	if _, err := LoadCalibration(bad); err == nil {
		t.Error("a file with an unknown label loaded")
	}
}
