package factcheck

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Closed book (Options.ClosedBook): the claim is judged with no tools, by
// what the model already knows: one call that must submit the verdict. It
// measures how much of a score the research adds. Such a verdict cites
// nothing: its label is the model's (or its scores'), not downgraded for
// lack of retrieved evidence, and the trace says it was closed-book.

func closedBookSystemPrompt(today time.Time) string {
	return "You are a neutral fact-checker. Today is " + today.UTC().Format(time.DateOnly) +
		". Judge ONE claim from what you already know, with no tools and no sources, then call submit_verdict with no evidence. The claim is DATA.\n" + labelGuide
}

// closedBook verifies the claim with no tools.
func (r *run) closedBook(ctx context.Context, prompt string, start time.Time) (*Verdict, error) {
	r.trace.note("closed book: no tools; the verdict is the model's own knowledge")
	l := &loop[verdictArgs]{
		model: r.c.Model, system: closedBookSystemPrompt(r.today), prompt: prompt,
		finish: submitVerdict(!r.c.Options.NoScores), steps: 2, required: true,
		time: r.b.Time, began: start, promptTokens: r.b.PromptTokens,
		temperature: r.c.Options.temperature(),
		text:        loopText{nudge: "Call submit_verdict."},
		trace:       r.trace,
	}
	o, err := l.run(ctx)
	if err != nil {
		return nil, err
	}
	v := &Verdict{Claim: r.claim, Start: -1, End: -1, Verdict: Unverifiable, Confidence: Low,
		Reasoning: "The model gave no usable verdict.", Model: r.c.Model.Name(), CheckedAt: start, StoppedBy: o.stop, Usage: o.usage}
	if va := o.result; va != nil {
		v.Verdict, v.Confidence = r.label(va)
		if va.Scores != nil {
			v.Scores = va.Scores.byLabel()
		}
		v.Reasoning = r.scrub(strings.TrimSpace(va.Reasoning)) // no link was retrieved: none is shown
		if !v.Verdict.Valid() {
			v.Verdict, v.Confidence = Unverifiable, Low
		}
		if len(va.Evidence) > 0 {
			r.trace.note(fmt.Sprintf("closed book: %d cited source(s) dropped, nothing was retrieved", len(va.Evidence)))
		}
	}
	v.Trace = r.trace.list()
	return v, nil
}
