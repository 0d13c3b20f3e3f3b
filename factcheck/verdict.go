package factcheck

import (
	"strings"
	"time"
)

// Label is one of the four verdicts.
type Label string

const (
	Supported    Label = "supported"
	Contradicted Label = "contradicted"
	Contested    Label = "contested"
	Unverifiable Label = "unverifiable"
)

// Labels lists the four verdicts in display order.
var Labels = []Label{Supported, Contradicted, Contested, Unverifiable}

// Valid reports whether l is one of the four verdicts.
func (l Label) Valid() bool {
	switch l {
	case Supported, Contradicted, Contested, Unverifiable:
		return true
	}
	return false
}

// Confidence is the model's confidence in a verdict.
type Confidence string

const (
	High   Confidence = "high"
	Medium Confidence = "medium"
	Low    Confidence = "low"
)

// Valid reports whether c is high, medium or low.
func (c Confidence) Valid() bool { return c == High || c == Medium || c == Low }

// Stance is what a piece of evidence says of its claim.
type Stance string

const (
	// StanceSupports: the source confirms the claim.
	StanceSupports Stance = "supports"
	// StanceRefutes: the source contradicts the claim.
	StanceRefutes Stance = "refutes"
	// StanceContext: the source's words are true but leave out what
	// changes their meaning (cherry-picking); it makes a claim contested.
	StanceContext Stance = "context"
)

// Stances lists the stances in display order.
var Stances = []Stance{StanceSupports, StanceRefutes, StanceContext}

// parseStance reads a stance as a model may write it; "" when it is none.
func parseStance(s string) Stance {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "supports", "support", "supported", "supporting":
		return StanceSupports
	case "refutes", "refute", "refuted", "refuting", "contradicts", "contradicted":
		return StanceRefutes
	case "context", "missing context", "misleading", "contested", "cherry-picked":
		return StanceContext
	}
	return ""
}

// Evidence is one source in a verdict's evidence map.
type Evidence struct {
	SourceURL   string `json:"source_url"`
	SourceTitle string `json:"source_title"`
	// Supports is true when Stance is supports; records saved before
	// stances have only it (see StanceOf).
	Supports bool   `json:"supports"`
	Stance   Stance `json:"stance,omitempty"`
	// QuoteOrSummary is, when QuoteFound, the source's whole sentence(s)
	// cited, verbatim; otherwise what the model wrote.
	QuoteOrSummary string `json:"quote_or_summary"`
	// Summary is the model's own words about the source, when it gave them.
	Summary string `json:"summary,omitempty"`
	// Passage names the cited sentences, e.g. "p2.14-p2.15", IDs stable
	// within the run that made the verdict.
	Passage string `json:"passage,omitempty"`
	// QuoteFound is set by code, not the model: whether the quote is the
	// source's own sentence(s), retrieved for SourceURL in this run (page,
	// PDF page or search snippet; a title or a search summary a model
	// wrote is never a found quote). QuoteMatch says where (JSON
	// quote_place and quote_page): it may name a title or a search summary
	// where the words were seen when QuoteFound is false.
	QuoteFound bool `json:"quote_found"`
	QuoteMatch
	// Publisher and Rating are set when the source is a published fact-check.
	Publisher string `json:"publisher,omitempty"`
	Rating    string `json:"rating,omitempty"`
	// Published is when the source says it was published (RFC 3339 or a
	// date), from the page read or else the search result; empty when
	// unknown.
	Published string `json:"published,omitempty"`
}

// StanceOf returns the evidence's stance; for a record saved before
// stances, supports or refutes as its Supports says.
func (e Evidence) StanceOf() Stance {
	if e.Stance != "" {
		return e.Stance
	}
	if e.Supports {
		return StanceSupports
	}
	return StanceRefutes
}

// Verdict is the result of verifying one claim.
type Verdict struct {
	Claim      string     `json:"claim"`
	Verdict    Label      `json:"verdict"`
	Confidence Confidence `json:"confidence"`
	Reasoning  string     `json:"reasoning"`
	Evidence   []Evidence `json:"evidence"`
	// Scores are the model's 1–5 scores of how well each label fits, when
	// it gave them; Verdict is then the highest after calibration.
	Scores map[Label]float64 `json:"scores,omitempty"`

	// Start and End are byte offsets of the claim's source span in the
	// input text (End exclusive); both are -1 when the span was not found.
	Start int `json:"start"`
	End   int `json:"end"`
	// Span is the input's own words the claim comes from.
	Span string `json:"span,omitempty"`
	// Picture is the number (from 1) of the input's picture the claim was
	// read from, 0 for a claim of the text.
	Picture int `json:"picture,omitempty"`

	CheckedAt time.Time `json:"checked_at"`
	Model     string    `json:"model"`
	// StoppedBy names the budget that ended the run ("steps", "searches",
	// "reads", "prompt_tokens", "time"), empty when the model stopped itself.
	StoppedBy string `json:"stopped_by,omitempty"`
	// Cached is true when the verdict came from the cache; CheckedAt then
	// says when it was made.
	Cached bool `json:"cached,omitempty"`
	// Match is set when an earlier check of the same claim, in other
	// words or another language, answered it (match.go): its verdict,
	// reasoning and evidence are the earlier ones, CheckedAt their date.
	Match *Match `json:"match,omitempty"`
	// Embedding is the claim's vector, kept with the check by the store
	// (not in the report's JSON).
	Embedding *Embedding `json:"-"`
	// Error is set when the claim could not be checked at all; Verdict is
	// then unverifiable.
	Error string `json:"error,omitempty"`
	// Failed says, with Error, why in a code (FailedModel…) a chat can
	// say in its language; the Reasoning says it in English.
	Failed string `json:"failed,omitempty"`
	err    error  // the cause of Error, for Check's return value

	// Questions are the plan's: what the research set out to answer.
	Questions []string `json:"questions,omitempty"`
	// Undated counts the results and pages a run as of a date dropped for
	// having no known publication date (Checker.KeepUndated keeps them).
	Undated int `json:"undated,omitempty"`

	Usage   Usage        `json:"usage"`
	Sources []Source     `json:"sources,omitempty"`
	Trace   []TraceEvent `json:"trace,omitempty"`
}

// Source is one URL retrieved in the run, for the audit trail.
type Source struct {
	URL       string    `json:"url"`
	Title     string    `json:"title,omitempty"`
	Via       string    `json:"via"` // "search", "read", "fact_check", "input"
	FetchedAt time.Time `json:"fetched_at"`
	// SHA256 of the page body, for pages read.
	SHA256 string `json:"sha256,omitempty"`
	// Cited is true when a piece of evidence in the verdict points here.
	Cited bool `json:"cited,omitempty"`
}

// TraceEvent is one step of a run, for auditors.
type TraceEvent struct {
	At   time.Time `json:"at"`
	Kind string    `json:"kind"` // "model", "tool", "note"
	// Model calls.
	Usage        *Usage `json:"usage,omitempty"`
	FinishReason string `json:"finish_reason,omitempty"`
	// Tool calls.
	Tool        string `json:"tool,omitempty"`
	Args        string `json:"args,omitempty"`
	ResultBytes int    `json:"result_bytes,omitempty"`
	Error       string `json:"error,omitempty"`
	// Notes: removed evidence, skipped providers, budgets reached.
	Note string `json:"note,omitempty"`
}

// NotCheckable is a part of the input that is not a verifiable claim.
type NotCheckable struct {
	Text   string `json:"text"`
	Reason string `json:"reason"`
	// Code names a reason the engine wrote (ReasonOverLimit, with Max;
	// ReasonNotFact); "" for the model's own.
	Code  string `json:"code,omitempty"`
	Max   int    `json:"max,omitempty"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// Report is the answer to one request: every claim found, each verified.
type Report struct {
	Input        string         `json:"input"`
	Claims       []*Verdict     `json:"claims"`
	NotCheckable []NotCheckable `json:"not_checkable"`
	CheckedAt    time.Time      `json:"checked_at"`
	Model        string         `json:"model"`
	// Usage sums the extraction and every claim's usage.
	Usage Usage `json:"usage"`
	// Trace holds the extraction steps.
	Trace []TraceEvent `json:"trace,omitempty"`
	// Notice is a short message for the user about the input, e.g. that
	// only the first claims were checked: the English text of Notes.
	Notice string `json:"notice,omitempty"`
	// Notes are the notices one by one, with their codes (AddNote).
	Notes []Note `json:"notes,omitempty"`
	// Language is the BCP 47 tag of the input's language, as the
	// extraction found it ("" when unknown).
	Language string `json:"language,omitempty"`
	// Attachments are the files given with the input (pictures and PDFs),
	// with their SHA-256 for the audit trail.
	Attachments []Attachment `json:"attachments,omitempty"`
}

// Budget bounds one claim's verification run. Zero fields take defaults.
type Budget struct {
	Steps        int           // model calls, the forced final call excluded
	Searches     int           // web_search and search_fact_checks calls
	Reads        int           // read_page calls
	PromptTokens int           // prompt tokens summed over the run's calls
	Time         time.Duration // wall time
	PageChars    int           // characters of page text shown per read (a third, chosen by the questions, with a compact transcript)
	Results      int           // results shown per search
}

// DefaultBudget is used for zero fields.
var DefaultBudget = Budget{
	Steps:        8,
	Searches:     4,
	Reads:        3,
	PromptTokens: 40000,
	Time:         90 * time.Second,
	PageChars:    2400,
	Results:      5,
}

func (b Budget) withDefaults() Budget {
	d := DefaultBudget
	if b.Steps > 0 {
		d.Steps = b.Steps
	}
	if b.Searches > 0 {
		d.Searches = b.Searches
	}
	if b.Reads > 0 {
		d.Reads = b.Reads
	}
	if b.PromptTokens > 0 {
		d.PromptTokens = b.PromptTokens
	}
	if b.Time > 0 {
		d.Time = b.Time
	}
	if b.PageChars > 0 {
		d.PageChars = b.PageChars
	}
	if b.Results > 0 {
		d.Results = b.Results
	}
	return d
}
