package eval

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
)

// WriteJSON writes the summary, with every result, as indented JSON.
func WriteJSON(w io.Writer, s *Summary) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// WriteTable writes the summary as plain-text tables for a terminal.
func WriteTable(w io.Writer, s *Summary) error {
	var b strings.Builder
	title := "Evaluation"
	if s.Dataset != "" {
		title += " of " + s.Dataset
	}
	if s.Model != "" {
		title += " with " + s.Model
	}
	fmt.Fprintf(&b, "%s\n", title)
	if s.Setup != nil {
		fmt.Fprintf(&b, "%s\n", s.Setup)
	}
	fmt.Fprintln(&b)
	fmt.Fprintf(&b, "claims %d   scored %d   errors %d   not run %d   no claim found %d\n", s.Cases, s.Scored, s.Errors, s.Missing, s.NoClaim)
	fmt.Fprintf(&b, "accuracy %.3f   macro-F1 %.3f\n\n", s.Accuracy, s.MacroF1)

	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "label\tsupport\tpredicted\tprecision\trecall\tF1\t")
	for _, l := range s.Labels {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t\n", l.Label, l.Support, l.Predicted, l.Precision, l.Recall, l.F1)
	}
	tw.Flush()

	fmt.Fprintf(&b, "\nconfusion matrix (rows: gold, columns: predicted)\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, l := range s.Confusion.Labels {
		fmt.Fprintf(tw, "%s\t", l)
	}
	fmt.Fprintln(tw)
	for i, l := range s.Confusion.Labels {
		fmt.Fprintf(tw, "%s\t", l)
		for _, c := range s.Confusion.Counts[i] {
			fmt.Fprintf(tw, "%d\t", c)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()

	fmt.Fprintf(&b, "\nprovenance: %d of %d cited URLs retrieved in the run (%.1f%%, must be 100%%); %d of %d evidence quotes found verbatim (%.1f%%)\n",
		s.CitedRetrieved, s.CitedURLs, 100*s.CitedShare, s.QuotesFound, s.EvidenceItems, 100*s.QuoteShare)
	fmt.Fprintf(&b, "per claim: %.2f searches, %.2f page reads, %.0f tokens in, %.0f tokens out, %.1f s (max %.1f s), $%.5f\n",
		s.PerClaim.Searches, s.PerClaim.Reads, s.PerClaim.PromptTokens, s.PerClaim.OutputTokens, s.PerClaim.Seconds, s.MaxSeconds, s.PerClaim.CostUSD)
	fmt.Fprintf(&b, "total: %d tokens in (%d from the prompt cache), %d tokens out, $%.4f at $%.2f / $%.3f / $%.2f per million tokens in / cached / out\n",
		s.PromptTokens, s.CachedTokens, s.OutputTokens, s.CostUSD, s.Prices.InputPerM, s.Prices.CachedPerM, s.Prices.OutputPerM)
	fmt.Fprintf(&b, "budgets: %d of %d runs ended by a budget%s\n", s.BudgetStops, s.Scored, stoppedList(s.StoppedBy))
	if s.Undated > 0 {
		fmt.Fprintf(&b, "undated: %d results and pages dropped for having no known publication date (--keep-undated keeps them)\n", s.Undated)
	}

	fmt.Fprintf(&b, "\ngoals\n")
	for _, g := range s.Goals {
		mark := "MISSED"
		if g.Met {
			mark = "met"
		}
		fmt.Fprintf(&b, "  %-22s %-8s %10s  %s\n", g.Name, g.Target, formatGoal(g), mark)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func formatGoal(g Goal) string {
	switch {
	case strings.HasPrefix(g.Name, "cost"):
		return fmt.Sprintf("%.5f", g.Value)
	case strings.HasPrefix(g.Name, "seconds"):
		return fmt.Sprintf("%.1f", g.Value)
	case strings.HasPrefix(g.Name, "cited"):
		return fmt.Sprintf("%.1f%%", 100*g.Value)
	}
	return fmt.Sprintf("%.3f", g.Value)
}

// stoppedList writes {"time": 2, "steps": 1} as " (steps 1, time 2)".
func stoppedList(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

//go:embed report.html.tmpl
var htmlTemplate string

// reportTmpl is parsed on first use, not when any command starts.
var reportTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"pct":  func(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) },
		"f3":   func(f float64) string { return fmt.Sprintf("%.3f", f) },
		"f1":   func(f float64) string { return fmt.Sprintf("%.1f", f) },
		"usd":  func(f float64) string { return fmt.Sprintf("$%.5f", f) },
		"goal": formatGoal,
		"list": stoppedList,
	}).Parse(htmlTemplate))
})

// matrixCell is one cell of the confusion-matrix chart.
type matrixCell struct {
	X, Y, Count int
	Fill        string
	TextFill    string
	Diagonal    bool
}

// WriteHTML writes a self-contained HTML report: inline CSS and an inline
// SVG confusion-matrix chart, no scripts, fonts or images from elsewhere.
func WriteHTML(w io.Writer, s *Summary) error {
	const cell, left, top = 86, 120, 110
	n := len(s.Confusion.Labels)
	maxCount := 0
	for _, row := range s.Confusion.Counts {
		for _, c := range row {
			maxCount = max(maxCount, c)
		}
	}
	var cells []matrixCell
	for i, row := range s.Confusion.Counts {
		for j, c := range row {
			shade := 0.0
			if maxCount > 0 {
				shade = float64(c) / float64(maxCount)
			}
			// From near white to a deep blue (green on the diagonal).
			r, g, b := 247-int(shade*200), 249-int(shade*140), 252-int(shade*90)
			if i == j {
				r, g, b = 246-int(shade*200), 251-int(shade*110), 246-int(shade*190)
			}
			text := "#222"
			if shade > 0.55 {
				text = "#fff"
			}
			cells = append(cells, matrixCell{X: left + j*cell, Y: top + i*cell, Count: c, Fill: fmt.Sprintf("rgb(%d,%d,%d)", r, g, b), TextFill: text, Diagonal: i == j})
		}
	}
	type axisLabel struct {
		Pos  int
		Text string
	}
	var axis []axisLabel
	for i, l := range s.Confusion.Labels {
		axis = append(axis, axisLabel{Pos: i*cell + cell/2, Text: string(l)})
	}
	data := struct {
		S                    *Summary
		Cells                []matrixCell
		Axis                 []axisLabel
		Width, Height        int
		Cell, Left, Top, Mid int
		GridW                int
	}{S: s, Cells: cells, Axis: axis, Width: left + n*cell + 20, Height: top + n*cell + 20, Cell: cell, Left: left, Top: top, Mid: left + n*cell/2, GridW: n * cell}
	return reportTmpl().Execute(w, data)
}
