package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/factbot-dev/factbot/factcheck"
)

// LoadRun reads the results of a run from a summary written with --json or
// from a results file written with --out.
func LoadRun(path string) ([]Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(data)
	if bytes.HasPrefix(trimmed, []byte("{")) {
		var s struct {
			Results *[]Result `json:"results"`
		}
		if json.Unmarshal(trimmed, &s) == nil && s.Results != nil {
			return *s.Results, nil
		}
	}
	res, err := ReadResults(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: neither a summary (--json) nor a results file (--out): %w", path, err)
	}
	return res, nil
}

// Change is a claim whose verdict differs between two runs.
type Change struct {
	ID     string          `json:"id"`
	Claim  string          `json:"claim"`
	Label  factcheck.Label `json:"label"`
	Before string          `json:"before"` // a label, or "error"
	After  string          `json:"after"`
	// Kind is "fixed" (now right), "broken" (now wrong) or "changed"
	// (wrong before and after).
	Kind string `json:"kind"`
}

// Comparison lists what changed from run A to run B.
type Comparison struct {
	Changes []Change `json:"changes"`
	// Common counts claims in both runs; OnlyA and OnlyB the others.
	Common int `json:"common"`
	OnlyA  int `json:"only_a"`
	OnlyB  int `json:"only_b"`
	// AccuracyA and AccuracyB are over the common claims.
	AccuracyA float64 `json:"accuracy_a"`
	AccuracyB float64 `json:"accuracy_b"`
	// MacroF1A and MacroF1B, and Labels' F1s, are over the common claims
	// each run scored (errors are not scored, as in Summarize).
	MacroF1A float64       `json:"macro_f1_a"`
	MacroF1B float64       `json:"macro_f1_b"`
	Labels   []LabelChange `json:"labels"`
}

// LabelChange is one label's F1 in runs A and B.
type LabelChange struct {
	Label factcheck.Label `json:"label"`
	F1A   float64         `json:"f1_a"`
	F1B   float64         `json:"f1_b"`
}

// Compare matches results by id (by claim text when ids differ) and lists
// the claims whose verdict changed, in B's order.
func Compare(a, b []Result) *Comparison {
	key := func(r Result) string { return r.ID + "\x00" + r.Claim }
	byKey := map[string]Result{}
	for _, r := range a {
		byKey[key(r)] = r
	}
	c := &Comparison{}
	seen := map[string]bool{}
	rightA, rightB := 0, 0
	for _, rb := range b {
		ra, ok := byKey[key(rb)]
		if !ok {
			c.OnlyB++
			continue
		}
		seen[key(rb)] = true
		c.Common++
		if ra.Error == "" && ra.Correct {
			rightA++
		}
		if rb.Error == "" && rb.Correct {
			rightB++
		}
		before, after := outcome(ra), outcome(rb)
		if before == after {
			continue
		}
		kind := "changed"
		switch {
		case rb.Error == "" && rb.Correct:
			kind = "fixed"
		case ra.Error == "" && ra.Correct:
			kind = "broken"
		}
		c.Changes = append(c.Changes, Change{ID: rb.ID, Claim: rb.Claim, Label: rb.Label, Before: before, After: after, Kind: kind})
	}
	c.OnlyA = len(a) - len(seen)
	c.AccuracyA, c.AccuracyB = ratio(rightA, c.Common), ratio(rightB, c.Common)
	var goldA, predA, goldB, predB []factcheck.Label
	for _, rb := range b {
		ra, ok := byKey[key(rb)]
		if !ok {
			continue
		}
		if ra.Error == "" {
			goldA, predA = append(goldA, ra.Label), append(predA, ra.Predicted)
		}
		if rb.Error == "" {
			goldB, predB = append(goldB, rb.Label), append(predB, rb.Predicted)
		}
	}
	c.MacroF1A, c.MacroF1B = macroF1(goldA, predA), macroF1(goldB, predB)
	for _, l := range factcheck.Labels {
		c.Labels = append(c.Labels, LabelChange{Label: l, F1A: labelF1(goldA, predA, l), F1B: labelF1(goldB, predB, l)})
	}
	return c
}

func outcome(r Result) string {
	if r.Error != "" {
		return "error"
	}
	return string(r.Predicted)
}

// WriteComparison writes a comparison as a table.
func WriteComparison(w io.Writer, c *Comparison) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d claims in both runs (%d only in A, %d only in B); accuracy %.3f → %.3f; macro-F1 %.3f → %.3f\n", c.Common, c.OnlyA, c.OnlyB, c.AccuracyA, c.AccuracyB, c.MacroF1A, c.MacroF1B)
	if len(c.Labels) > 0 {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "\nlabel\tF1 A\tF1 B\tchange\t")
		for _, l := range c.Labels {
			fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%+.3f\t\n", l.Label, l.F1A, l.F1B, l.F1B-l.F1A)
		}
		tw.Flush()
		fmt.Fprintln(&b)
	}
	if len(c.Changes) == 0 {
		fmt.Fprintln(&b, "no verdict changed")
		_, err := w.Write(b.Bytes())
		return err
	}
	fixed, broken := 0, 0
	for _, ch := range c.Changes {
		switch ch.Kind {
		case "fixed":
			fixed++
		case "broken":
			broken++
		}
	}
	fmt.Fprintf(&b, "%d verdicts changed: %d fixed, %d broken, %d still wrong\n\n", len(c.Changes), fixed, broken, len(c.Changes)-fixed-broken)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tid\tgold\tA\tB\tclaim")
	for _, ch := range c.Changes {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", ch.Kind, ch.ID, ch.Label, ch.Before, ch.After, shorten(ch.Claim, 80))
	}
	tw.Flush()
	_, err := w.Write(b.Bytes())
	return err
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
