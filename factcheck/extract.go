package factcheck

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/factbot-dev/factbot/factcheck/evidence"
)

type claimArgs struct {
	Claim string `json:"claim" jsonschema:"The claim as a self-contained statement (pronouns and context resolved)."`
	Span  string `json:"span" jsonschema:"The words of the input the claim comes from, copied verbatim."`
	// Picture is only in the schema when pictures come with the text,
	// Questions when the extraction writes the plan (newClaimsFinisher).
	Picture   int      `json:"picture,omitempty"`
	Questions []string `json:"questions,omitempty"`
}

type notCheckableArgs struct {
	Span   string `json:"span" jsonschema:"The words of the input, copied verbatim."`
	Reason string `json:"reason" jsonschema:"Why it is not checkable: opinion, prediction, question, …"`
}

type claimsArgs struct {
	Claims       []claimArgs        `json:"claims"`
	NotCheckable []notCheckableArgs `json:"not_checkable,omitempty"`
	Language     string             `json:"language,omitempty" jsonschema:"The BCP 47 code of the text's language, e.g. en, es, pt-BR, zh, ar."`
}

// claimsFinishers are the extraction loop's finishing tools, by whether
// pictures come with the text and whether each claim carries its
// questions (the plan, Options.NoJointPlan unset). They are built on
// first use: their schemas are reflected, which no command should pay
// for at start.
var claimsFinishers = sync.OnceValue(func() (f [2][2]finisher[claimsArgs]) {
	for pictures := range 2 {
		for questions := range 2 {
			f[pictures][questions] = newClaimsFinisher(pictures == 1, questions == 1)
		}
	}
	return f
})

// newClaimsFinisher declares submit_claims: with a picture number for
// each claim when pictures come with the text, and with its questions
// when they are asked for.
func newClaimsFinisher(pictures, questions bool) finisher[claimsArgs] {
	desc := "Submit the check-worthy claims found in the text, and the parts that are not checkable."
	if pictures {
		desc = "Submit the check-worthy claims found in the text and its pictures, and the parts that are not checkable."
	}
	f := finish[claimsArgs](ToolSubmitClaims, desc, nil)
	claims := f.spec.Parameters["properties"].(map[string]any)["claims"].(map[string]any)
	props := claims["items"].(map[string]any)["properties"].(map[string]any)
	delete(props, "picture") // read, but offered only as asked for below
	delete(props, "questions")
	if pictures {
		props["picture"] = map[string]any{"type": "integer", "minimum": 1,
			"description": "The number of the picture the claim was read from; omitted for a claim of the text."}
	}
	if questions {
		props["questions"] = map[string]any{"type": "array", "items": map[string]any{"type": "string"},
			"description": "2-4 questions."}
	}
	return f
}

// jointPlanPrompt asks the extraction for each claim's questions.
const jointPlanPrompt = "\n- For each claim give 2-4 short self-contained questions (names, places, dates spelled out) whose answers would settle it, one seeking disagreement or a debunk; do not answer them. For a text not in English, at least one in its language and one in English."

// extractAttempts bounds the calls spent on one extraction.
const extractAttempts = 2

// Extract splits text into self-contained claims and not-checkable parts.
// The model proposes spans; the code finds their offsets in text.
func (c *Checker) Extract(ctx context.Context, text string) (*Extraction, error) {
	return c.extractWith(ctx, text, nil)
}

// extractWith is Extract with pictures sent with the text: claims read
// from a picture carry its number.
func (c *Checker) extractWith(ctx context.Context, text string, pictures []File) (*Extraction, error) {
	tr := newTracer(c.now)
	prompt, system := extractUserPrompt(text), extractSystemPrompt
	if len(pictures) > 0 {
		prompt += picturePrompt(len(pictures))
	}
	joint := c.Options.jointPlan()
	if joint {
		system = strings.Replace(system, "\n\nAnswer by calling", jointPlanPrompt+"\n\nAnswer by calling", 1)
	}
	finish := claimsFinishers()[b2i(len(pictures) > 0)][b2i(joint)]
	l := &loop[claimsArgs]{
		model:       c.Model,
		system:      system,
		prompt:      prompt,
		images:      pictures,
		finish:      finish,
		budget:      loopBudget{steps: extractAttempts},
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
			return nil, fmt.Errorf("extracting claims: the model gave no usable list of claims: %s", o.why())
		}
		// A short single statement needs no splitting: check it whole.
		tr.note(fmt.Sprintf("extraction failed (%s); checking the input as one claim", o.why()))
		t := strings.TrimSpace(text)
		start := strings.Index(text, t)
		x.Claims = []ExtractedClaim{{Claim: t, Span: t, Start: start, End: start + len(t)}}
	} else {
		x.Claims, x.NotCheckable = placeClaims(text, o.result, len(pictures))
		x.Language = languageTag(o.result.Language)
		for i := range x.Claims {
			x.Claims[i].Language = x.Language
		}
	}
	x.Trace = tr.list()
	return x, nil
}

// placeClaims finds the claims' and the not-checkable parts' spans in text,
// drops duplicate claims, and removes links the user did not write.
func placeClaims(text string, got *claimsArgs, pictures int) ([]ExtractedClaim, []NotCheckable) {
	var claims []ExtractedClaim
	var notCheckable []NotCheckable
	cursor := 0
	seen := map[string]bool{}
	userLinks := evidence.LinkKeys(text)
	for _, ca := range got.Claims {
		claim := strings.TrimSpace(ca.Claim)
		if claim == "" {
			claim = strings.TrimSpace(ca.Span)
		}
		claim, _ = evidence.ScrubLinks(claim, func(k string) bool { return userLinks[k] }) // only the user's own links may appear
		if claim == "" || seen[normalizeForMatch(claim)] {
			continue
		}
		seen[normalizeForMatch(claim)] = true
		start, end := findSpan(text, ca.Span, cursor)
		if start >= 0 {
			cursor = end
		}
		picture := 0
		if ca.Picture >= 1 && ca.Picture <= pictures {
			picture = ca.Picture
		}
		claims = append(claims, ExtractedClaim{Claim: claim, Span: strings.TrimSpace(ca.Span), Start: start, End: end, Picture: picture, Questions: plannedQuestions(ca.Questions)})
	}
	for _, nc := range got.NotCheckable {
		if strings.TrimSpace(nc.Span) == "" {
			continue
		}
		start, end := findSpan(text, nc.Span, 0)
		n := NotCheckable{Text: strings.TrimSpace(nc.Span), Reason: strings.TrimSpace(nc.Reason), Start: start, End: end}
		if n.Reason == "" {
			n.Reason, n.Code = "not a checkable statement of fact", ReasonNotFact
		}
		notCheckable = append(notCheckable, n)
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
	// Loose match: word by word, ignoring case and the white space between
	// words. Offsets are measured in text itself (never in a lower-cased
	// copy, whose bytes differ where case changes a character's length).
	words := strings.Fields(span)
	if len(words) == 0 {
		return -1, -1
	}
	for start := 0; start < len(text); {
		if end, ok := wordsAt(text, start, words); ok {
			return start, end
		}
		_, size := utf8.DecodeRuneInString(text[start:])
		start += size
	}
	return -1, -1
}

// wordsAt matches words at text[start:], ignoring case, with white space
// (at least one character) between them, and returns where the match ends.
func wordsAt(text string, start int, words []string) (int, bool) {
	pos := start
	for i, w := range words {
		if i > 0 {
			j := pos
			for j < len(text) {
				r, size := utf8.DecodeRuneInString(text[j:])
				if !unicode.IsSpace(r) {
					break
				}
				j += size
			}
			if j == pos {
				return 0, false
			}
			pos = j
		}
		n, ok := prefixFold(text[pos:], w)
		if !ok {
			return 0, false
		}
		pos += n
	}
	return pos, true
}

// prefixFold reports whether s begins with prefix under Unicode case
// folding, and how many bytes of s that prefix takes.
func prefixFold(s, prefix string) (int, bool) {
	n := 0
	for _, pr := range prefix {
		if n >= len(s) {
			return 0, false
		}
		sr, size := utf8.DecodeRuneInString(s[n:])
		if sr != pr && !strings.EqualFold(string(sr), string(pr)) {
			return 0, false
		}
		n += size
	}
	return n, true
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

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// plannedQuestions are the questions the extraction wrote for a claim, at
// most maxQuestions; none unless two or more (the plan call then writes
// them).
func plannedQuestions(qs []string) []string {
	var out []string
	for _, q := range qs {
		if q = strings.TrimSpace(q); q != "" && len(out) < maxQuestions {
			out = append(out, q)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}
