package factcheck

import (
	"context"
	"errors"
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

var submitClaimsSpec = ToolSpec{
	Name:        ToolSubmitClaims,
	Description: "Submit the check-worthy claims found in the text, and the parts that are not checkable.",
	Parameters:  SchemaFor[claimsArgs](),
}

// extractAttempts bounds the calls spent on one extraction.
const extractAttempts = 2

// Extract splits text into self-contained claims and not-checkable parts.
// The model proposes spans; the code finds their offsets in text.
func (c *Checker) Extract(ctx context.Context, text string) (*Extraction, error) {
	x := &Extraction{}
	req := &ModelRequest{
		System:   extractSystemPrompt,
		Messages: []Message{{Role: RoleUser, Text: extractUserPrompt(text)}},
		Tools:    []ToolSpec{submitClaimsSpec},
		ToolMode: ToolRequired,
		Allowed:  []string{ToolSubmitClaims},
	}
	var got *claimsArgs
	var lastErr error
	for attempt := 0; attempt < extractAttempts && got == nil; attempt++ {
		resp, err := c.Model.Generate(ctx, req)
		if err != nil {
			x.Trace = append(x.Trace, TraceEvent{At: c.now(), Kind: "model", Error: err.Error()})
			return nil, fmt.Errorf("extracting claims: %w", err)
		}
		u := resp.Usage
		x.Usage = x.Usage.Add(u)
		x.Trace = append(x.Trace, TraceEvent{At: c.now(), Kind: "model", Usage: &u, FinishReason: resp.FinishReason})
		req.Messages = append(req.Messages, resp.Message)
		var results []ToolResult
		for _, call := range resp.Message.ToolCalls {
			var ca claimsArgs
			err := errors.New("unknown tool; call submit_claims")
			if call.Name == ToolSubmitClaims {
				err = decodeArgs(call.Args, submitClaimsSpec.Parameters, &ca)
			}
			res := ToolResult{ID: call.ID, Name: call.Name, Content: []byte(`{"status":"received"}`)}
			if err != nil {
				lastErr = err
				res.Content = errorObservation(err)
				x.Trace = append(x.Trace, TraceEvent{At: c.now(), Kind: "tool", Tool: call.Name, Error: err.Error()})
			} else if got == nil {
				got = &ca
				x.Trace = append(x.Trace, TraceEvent{At: c.now(), Kind: "tool", Tool: call.Name, Args: truncate(string(call.Args), 500)})
			}
			results = append(results, res)
		}
		if got == nil && len(resp.Message.ToolCalls) == 0 {
			var ca claimsArgs
			if jsonFromText(resp.Message.Text, &ca) {
				got = &ca
				x.Trace = append(x.Trace, TraceEvent{At: c.now(), Kind: "note", Note: "claims given as text, not through submit_claims; accepted"})
				break
			}
			lastErr = errors.New("the model answered without calling submit_claims")
			req.Messages = append(req.Messages, Message{Role: RoleUser, Text: "Answer by calling submit_claims."})
			continue
		}
		if len(results) > 0 {
			req.Messages = append(req.Messages, Message{Role: RoleUser, ToolResults: results})
		}
	}
	if got == nil {
		if looksLikeOneStatement(text) {
			// A short single statement needs no splitting: check it whole.
			x.Trace = append(x.Trace, TraceEvent{At: c.now(), Kind: "note", Note: fmt.Sprintf("extraction failed (%v); checking the input as one claim", lastErr)})
			t := strings.TrimSpace(text)
			start := strings.Index(text, t)
			x.Claims = []ExtractedClaim{{Claim: t, Span: t, Start: start, End: start + len(t)}}
			return x, nil
		}
		return nil, fmt.Errorf("extracting claims: the model gave no usable list of claims: %v", lastErr)
	}

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
		x.Claims = append(x.Claims, ExtractedClaim{Claim: claim, Span: strings.TrimSpace(ca.Span), Start: start, End: end})
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
		x.NotCheckable = append(x.NotCheckable, NotCheckable{Text: strings.TrimSpace(nc.Span), Reason: reason, Start: start, End: end})
	}
	return x, nil
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
