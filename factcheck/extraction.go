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
	// Picture is the number (from 1) of the picture the claim was read
	// from, 0 for the text.
	Picture int `json:"picture,omitempty"`
}

// Extraction is the result of splitting an input into claims.
type Extraction struct {
	Claims       []ExtractedClaim `json:"claims"`
	NotCheckable []NotCheckable   `json:"not_checkable"`
	Usage        Usage            `json:"usage"`
	Trace        []TraceEvent     `json:"trace,omitempty"`
}
