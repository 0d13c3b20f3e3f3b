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
	// Ties orders the labels for a tie between corrected scores, first
	// wins; empty means the cautious order (unverifiable, contested,
	// contradicted, supported). eval --fit picks the order that fits.
	Ties []Label `json:"ties,omitempty"`
	// FittedOn says what the offsets were fitted on, so that an
	// evaluation can refuse to score the same claims with them.
	FittedOn *FittedOn `json:"fitted_on,omitempty"`
}

// FittedOn is the run a calibration was fitted on.
type FittedOn struct {
	// File is the results file's name and SHA256 its hex digest.
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	// Claims are the keys of the claims fitted on (eval.ClaimKey), sorted.
	Claims []string `json:"claims"`
}

// Apply returns the label whose score plus offset is highest, and its
// margin over the next one (the gap between the two corrected scores; 0
// when only one label has a score). Ties go to the label first in Ties,
// by default the more cautious (unverifiable, contested, contradicted,
// supported, in that order).
// Labels without a score are not candidates; with no score at all Apply
// returns "" and 0. A nil Calibration adds nothing.
func (c *Calibration) Apply(scores map[Label]float64) (Label, float64) {
	best, second := Label(""), math.Inf(-1)
	bestScore := math.Inf(-1)
	for _, l := range c.ties() {
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

// ties is the order ties are broken in.
func (c *Calibration) ties() []Label {
	if c == nil || len(c.Ties) == 0 {
		return cautiousFirst
	}
	return c.Ties
}

// validTies reports whether ties names each label once.
func validTies(ties []Label) bool {
	seen := map[Label]bool{}
	for _, l := range ties {
		if !l.Valid() || seen[l] {
			return false
		}
		seen[l] = true
	}
	return len(ties) == 0 || len(seen) == len(Labels)
}

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
	if !validTies(c.Ties) {
		return nil, fmt.Errorf("%s: \"ties\" must name each of the four labels once", path)
	}
	return &c, nil
}
