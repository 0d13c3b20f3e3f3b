package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/factbot-dev/factbot/factcheck"
)

// The grid eval --fit searches: offsets from -FitRange to +FitRange in
// steps of FitStep (scores run from 1 to 5).
const (
	FitRange = 2.0
	FitStep  = 0.25
)

// Fit is a calibration fitted on a run's results, with what it changes.
type Fit struct {
	factcheck.Calibration
	// Claims is how many results had per-label scores (the others are
	// not used); MacroF1Before and MacroF1After are their macro-F1 with
	// no offsets and with the fitted ones.
	Claims        int     `json:"claims"`
	MacroF1Before float64 `json:"macro_f1_before"`
	MacroF1After  float64 `json:"macro_f1_after"`
}

// TieOrders are the orders for ties between corrected scores that
// FitCalibration tries: the cautious default (nil: unverifiable first)
// and AVeriTeC's, where refuted is the commonest label and a tie between
// refuted and not enough evidence more often means refuted.
var TieOrders = [][]factcheck.Label{
	nil,
	{factcheck.Contradicted, factcheck.Unverifiable, factcheck.Contested, factcheck.Supported},
}

// FitCalibration finds per-label offsets that maximise the macro-F1 of
// the labels Calibration.Apply picks, over the results that have scores
// and no error, under each of TieOrders, and keeps the best (the first on
// a tie). For each order it is coordinate ascent over the grid:
// supported's offset stays 0 (adding the same amount to every label
// changes nothing), and the others are set in turn, in factcheck.Labels'
// order, to the grid value giving the highest macro-F1 (on a tie, the one
// nearest 0, then the lower), until a whole pass changes nothing.
func FitCalibration(results []Result) (*Fit, error) {
	var scored []Result
	for _, r := range results {
		if r.Error == "" && len(r.Scores) > 0 && r.Label.Valid() {
			scored = append(scored, r)
		}
	}
	if len(scored) == 0 {
		return nil, fmt.Errorf("no result has per-label scores to fit on (the model gave none, or the results predate them)")
	}
	var best *Fit
	for _, ties := range TieOrders {
		f := fitOffsets(scored, ties)
		if best == nil || f.MacroF1After > best.MacroF1After+1e-12 {
			best = f
		}
	}
	return best, nil
}

// fitOffsets is the coordinate ascent of FitCalibration for one tie order.
func fitOffsets(scored []Result, ties []factcheck.Label) *Fit {
	offsets := map[factcheck.Label]float64{}
	for _, l := range factcheck.Labels {
		offsets[l] = 0
	}
	cal := &factcheck.Calibration{Offsets: offsets, Ties: ties}
	f1 := func() float64 { return calibratedMacroF1(scored, cal) }
	before := calibratedMacroF1(scored, nil)
	steps := int(math.Round(2 * FitRange / FitStep))
	for pass := 0; pass < 50; pass++ {
		changed := false
		for _, l := range factcheck.Labels[1:] {
			cur := offsets[l]
			best, bestF1 := cur, f1()
			for i := 0; i <= steps; i++ {
				o := -FitRange + float64(i)*FitStep
				offsets[l] = o
				v := f1()
				if v > bestF1+1e-12 || (math.Abs(v-bestF1) <= 1e-12 && closerToZero(o, best)) {
					best, bestF1 = o, v
				}
			}
			offsets[l] = best
			if best != cur {
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return &Fit{Calibration: *cal, Claims: len(scored), MacroF1Before: before, MacroF1After: f1()}
}

func closerToZero(a, b float64) bool {
	if math.Abs(a) != math.Abs(b) {
		return math.Abs(a) < math.Abs(b)
	}
	return a < b
}

// calibratedMacroF1 is the macro-F1, as Summarize counts it, of the labels
// c picks for the results.
func calibratedMacroF1(results []Result, c *factcheck.Calibration) float64 {
	pred := make([]factcheck.Label, len(results))
	gold := make([]factcheck.Label, len(results))
	for i, r := range results {
		gold[i] = r.Label
		if pred[i], _ = c.Apply(r.Scores); pred[i] == "" {
			pred[i] = factcheck.Unverifiable
		}
	}
	return macroF1(gold, pred)
}

// macroF1 is the unweighted mean F1 over the labels that occur as gold or
// prediction.
func macroF1(gold, pred []factcheck.Label) float64 {
	var sum float64
	n := 0
	for _, l := range factcheck.Labels {
		if !slices.Contains(gold, l) && !slices.Contains(pred, l) {
			continue
		}
		n++
		sum += labelF1(gold, pred, l)
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// labelF1 is l's F1 over the pairs gold[i], pred[i].
func labelF1(gold, pred []factcheck.Label, l factcheck.Label) float64 {
	tp, g, p := 0, 0, 0
	for i := range gold {
		if gold[i] == l {
			g++
		}
		if pred[i] == l {
			p++
			if gold[i] == l {
				tp++
			}
		}
	}
	if tp == 0 {
		return 0
	}
	prec, rec := float64(tp)/float64(p), float64(tp)/float64(g)
	return 2 * prec * rec / (prec + rec)
}

// ClaimKey identifies a claim in a calibration's FittedOn: a digest of its
// words, lowercased, white space collapsed.
func ClaimKey(claim string) string {
	h := sha256.Sum256([]byte(strings.Join(strings.Fields(strings.ToLower(claim)), " ")))
	return hex.EncodeToString(h[:8])
}

// FittedOn records what a fit used: the results file's name and digest,
// and the claims of its results.
func FittedOn(path string, results []Result) (*factcheck.FittedOn, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	h := sha256.Sum256(data)
	on := &factcheck.FittedOn{File: filepath.Base(path), SHA256: hex.EncodeToString(h[:])}
	for _, r := range results {
		on.Claims = append(on.Claims, ClaimKey(r.Claim))
	}
	slices.Sort(on.Claims)
	on.Claims = slices.Compact(on.Claims)
	return on, nil
}

// FittedClaims counts the cases a calibration was fitted on: scoring them
// with it would overstate its gain.
func FittedClaims(c *factcheck.Calibration, cases []Case) int {
	if c == nil || c.FittedOn == nil {
		return 0
	}
	n := 0
	for _, cs := range cases {
		if _, ok := slices.BinarySearch(c.FittedOn.Claims, ClaimKey(cs.Claim)); ok {
			n++
		}
	}
	return n
}
