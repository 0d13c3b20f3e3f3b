// Package factcheck is the engine: it splits a text into claims and
// verifies each under budgets, with evidence it retrieved itself.
//
// One tool loop (loop.go) drives the model in every stage: extraction
// finishes with submit_claims (extract.go), the plan with
// submit_questions (questions.go), the research with submit_verdict after
// web_search, read_page and search_fact_checks (verify.go, webtools.go),
// the critic with submit_review (critic.go). What a run retrieved bounds what its verdict
// may cite (provenance.go). Models are reached through the Model
// interface; the providers in factcheck/gemini and factcheck/openai only
// translate.
package factcheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/search"
)

// EventKind names a progress event.
type EventKind string

const (
	EventClaims  EventKind = "claims"  // claims found in the input
	EventSearch  EventKind = "search"  // a search query sent
	EventRead    EventKind = "read"    // a page read
	EventVerdict EventKind = "verdict" // a claim's verdict (also for cached ones)
	EventNote    EventKind = "note"    // anything else worth showing, e.g. a budget reached
)

// Event reports progress while a check runs.
type Event struct {
	Kind EventKind
	// Claim is the index of the claim the event is about, -1 for the input.
	Claim int
	// Text is the query, the URL or the note.
	Text    string
	Claims  []ExtractedClaim // EventClaims
	Verdict *Verdict         // EventVerdict
}

// Input is one request to check text.
type Input struct {
	// Tenant scopes the cache: the Slack team, Discord guild, or "cli".
	Tenant string
	Text   string
	// Fresh ignores cached verdicts and extractions (they are still
	// updated) and earlier checks (Earlier): the claims are researched
	// afresh.
	Fresh bool
	// Earlier, if set with the Checker's Embedder, finds the earlier
	// checks the asker may see: a claim one of them checked already, in
	// other words or another language, is answered from it (match.go).
	// Every claim's vector is then set on its verdict (Embedding), for
	// the caller to keep with the check. nil matches nothing (factbot
	// eval).
	Earlier Earlier
	// Progress, if set, is called as the check advances. Calls are
	// serialised: it is never called from two goroutines at once.
	Progress func(Event)

	// AsClaim makes Text one claim, verified as given: there is no
	// extraction call. Evaluations on datasets of claims use it.
	AsClaim bool
	// AsOf, if not zero, checks the claims as of that day: searches are
	// restricted to what was published on or before it (results and
	// pages dated later are dropped before the model sees them), and it
	// is "today" for the model. Such verdicts are neither read from nor
	// written to the cache.
	AsOf time.Time
	// Speaker and Source say who made the claim and where it appeared
	// (e.g. "a council member", "Facebook"); the model reads them as the
	// claim's context.
	Speaker, Source string
	// ExcludeURLs are pages kept out of the check's searches and page
	// reads by address, with their copies on mirrors (see
	// search.Restriction.ExcludeURLs): an evaluation passes a claim's
	// own published fact-check so.
	ExcludeURLs []string
	// Files are attached to the text: pictures are given to the model with
	// it (when it reads pictures), a PDF's text is checked with it. Text
	// may then be empty.
	Files []File
	// StoreClaim names the claim in a claim-keyed evidence source (the
	// AVeriTeC knowledge store: its index in the dataset); every search
	// and read of the check carries it (search.Query.Claim). "" for the
	// web.
	StoreClaim string
	// Recorder is told of every cache record the check reads or writes
	// (its verdicts, its extraction, its searches and pages): the chat
	// core keeps them with the check, so forgetting the asker forgets what
	// their request caused. nil records nothing.
	Recorder search.Recorder
}

// claimContext is what a verification run knows about its claim beyond
// its words.
type claimContext struct {
	asOf            time.Time
	speaker, source string
	language        string // the claim's BCP 47 tag, "" when unknown
	excludeURLs     []string
	storeClaim      string // Input.StoreClaim
	recorder        search.Recorder
	// questions are the plan the extraction wrote with the claim
	// (ExtractedClaim.Questions); none, and the plan call writes them.
	questions []string
}

func (in Input) claimContext() claimContext {
	return claimContext{asOf: in.AsOf, speaker: strings.TrimSpace(in.Speaker), source: strings.TrimSpace(in.Source), excludeURLs: in.ExcludeURLs, storeClaim: in.StoreClaim, recorder: in.Recorder}
}

// Checker verifies claims: extraction, then one verification loop per
// claim, concurrently, under budgets.
type Checker struct {
	Model  Model
	Search Searcher
	Reader Reader
	// FactChecks, if set, adds the search_fact_checks tool.
	FactChecks FactCheckSearcher
	// ExcludeSites are domains (see search.NormalizeSites) kept out of
	// every search result and page read, with their subdomains.
	ExcludeSites []string
	// ExcludeFactCheckPaths also keeps out the fact-check sections of any
	// site, named by host or path (search.Restriction.FactCheckPaths).
	ExcludeFactCheckPaths bool
	// KeepUndated keeps, in a check as of a date, the results and pages
	// whose publication date is unknown; by default they are dropped.
	KeepUndated bool
	// Cache, if set, answers known claims and extractions.
	Cache    Cache
	CacheTTL time.Duration // default 168h

	// Embedder, if set, embeds the claims of checks given an
	// Input.Earlier, to answer them from earlier checks within
	// MatchMaxAge (default DefaultMatchMaxAge) of a cosine similarity of
	// MatchThreshold or more (default DefaultMatchThreshold).
	Embedder       Embedder
	MatchThreshold float64
	MatchMaxAge    time.Duration
	embeddings     embedCache

	Budget Budget
	// Concurrency bounds how many claims are verified at once (default 8).
	Concurrency int
	// MaxClaims bounds how many claims of one input are verified (default 8).
	MaxClaims int
	// MaxInput bounds the input's length in bytes (default 8000).
	MaxInput int
	// Options switch the verification techniques; the zero value is the
	// default.
	Options Options

	// Now returns the time; tests set it. Default time.Now.
	Now func() time.Time

	// factChecksOff is set once FactChecks has failed for good (a key
	// without the API enabled): later runs no longer offer the tool.
	factChecksOff atomic.Bool
}

// Defaults for the Checker's zero fields.
const (
	DefaultConcurrency = 8
	DefaultMaxClaims   = 8
	DefaultMaxInput    = 8000
	DefaultCacheTTL    = 168 * time.Hour
	// pageInputChars bounds how much of a page is split into claims when
	// the input is only a URL.
	pageInputChars = 6000
)

func (c *Checker) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func orDefault(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}

// ValidateInput returns the *usererr.Error Check answers for text that is
// empty or longer than max bytes (max <= 0: DefaultMaxInput). The chat core
// calls it to refuse such input, in the same words, before queueing it.
func ValidateInput(text string, max int) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return inputError(&InputError{Code: InputEmpty}, "There is nothing to check: send a statement, e.g. \"The Great Wall of China is visible from space\".")
	}
	if max = orDefault(max, DefaultMaxInput); len(text) > max {
		return inputError(&InputError{Code: InputTooLong, Chars: len(text), Max: max}, "The text is too long to check (%d characters; the limit is %d). Send the part you want checked.", len(text), max)
	}
	return nil
}

// Check verifies every check-worthy claim in in.Text. Bad input returns a
// *usererr.Error. A claim whose verification fails is reported with its Error
// set; Check returns an error only when nothing could be checked.
func (c *Checker) Check(ctx context.Context, in Input) (*Report, error) {
	ctx, span := startCheckSpan(ctx, in)
	defer span.End()
	var mu sync.Mutex
	emit := func(e Event) {
		if in.Progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		in.Progress(e)
	}
	text := strings.TrimSpace(in.Text)
	if err := validateWithFiles(text, len(in.Files), c.MaxInput); err != nil {
		return nil, err
	}
	rep := &Report{Input: in.Text, CheckedAt: c.now(), Model: c.Model.Name(), Claims: []*Verdict{}, NotCheckable: []NotCheckable{}}
	var claims []ExtractedClaim
	if in.AsClaim {
		start := strings.Index(in.Text, text) // the text trimmed
		claims = []ExtractedClaim{{Claim: text, Span: text, Start: start, End: start + len(text)}}
	} else {
		pictures, pdfText := c.attachments(in.Files, rep)
		if text == "" && len(pictures) == 0 && pdfText == "" {
			return nil, inputError(&InputError{Code: InputUnreadable, Notes: unreadableNotes(rep)}, "There is nothing to check: the message has no text, and its attachments could not be read (%s).", strings.TrimSpace(rep.Notice+" "+attachmentNotes(rep.Attachments)))
		}
		source, err := c.source(ctx, in, rep, emit)
		if err != nil {
			return nil, err
		}
		if pdfText != "" {
			source = strings.TrimSpace(source + "\n\n" + pdfText)
		}
		if claims, err = c.claims(ctx, in, source, pictures, rep); err != nil {
			return nil, err
		}
	}
	emit(Event{Kind: EventClaims, Claim: -1, Claims: claims})
	rep.Claims = c.verifyAll(ctx, in, claims, emit)

	var firstErr error
	failed := 0
	for _, v := range rep.Claims {
		rep.Usage = rep.Usage.Add(v.Usage)
		if v.Error != "" {
			failed++
			if firstErr == nil {
				firstErr = v.err
			}
		}
	}
	if len(claims) > 0 && failed == len(claims) {
		return rep, firstErr
	}
	return rep, nil
}

// source returns the text claims are extracted from: the input, or the
// page it links to when it is nothing but a link.
func (c *Checker) source(ctx context.Context, in Input, rep *Report, emit func(Event)) (string, error) {
	input := in.Text
	u := OnlyURL(strings.TrimSpace(input))
	if u == "" {
		return input, nil
	}
	page, err := c.readInputPage(ctx, u, in.Recorder)
	if err != nil {
		return "", err
	}
	rep.AddNote(Note{Code: NoteLinkOnly, Title: page.Title, Text: fmt.Sprintf("The message was only a link, so the claims of that page were checked: %s", page.Title)})
	emit(Event{Kind: EventNote, Claim: -1, Text: "reading the linked page " + u})
	return truncate(page.Title+"\n\n"+page.Text, pageInputChars), nil
}

// claims extracts the claims of source into rep and returns those to
// verify, at most MaxClaims.
func (c *Checker) claims(ctx context.Context, in Input, source string, pictures []File, rep *Report) ([]ExtractedClaim, error) {
	x, err := c.extract(ctx, in, source, pictures)
	if err != nil {
		return nil, err
	}
	rep.Usage = rep.Usage.Add(x.Usage)
	rep.Trace = x.Trace
	rep.NotCheckable = append(rep.NotCheckable, x.NotCheckable...)
	rep.Language = x.Language
	claims := x.Claims
	if max := orDefault(c.MaxClaims, DefaultMaxClaims); len(claims) > max {
		for _, cl := range claims[max:] {
			rep.NotCheckable = append(rep.NotCheckable, NotCheckable{Text: cl.Claim, Reason: fmt.Sprintf("not checked: at most %d claims are checked per request", max),
				Code: ReasonOverLimit, Max: max, Start: cl.Start, End: cl.End})
		}
		rep.AddNote(Note{Code: NoteClaimsOverLimit, Max: max, Count: len(claims),
			Text: fmt.Sprintf("Only the first %d of %d claims were checked; send the rest separately.", max, len(claims))})
		claims = claims[:max]
	}
	if source != in.Text { // offsets refer to the page, not the input
		for i := range claims {
			claims[i].Start, claims[i].End = -1, -1
		}
		for i := range rep.NotCheckable {
			rep.NotCheckable[i].Start, rep.NotCheckable[i].End = -1, -1
		}
	}
	return claims, nil
}

// verifyAll verifies the claims concurrently, at most Concurrency at once.
func (c *Checker) verifyAll(ctx context.Context, in Input, claims []ExtractedClaim, emit func(Event)) []*Verdict {
	out := make([]*Verdict, len(claims))
	var vecs []*Embedding
	if c.matches(in) {
		vecs = c.embedClaims(ctx, in, claims)
	}
	sem := make(chan struct{}, orDefault(c.Concurrency, DefaultConcurrency))
	var wg sync.WaitGroup
	for i, cl := range claims {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			var e *Embedding
			if vecs != nil {
				e = vecs[i]
			}
			v := c.matchEarlier(ctx, in, cl, e)
			if v == nil {
				v = c.checkClaim(ctx, in, cl, in.Text, i, emit)
			}
			if v.Error == "" {
				v.Embedding = e
			}
			v.Start, v.End, v.Span, v.Picture = cl.Start, cl.End, cl.Span, cl.Picture
			out[i] = v
			emit(Event{Kind: EventVerdict, Claim: i, Verdict: v})
		}()
	}
	wg.Wait()
	return out
}

// checkClaim answers one claim from the cache or by verification. Failures
// are reported in the verdict.
func (c *Checker) checkClaim(ctx context.Context, in Input, cl ExtractedClaim, userText string, i int, emit func(Event)) *Verdict {
	// A verdict as of a date, or for a speaker, answers another question
	// than the cached one about the same words.
	cacheable := c.Cache != nil && in.AsOf.IsZero() && in.Speaker == "" && in.Source == ""
	if cacheable && !in.Fresh {
		v, ok, err := c.Cache.Verdict(ctx, in.Tenant, cl.Claim, c.cacheTTL(), in.Recorder)
		if err == nil && ok {
			v.Cached = true
			return v
		}
	}
	if in.AsClaim {
		userText = "" // the claim is the whole text
	}
	cc := in.claimContext()
	cc.language, cc.questions = cl.Language, cl.Questions
	v, err := c.verify(ctx, cl.Claim, userText, cc, i, emit)
	if err != nil {
		reason, failed := "the model could not be reached", FailedModel
		if errors.Is(err, ErrRateLimited) {
			reason, failed = "the model's rate limit was reached", FailedRateLimited
		} else if msg, ok := usererr.Message(err); ok {
			reason, failed = msg, FailedOther
		} else if ctx.Err() != nil {
			reason, failed = "the check was cancelled", FailedCancelled
		}
		return &Verdict{
			Claim: cl.Claim, Verdict: Unverifiable, Confidence: Low,
			Reasoning: "This claim could not be checked: " + reason + ".",
			Error:     err.Error(), Failed: failed, err: err,
			CheckedAt: c.now(), Model: c.Model.Name(), Start: -1, End: -1,
		}
	}
	if cacheable {
		_ = c.Cache.PutVerdict(ctx, in.Tenant, v, in.Recorder) // a cache failure costs a re-check, nothing more
	}
	return v
}

func (c *Checker) cacheTTL() time.Duration {
	if c.CacheTTL > 0 {
		return c.CacheTTL
	}
	return DefaultCacheTTL
}

// extract returns the input's claims, from the cache when possible (never
// with pictures: the cache knows only the text).
func (c *Checker) extract(ctx context.Context, in Input, text string, pictures []File) (*Extraction, error) {
	if len(pictures) > 0 {
		return c.extractWith(ctx, text, pictures)
	}
	if c.Cache != nil && !in.Fresh {
		if x, ok, err := c.Cache.Extraction(ctx, in.Tenant, text, c.cacheTTL(), in.Recorder); err == nil && ok {
			x.Usage = Usage{}
			return x, nil
		}
	}
	x, err := c.Extract(ctx, text)
	if err != nil {
		return nil, err
	}
	if c.Cache != nil {
		_ = c.Cache.PutExtraction(ctx, in.Tenant, text, x, in.Recorder)
	}
	return x, nil
}

func (c *Checker) readInputPage(ctx context.Context, u string, rec search.Recorder) (*search.Page, error) {
	if c.Reader == nil {
		return nil, inputError(&InputError{Code: InputLinkNoReader}, "The message is only a link, and page reading is not configured. Paste the claim's text instead.")
	}
	p, err := c.Reader.ReadPage(ctx, search.PageRequest{URL: u, Recorder: rec})
	if err != nil {
		return nil, inputError(&InputError{Code: InputLinkUnreadable, Err: err}, "The message is only a link, and the page could not be read (%v). Paste the claim's text instead.", err)
	}
	if strings.TrimSpace(p.Text) == "" {
		return nil, inputError(&InputError{Code: InputLinkEmpty}, "The message is only a link, and the page has no readable text. Paste the claim's text instead.")
	}
	return p, nil
}

// validateWithFiles is ValidateInput, except that text may be empty when
// files come with it.
func validateWithFiles(text string, files, max int) error {
	if files > 0 && text == "" {
		return nil
	}
	return ValidateInput(text, max)
}

// attachmentNotes lists why attachments were not read.
func attachmentNotes(as []Attachment) string {
	var notes []string
	for _, a := range as {
		if a.Note != "" {
			notes = append(notes, a.Name+": "+a.Note)
		}
	}
	return strings.Join(notes, "; ")
}

// OnlyURL returns the URL if text is nothing but one URL (Slack writes
// it as <url> or <url|label>): the page the engine reads for such a
// message.
func OnlyURL(text string) string {
	t := strings.Trim(strings.TrimSpace(text), "<>")
	if i := strings.IndexByte(t, '|'); i > 0 { // Slack's <url|label>
		t = t[:i]
	}
	us := urlsIn(t)
	if len(us) == 1 && us[0] == t {
		return t
	}
	return ""
}
