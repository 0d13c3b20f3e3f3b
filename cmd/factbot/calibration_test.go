package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
)

// FACTBOT_CALIBRATION names a JSON file of per-label offsets; a file that
// cannot be read or names an unknown label is a configuration error.
func TestLoadCalibration(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cal, err := loadCalibration(write("ok.json", `{"offsets": {"unverifiable": -0.5, "contested": 0.25}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &factcheck.Calibration{Offsets: map[factcheck.Label]float64{factcheck.Unverifiable: -0.5, factcheck.Contested: 0.25}}
	if diff := cmp.Diff(want, cal); diff != "" {
		t.Errorf("calibration (-want +got):\n%s", diff)
	}
	for name, path := range map[string]string{
		"missing":       filepath.Join(dir, "none.json"),
		"not JSON":      write("bad.json", "offsets: 1"),
		"unknown label": write("label.json", `{"offsets": {"true": 1}}`),
	} {
		if _, err := loadCalibration(path); !usererr.IsConfig(err) {
			t.Errorf("%s: err = %v, want a configuration error", name, err)
		}
	}
}
