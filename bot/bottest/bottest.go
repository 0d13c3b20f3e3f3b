// Package bottest provides fakes for testing the chat core and its
// adapters: a scripted Checker, a recording Platform and links to a web
// view (the in-memory store is storetest.Memory).
package bottest

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// Checker is a scripted bot.Checker. By default it finds one claim per
// line of input and answers each with Label (default supported) and one
// piece of evidence.
type Checker struct {
	// Func, if set, answers instead of the default.
	Func  func(ctx context.Context, in factcheck.Input) (*factcheck.Report, error)
	Label factcheck.Label
	// Block, if set, makes Check wait until it is closed or ctx ends.
	Block chan struct{}
	// Started, if set, receives each input as a check starts.
	Started chan factcheck.Input

	mu    sync.Mutex
	calls []factcheck.Input
}

// Calls returns the inputs checked so far.
func (c *Checker) Calls() []factcheck.Input {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]factcheck.Input(nil), c.calls...)
}

// Check implements bot.Checker.
func (c *Checker) Check(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
	c.mu.Lock()
	c.calls = append(c.calls, factcheck.Input{Tenant: in.Tenant, Text: in.Text, Fresh: in.Fresh, Files: in.Files})
	c.mu.Unlock()
	if c.Started != nil {
		c.Started <- in
	}
	if c.Block != nil {
		select {
		case <-c.Block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if c.Func != nil {
		return c.Func(ctx, in)
	}
	return Report(in, c.Label), nil
}

// Report is the default scripted report: a claim per line of in.Text,
// progress events included.
func Report(in factcheck.Input, label factcheck.Label) *factcheck.Report {
	if label == "" {
		label = factcheck.Supported
	}
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	rep := &factcheck.Report{Input: in.Text, CheckedAt: at, Model: "fake"}
	var claims []factcheck.ExtractedClaim
	for _, line := range strings.Split(in.Text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			claims = append(claims, factcheck.ExtractedClaim{Claim: line, Span: line, Start: -1, End: -1})
		}
	}
	if in.Progress != nil {
		in.Progress(factcheck.Event{Kind: factcheck.EventClaims, Claim: -1, Claims: claims})
	}
	for i, c := range claims {
		v := &factcheck.Verdict{
			Claim: c.Claim, Verdict: label, Confidence: factcheck.High,
			Reasoning: "The source says so: " + c.Claim, CheckedAt: at, Model: "fake", Start: -1, End: -1,
			Evidence: []factcheck.Evidence{{
				SourceURL: "https://example.org/source", SourceTitle: "Example source",
				Supports: label == factcheck.Supported, QuoteOrSummary: c.Claim, QuoteFound: true,
				QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteOnPage},
			}},
		}
		if in.Progress != nil {
			in.Progress(factcheck.Event{Kind: factcheck.EventVerdict, Claim: i, Verdict: v})
		}
		rep.Claims = append(rep.Claims, v)
	}
	return rep
}

// StancesReport is a contested claim with one source of each stance
// (supports, refutes, context), quotes found on a page, on a PDF page and
// in a snippet, words seen only in a search summary a model wrote, a
// record saved before stances (and quote places), and words not found in
// anything read: what every renderer's golden file shows.
func StancesReport() *factcheck.Report {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	return &factcheck.Report{Input: "Crime fell 10% under the mayor.", CheckedAt: at, Model: "fake", Claims: []*factcheck.Verdict{{
		Claim: "Crime fell 10% under the mayor.", Verdict: factcheck.Contested, Confidence: factcheck.Medium,
		Reasoning: "Crime fell 10%, but it fell as much in every city.", CheckedAt: at, Model: "fake", Start: -1, End: -1,
		Evidence: []factcheck.Evidence{
			{SourceURL: "https://police.example.org/2025", SourceTitle: "Police annual report", Supports: true, Stance: factcheck.StanceSupports,
				QuoteOrSummary: "Recorded crime fell by 10% in 2025.", Passage: "p1.4", QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}},
			{SourceURL: "https://stats.example.org/crime.pdf#page=3", SourceTitle: "National statistics", Stance: factcheck.StanceContext,
				QuoteOrSummary: "Every city of the region saw crime fall by 9 to 11% over the same year.", Passage: "p2.7", QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInPDF, Page: 3}},
			{SourceURL: "https://news.example.com/mayor", SourceTitle: "Mayor's claim", Stance: factcheck.StanceRefutes,
				QuoteOrSummary: "The mayor's office denies that its policy caused the fall.", Passage: "p3.1", QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInSnippet}},
			{SourceURL: "https://blog.example.net/crime", SourceTitle: "Search through Gemini", Stance: factcheck.StanceSupports, Supports: true,
				QuoteOrSummary: "Crime fell 10% under the mayor, sources say.", QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInSummary}},
			{SourceURL: "https://old.example.org/", SourceTitle: "A record saved before stances", QuoteOrSummary: "Crime was flat.", QuoteFound: true},
			{SourceURL: "https://forum.example.net/t/1", SourceTitle: "A forum thread", Stance: factcheck.StanceRefutes,
				QuoteOrSummary: "Crime rose, a commenter says."},
		},
	}}}
}

// Post is one message a Platform sent.
type Post struct {
	Op    string // "post", "update", "notify"
	Reply string
	Req   *store.Request
	Msg   *bot.Message
	Text  string // notify
	Err   error  // the error the call returned
}

// Platform records what the core asks it to send.
type Platform struct {
	PlatformName string // default "test"
	// PostErr, if set, is returned by Post.
	PostErr error
	// FinalErrs and NotifyErrs are returned by the first Updates with a
	// final message and the first Notifies, in order (a nil one
	// succeeds); the rest succeed. Failed calls are recorded too, with Err
	// set.
	FinalErrs, NotifyErrs []error
	// HoldNotify, if set, makes Notify wait until it is closed or ctx ends.
	HoldNotify chan struct{}

	mu    sync.Mutex
	posts []Post
	seq   int
	// Sent, if set, receives every Post (non-blocking when full).
	Sent chan Post
}

// Name implements bot.Platform.
func (p *Platform) Name() string {
	if p.PlatformName == "" {
		return "test"
	}
	return p.PlatformName
}

func (p *Platform) record(x Post) {
	p.mu.Lock()
	p.posts = append(p.posts, x)
	p.mu.Unlock()
	if p.Sent != nil {
		select {
		case p.Sent <- x:
		default:
		}
	}
}

// Post implements bot.Platform.
func (p *Platform) Post(ctx context.Context, r *store.Request, m *bot.Message) (string, error) {
	if p.PostErr != nil {
		return "", p.PostErr
	}
	p.mu.Lock()
	p.seq++
	id := fmt.Sprintf("reply-%d", p.seq)
	p.mu.Unlock()
	p.record(Post{Op: "post", Reply: id, Req: cloneReq(r), Msg: m})
	return id, nil
}

// Update implements bot.Platform.
func (p *Platform) Update(ctx context.Context, r *store.Request, reply string, m *bot.Message) error {
	var err error
	if m.Final {
		err = p.next(&p.FinalErrs)
	}
	p.record(Post{Op: "update", Reply: reply, Req: cloneReq(r), Msg: m, Err: err})
	return err
}

// Notify implements bot.Platform.
func (p *Platform) Notify(ctx context.Context, r *store.Request, text string) error {
	if p.HoldNotify != nil {
		select {
		case <-p.HoldNotify:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	err := p.next(&p.NotifyErrs)
	p.record(Post{Op: "notify", Req: cloneReq(r), Text: text, Err: err})
	return err
}

// next takes the first of errs, if any.
func (p *Platform) next(errs *[]error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(*errs) == 0 {
		return nil
	}
	err := (*errs)[0]
	*errs = (*errs)[1:]
	return err
}

// Posts returns everything sent so far.
func (p *Platform) Posts() []Post {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Post(nil), p.posts...)
}

// cloneReq copies r so a recorded post does not change with the request.
func cloneReq(r *store.Request) *store.Request {
	c := *r
	c.Meta = maps.Clone(r.Meta)
	return &c
}

// Links is a fake bot.Links whose URLs spell out what they were made for,
// under Base (default https://factbot.example): a check's page for a
// viewer, a history for a viewer asking in a channel.
type Links struct{ Base string }

var _ bot.Links = Links{}

func (l Links) base() string {
	if l.Base == "" {
		return "https://factbot.example"
	}
	return l.Base
}

// CheckURL implements bot.Links.
func (l Links) CheckURL(tenant, viewer, checkID string) string {
	return l.base() + "/web/check/" + url.PathEscape(tenant) + "/" + url.PathEscape(checkID) + "?" + url.Values{"viewer": {viewer}}.Encode()
}

// HistoryURL implements bot.Links.
func (l Links) HistoryURL(tenant, viewer, channel string) string {
	return l.base() + "/web/history/" + url.PathEscape(tenant) + "?" + url.Values{"viewer": {viewer}, "channel": {channel}}.Encode()
}

// MixedReport is Report with one claim per line of in.Text, their labels
// taken in turn from labels, the report in language (a BCP 47 tag, as the
// extraction names it) and one part of the text not checkable.
func MixedReport(in factcheck.Input, language string, labels ...factcheck.Label) *factcheck.Report {
	rep := Report(factcheck.Input{Text: in.Text}, factcheck.Supported)
	for i, v := range rep.Claims {
		v.Verdict = labels[i%len(labels)]
		v.Evidence[0].Supports = v.Verdict == factcheck.Supported
	}
	rep.Language = language
	rep.NotCheckable = []factcheck.NotCheckable{{Text: "What a view!", Reason: "an exclamation, not a statement of fact", Start: -1, End: -1}}
	return rep
}

// LongMessage is a final report of n claims with every text as long as a
// report can carry (claims, reasoning, five sources with long titles and
// quotes, a notice, parts not checked, who asked, a link to the full
// report): for the adapters' tests of their platform's size limits.
func LongMessage(n int) *bot.Message {
	long := func(word string, runes int) string {
		return strings.TrimSpace(strings.Repeat(word+" ", runes/(len(word)+1)))
	}
	m := &bot.Message{Final: true, Title: fmt.Sprintf("Fact-check: %d claims", n), Notice: long("notice", 600),
		CheckID: "20261129T120000Z-abcd", AskedBy: &bot.Asker{ID: "300000000000000003", Name: long("Ana", 100)},
		Summary: fmt.Sprintf("%d claims: %d supported, %d contradicted", n, (n+1)/2, n/2)}
	m.Actions = []bot.Action{bot.English.ReportLink("https://factbot.example/web/check/T1/20261129T120000Z-abcd?t=v1.x.y"),
		{ID: bot.ActionRecheck, Label: "Check again", Value: m.CheckID}, {ID: bot.ActionWrong, Label: "Wrong verdict?", Value: m.CheckID}}
	for i := range n {
		c := bot.ClaimView{Claim: fmt.Sprintf("claim %d ", i+1) + long("étendue", 600), Label: factcheck.Labels[i%2],
			Confidence: factcheck.High, Reasoning: long("because", 2500), Cached: true, CheckedAt: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)}
		for j := range 5 {
			c.Evidence = append(c.Evidence, bot.EvidenceView{URL: fmt.Sprintf("https://example.org/%d/%d", i, j), Title: long("Title", 250),
				Supports: j%2 == 0, Quote: long("quoted", 600), QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}})
		}
		m.Claims = append(m.Claims, c)
	}
	for range 7 {
		m.NotCheckable = append(m.NotCheckable, bot.NotCheckableView{Text: long("opinion", 400), Reason: long("reason", 300)})
	}
	return m
}

// GoldenMessage is a small final report rendered by the core in lang (a
// BCP 47 tag): two claims with a source each, a part not checked, who
// asked and a link to the full report, for the adapters' golden files.
func GoldenMessage(lang string) *bot.Message {
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	rep := &factcheck.Report{Language: lang, Claims: []*factcheck.Verdict{
		{Claim: "The Eiffel Tower is 330 m tall (with antennas): it grew in 2022.", Verdict: factcheck.Supported, Confidence: factcheck.High,
			Reasoning: "The operator's site gives 330 m since a new antenna in 2022.",
			Evidence: []factcheck.Evidence{{SourceURL: "https://www.toureiffel.paris/en", SourceTitle: "Eiffel Tower: figures", Supports: true,
				QuoteOrSummary: "The tower is 330 metres tall", QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInPDF, Page: 2}}}},
		{Claim: "It was built in 1789.", Verdict: factcheck.Contradicted, Confidence: factcheck.Medium, Cached: true, CheckedAt: at,
			Reasoning: "It was completed in 1889.", StoppedBy: factcheck.BudgetSearches,
			Evidence: []factcheck.Evidence{{SourceURL: "https://example.org/history", SourceTitle: "History", QuoteOrSummary: "completed in 1889",
				QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInSnippet}}}},
	}, NotCheckable: []factcheck.NotCheckable{{Text: "What a view!", Reason: "an exclamation"}}}
	l := bot.LangFor(lang)
	m := l.RenderReport(rep, "20261128T090000Z-abcd")
	m.Actions = append([]bot.Action{l.ReportLink("https://factbot.example/web/check/T1/20261128T090000Z-abcd?t=v1.x.y")}, m.Actions...)
	m.AskedBy = &bot.Asker{ID: "300000000000000003", Name: "Ana"}
	return m
}

// NoticesReport is Report with the engine's coded words: the input was
// only a link, claims were over the per-request limit (one listed as not
// checked), and one more claim could not be checked, the model's rate
// limit reached. Their English text is as the engine writes it.
func NoticesReport(in factcheck.Input) *factcheck.Report {
	rep := Report(factcheck.Input{Text: in.Text}, factcheck.Supported)
	rep.AddNote(factcheck.Note{Code: factcheck.NoteLinkOnly, Title: "Tower facts",
		Text: "The message was only a link, so the claims of that page were checked: Tower facts"})
	rep.AddNote(factcheck.Note{Code: factcheck.NoteClaimsOverLimit, Max: 8, Count: 9,
		Text: "Only the first 8 of 9 claims were checked; send the rest separately."})
	rep.NotCheckable = []factcheck.NotCheckable{{Text: "The ninth claim", Code: factcheck.ReasonOverLimit, Max: 8, Start: -1, End: -1,
		Reason: "not checked: at most 8 claims are checked per request"}}
	rep.Claims = append(rep.Claims, &factcheck.Verdict{Claim: "The failed claim", Verdict: factcheck.Unverifiable, Confidence: factcheck.Low,
		Reasoning: "This claim could not be checked: the model's rate limit was reached.", Error: "model rate limited",
		Failed: factcheck.FailedRateLimited, CheckedAt: rep.CheckedAt, Start: -1, End: -1})
	return rep
}
