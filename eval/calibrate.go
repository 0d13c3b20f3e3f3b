package eval

import (
	"fmt"
	"math"
	"slices"

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

// FitCalibration finds per-label offsets that maximise the macro-F1 of
// the labels Calibration.Apply picks, over the results that have scores
// and no error. It is coordinate ascent over the grid: supported's offset
// stays 0 (adding the same amount to every label changes nothing), and the
// others are set in turn, in factcheck.Labels' order, to the grid value
// giving the highest macro-F1 (on a tie, the one nearest 0, then the
// lower), until a whole pass changes nothing.
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
	offsets := map[factcheck.Label]float64{}
	for _, l := range factcheck.Labels {
		offsets[l] = 0
	}
	f1 := func() float64 { return calibratedMacroF1(scored, &factcheck.Calibration{Offsets: offsets}) }
	before := f1()
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
	return &Fit{Calibration: factcheck.Calibration{Offsets: offsets}, Claims: len(scored), MacroF1Before: before, MacroF1After: f1()}, nil
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
