package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
)

// cliTenant is the tenant of checks made from the terminal.
const cliTenant = "cli"

var labelMarks = map[factcheck.Label]string{
	factcheck.Supported:    "✔ SUPPORTED",
	factcheck.Contradicted: "✘ CONTRADICTED",
	factcheck.Contested:    "◐ CONTESTED",
	factcheck.Unverifiable: "? UNVERIFIABLE",
}

// writeReport prints a report for a terminal: per claim the verdict,
// confidence, reasoning and evidence map, each quote with where it was
// found (words.QuoteNote, the words the chat reports use). Text from the user, the model and
// web pages goes through termText, so it cannot drive the terminal.
func writeReport(w io.Writer, rep *factcheck.Report, id string) {
	if rep.Notice != "" {
		fmt.Fprintf(w, "%s\n\n", termText(rep.Notice))
	}
	if len(rep.Claims) == 0 {
		fmt.Fprintln(w, "No check-worthy factual claim was found.")
	}
	for i, v := range rep.Claims {
		fmt.Fprintf(w, "Claim %d of %d: %s\n", i+1, len(rep.Claims), termText(v.Claim))
		fmt.Fprintf(w, "  %s (%s confidence)", labelMarks[v.Verdict], v.Confidence)
		if v.Cached {
			fmt.Fprintf(w, ", cached answer from %s", v.CheckedAt.Local().Format("2006-01-02 15:04"))
		}
		if v.StoppedBy != "" {
			fmt.Fprintf(w, ", %s budget reached", v.StoppedBy)
		}
		fmt.Fprintln(w)
		writeMatch(w, v.Match)
		fmt.Fprintf(w, "  %s\n", wrap(termText(v.Reasoning), 76, "  "))
		if len(v.Evidence) > 0 {
			fmt.Fprintln(w, "  Evidence:")
		}
		for _, e := range v.Evidence {
			stance := fmt.Sprintf("%-8s", e.StanceOf())
			title := e.SourceTitle
			if e.Publisher != "" {
				title += " — " + e.Publisher
				if e.Rating != "" {
					title += ", rated “" + e.Rating + "”"
				}
			}
			fmt.Fprintf(w, "    %s  %s\n", stance, termText(title))
			fmt.Fprintf(w, "              %s\n", termText(e.SourceURL))
			if e.QuoteOrSummary != "" {
				fmt.Fprintf(w, "              “%s” (%s)\n", wrap(termText(e.QuoteOrSummary), 60, "               "), words.QuoteNote(e))
			}
		}
		fmt.Fprintln(w)
	}
	if len(rep.NotCheckable) > 0 {
		fmt.Fprintln(w, "Not checkable:")
		for _, n := range rep.NotCheckable {
			fmt.Fprintf(w, "  • %s — %s\n", termText(n.Text), termText(n.Reason))
		}
		fmt.Fprintln(w)
	}
	if id != "" {
		fmt.Fprintf(w, "Saved as %s: 'factbot show %s' prints the full trace.\n", id, id)
	}
}

// wrap folds s into lines of at most width runes, indenting continuation
// lines with indent.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		l := len([]rune(word))
		if i > 0 {
			if n+1+l > width {
				b.WriteString("\n" + indent)
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(word)
		n += l
	}
	return b.String()
}
