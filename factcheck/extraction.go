package factcheck

// ExtractedClaim is one check-worthy claim found in the input.
type ExtractedClaim struct {
	// Claim is the self-contained statement (pronouns and context resolved).
	Claim string `json:"claim"`
	// Span is the input's own words it comes from; Start and End are its
	// byte offsets in the input (-1 when the span was not found verbatim).
	Span  string `json:"span"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	// Language is the BCP 47 tag of the claim's language, as the model
	// named it ("" when unknown); the reasoning is written in it, and it
	// is searched in it and in English.
	Language string `json:"language,omitempty"`
	// Picture is the number (from 1) of the picture the claim was read
	// from, 0 for the text.
	Picture int `json:"picture,omitempty"`
	// Questions are the questions whose answers would settle the claim,
	// written with it (Options.NoJointPlan unset); none when the
	// extraction gave fewer than two, and the plan then writes them.
	Questions []string `json:"questions,omitempty"`
}

// Extraction is the result of splitting an input into claims.
type Extraction struct {
	Claims       []ExtractedClaim `json:"claims"`
	NotCheckable []NotCheckable   `json:"not_checkable"`
	// Language is the BCP 47 tag of the text's language ("" when unknown).
	Language string       `json:"language,omitempty"`
	Usage    Usage        `json:"usage"`
	Trace    []TraceEvent `json:"trace,omitempty"`
}
