package factcheck

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

type claimArgs struct {
	Claim string `json:"claim" jsonschema:"description=The claim as a self-contained statement (pronouns and context resolved)."`
	Span  string `json:"span" jsonschema:"description=The words of the input the claim comes from, copied verbatim."`
}

type notCheckableArgs struct {
	Span   string `json:"span" jsonschema:"description=The words of the input, copied verbatim."`
	Reason string `json:"reason" jsonschema:"description=Why it is not checkable: opinion, prediction, question, …"`
}

type claimsArgs struct {
	Claims       []claimArgs        `json:"claims"`
	NotCheckable []notCheckableArgs `json:"not_checkable,omitempty"`
}

// submitClaims is the extraction loop's finishing tool.
var submitClaims = finish[claimsArgs](ToolSubmitClaims, "Submit the check-worthy claims found in the text, and the parts that are not checkable.", nil)

// extractAttempts bounds the calls spent on one extraction.
const extractAttempts = 2

// Extract splits text into self-contained claims and not-checkable parts.
// The model proposes spans; the code finds their offsets in text.
func (c *Checker) Extract(ctx context.Context, text string) (*Extraction, error) {
	tr := newTracer(c.now)
	l := &loop[claimsArgs]{
		model:       c.Model,
		system:      extractSystemPrompt,
		prompt:      extractUserPrompt(text),
		finish:      submitClaims,
		steps:       extractAttempts,
		required:    true,
		text:        extractLoopText,
		temperature: c.Options.temperature(),
		trace:       tr,
	}
	o, err := l.run(ctx)
	if err != nil {
		return nil, fmt.Errorf("extracting claims: %w", err)
	}
	x := &Extraction{Usage: o.usage}
	if o.result == nil {
		if !looksLikeOneStatement(text) {
			return nil, fmt.Errorf("extracting claims: the model gave no usable list of claims: %v", o.lastErr)
		}
		// A short single statement needs no splitting: check it whole.
		tr.note(fmt.Sprintf("extraction failed (%v); checking the input as one claim", o.lastErr))
		t := strings.TrimSpace(text)
		start := strings.Index(text, t)
		x.Claims = []ExtractedClaim{{Claim: t, Span: t, Start: start, End: start + len(t)}}
	} else {
		x.Claims, x.NotCheckable = placeClaims(text, o.result)
	}
	x.Trace = tr.list()
	return x, nil
}

// placeClaims finds the claims' and the not-checkable parts' spans in text,
// drops duplicate claims, and removes links the user did not write.
func placeClaims(text string, got *claimsArgs) ([]ExtractedClaim, []NotCheckable) {
	var claims []ExtractedClaim
	var notCheckable []NotCheckable
	cursor := 0
	seen := map[string]bool{}
	for _, ca := range got.Claims {
		claim := strings.TrimSpace(ca.Claim)
		if claim == "" {
			claim = strings.TrimSpace(ca.Span)
		}
		for _, u := range urlsIn(claim) { // only the user's own links may appear
			if !strings.Contains(text, u) {
				claim = strings.ReplaceAll(claim, u, "[link removed]")
			}
		}
		if claim == "" || seen[normalizeForMatch(claim)] {
			continue
		}
		seen[normalizeForMatch(claim)] = true
		start, end := findSpan(text, ca.Span, cursor)
		if start >= 0 {
			cursor = end
		}
		claims = append(claims, ExtractedClaim{Claim: claim, Span: strings.TrimSpace(ca.Span), Start: start, End: end})
	}
	for _, nc := range got.NotCheckable {
		if strings.TrimSpace(nc.Span) == "" {
			continue
		}
		start, end := findSpan(text, nc.Span, 0)
		reason := strings.TrimSpace(nc.Reason)
		if reason == "" {
			reason = "not a checkable statement of fact"
		}
		notCheckable = append(notCheckable, NotCheckable{Text: strings.TrimSpace(nc.Span), Reason: reason, Start: start, End: end})
	}
	return claims, notCheckable
}

// findSpan returns the byte offsets of span in text, searching from
// cursor first (claims come in order) and then from the start; exact match
// first, then ignoring case and white space. It returns -1, -1 if the span
// is not in the text.
func findSpan(text, span string, cursor int) (int, int) {
	span = strings.TrimSpace(span)
	if span == "" {
		return -1, -1
	}
	if cursor > len(text) {
		cursor = 0
	}
	if i := strings.Index(text[cursor:], span); i >= 0 {
		return cursor + i, cursor + i + len(span)
	}
	if i := strings.Index(text, span); i >= 0 {
		return i, i + len(span)
	}
	// Loose match: compare word by word, case-insensitively.
	words := strings.Fields(strings.ToLower(span))
	if len(words) == 0 {
		return -1, -1
	}
	lower := strings.ToLower(text)
	for from := 0; from < len(lower); {
		i := strings.Index(lower[from:], words[0])
		if i < 0 {
			break
		}
		start := from + i
		pos := start + len(words[0])
		ok := true
		for _, w := range words[1:] {
			j := pos
			for j < len(lower) && unicode.IsSpace(rune(lower[j])) {
				j++
			}
			if j == pos || !strings.HasPrefix(lower[j:], w) {
				ok = false
				break
			}
			pos = j + len(w)
		}
		if ok {
			return start, pos
		}
		from = start + 1
	}
	return -1, -1
}

// looksLikeOneStatement reports whether text is short and has no inner
// sentence break, so it can be checked as one claim without extraction.
func looksLikeOneStatement(text string) bool {
	t := strings.TrimSpace(text)
	if len(t) > 300 || t == "" {
		return false
	}
	body := strings.TrimRight(t, ".!?… ")
	for _, brk := range []string{"\n", ". ", "! ", "? "} {
		if strings.Contains(body, brk) {
			return false
		}
	}
	return true
}
