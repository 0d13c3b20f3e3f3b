package factcheck

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
)

// Calibration corrects a verdict's per-label scores before the label is
// chosen: each label's score gets its offset added, and the highest
// corrected score wins. The offsets are fitted on an evaluation's results
// (factbot eval --fit) so that the labels a model over- or under-uses
// come out as often as they should; FACTBOT_CALIBRATION names the file.
type Calibration struct {
	Offsets map[Label]float64 `json:"offsets"`
}

// Apply returns the label whose score plus offset is highest, and its
// margin over the next one (the gap between the two corrected scores; 0
// when only one label has a score). Ties go to the more cautious label
// (unverifiable, contested, contradicted, supported, in that order).
// Labels without a score are not candidates; with no score at all Apply
// returns "" and 0. A nil Calibration adds nothing.
func (c *Calibration) Apply(scores map[Label]float64) (Label, float64) {
	best, second := Label(""), math.Inf(-1)
	bestScore := math.Inf(-1)
	for _, l := range cautiousFirst {
		s, ok := scores[l]
		if !ok || math.IsNaN(s) {
			continue
		}
		if c != nil {
			s += c.Offsets[l]
		}
		switch {
		case s > bestScore:
			second = bestScore
			best, bestScore = l, s
		case s > second:
			second = s
		}
	}
	if best == "" {
		return "", 0
	}
	if math.IsInf(second, -1) {
		return best, 0
	}
	return best, bestScore - second
}

// cautiousFirst orders the labels for ties: a tie between "supported" and
// "unverifiable" is not evidence of support.
var cautiousFirst = []Label{Unverifiable, Contested, Contradicted, Supported}

// LoadCalibration reads a calibration file: {"offsets": {"supported": 0.5, …}}.
func LoadCalibration(path string) (*Calibration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: not a calibration file ({\"offsets\": {\"supported\": 0, …}}): %w", path, err)
	}
	for l, o := range c.Offsets {
		if !l.Valid() {
			return nil, fmt.Errorf("%s: %q is not a label", path, l)
		}
		if math.IsNaN(o) || math.IsInf(o, 0) {
			return nil, fmt.Errorf("%s: the offset of %s is not a number", path, l)
		}
	}
	return &c, nil
}
