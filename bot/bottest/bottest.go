// Package bottest provides fakes for testing the chat core and its
// adapters: an in-memory Store, a scripted Checker and a recording Platform.
package bottest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// Store is an in-memory bot.Store.
type Store struct {
	mu       sync.Mutex
	reqs     map[string]*store.Request // tenant\x00key
	checks   map[string]*store.Check   // tenant\x00id
	order    []string
	seq      int
	Accepted int // AcceptRequest calls that stored a request
}

// NewStore returns an empty Store.
func NewStore() *Store {
	return &Store{reqs: map[string]*store.Request{}, checks: map[string]*store.Check{}}
}

func cloneReq(r *store.Request) *store.Request {
	c := *r
	c.Meta = maps.Clone(r.Meta)
	return &c
}

// AcceptRequest implements bot.Store.
func (s *Store) AcceptRequest(ctx context.Context, r *store.Request) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := r.Tenant + "\x00" + r.Key
	if _, ok := s.reqs[k]; ok {
		return false, nil
	}
	c := cloneReq(r)
	c.State = store.RequestPending
	s.reqs[k] = c
	s.Accepted++
	return true, nil
}

// UpdateRequest implements bot.Store.
func (s *Store) UpdateRequest(ctx context.Context, tenant, key string, fn func(*store.Request) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.reqs[tenant+"\x00"+key]
	if !ok {
		return store.ErrNotFound
	}
	c := cloneReq(r)
	if err := fn(c); err != nil {
		return err
	}
	s.reqs[tenant+"\x00"+key] = c
	return nil
}

// FinishRequest implements bot.Store.
func (s *Store) FinishRequest(ctx context.Context, tenant, key, state, checkID string) error {
	return s.UpdateRequest(ctx, tenant, key, func(r *store.Request) error {
		r.State, r.CheckID = state, checkID
		return nil
	})
}

// Tenants implements bot.Store.
func (s *Store) Tenants(ctx context.Context) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, r := range s.reqs {
		if r.State == store.RequestPending && !seen[r.Tenant] {
			seen[r.Tenant] = true
			out = append(out, r.Tenant)
		}
	}
	sort.Strings(out)
	return out, nil
}

// PendingRequests implements bot.Store.
func (s *Store) PendingRequests(ctx context.Context, tenant string) ([]*store.Request, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*store.Request
	for _, r := range s.reqs {
		if r.Tenant == tenant && r.State == store.RequestPending {
			out = append(out, cloneReq(r))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out, nil
}

// Request returns a stored request (tests).
func (s *Store) Request(tenant, key string) (*store.Request, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.reqs[tenant+"\x00"+key]
	if !ok {
		return nil, false
	}
	return cloneReq(r), true
}

// SaveCheck implements bot.Store.
func (s *Store) SaveCheck(ctx context.Context, c *store.Check) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.ID == "" {
		s.seq++
		c.ID = fmt.Sprintf("20261129T120000Z-%04d", s.seq)
	}
	cc := *c
	s.checks[c.Tenant+"\x00"+c.ID] = &cc
	s.order = append(s.order, c.Tenant+"\x00"+c.ID)
	if r, ok := s.reqs[c.Tenant+"\x00"+c.RequestKey]; ok && c.RequestKey != "" {
		r = cloneReq(r)
		r.CheckID = c.ID
		s.reqs[c.Tenant+"\x00"+c.RequestKey] = r
	}
	return nil
}

// Check implements bot.Store.
func (s *Store) Check(ctx context.Context, tenant, id string) (*store.Check, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.checks[tenant+"\x00"+id]
	if !ok {
		return nil, store.ErrNotFound
	}
	cc := *c
	return &cc, nil
}

// History implements bot.Store.
func (s *Store) History(ctx context.Context, tenant string, q store.HistoryQuery) ([]store.CheckSummary, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []store.CheckSummary
	for i := len(s.order) - 1; i >= 0; i-- {
		c := s.checks[s.order[i]]
		if c.Tenant != tenant || (q.HidePrivate && c.Private && c.User != q.Viewer) || (q.User != "" && c.User != q.User) {
			continue
		}
		if q.Verdict != "" && (c.Report == nil || !slices.ContainsFunc(c.Report.Claims, func(v *factcheck.Verdict) bool { return v.Verdict == q.Verdict })) {
			continue
		}
		sum := store.CheckSummary{ID: c.ID, Channel: c.Channel, User: c.User, Text: c.Text, CreatedAt: c.CreatedAt}
		if c.Report != nil {
			for _, v := range c.Report.Claims {
				sum.Verdicts = append(sum.Verdicts, v.Verdict)
				sum.Claims = append(sum.Claims, v.Claim)
			}
		}
		out = append(out, sum)
		if q.Limit > 0 && len(out) >= q.Limit {
			break
		}
	}
	return out, nil
}

// AddFeedback implements bot.Store.
func (s *Store) AddFeedback(ctx context.Context, tenant, checkID string, f store.Feedback) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.checks[tenant+"\x00"+checkID]
	if !ok {
		return store.ErrNotFound
	}
	c.Feedback = append(c.Feedback, f)
	return nil
}

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
	c.calls = append(c.calls, factcheck.Input{Tenant: in.Tenant, Text: in.Text, Fresh: in.Fresh})
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
			}},
		}
		if in.Progress != nil {
			in.Progress(factcheck.Event{Kind: factcheck.EventVerdict, Claim: i, Verdict: v})
		}
		rep.Claims = append(rep.Claims, v)
	}
	return rep
}

// Post is one message a Platform sent.
type Post struct {
	Op    string // "post", "update", "notify"
	Reply string
	Req   *store.Request
	Msg   *bot.Message
	Text  string // notify
}

// Platform records what the core asks it to send.
type Platform struct {
	PlatformName string // default "test"
	// PostErr, if set, is returned by Post.
	PostErr error

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
	p.record(Post{Op: "update", Reply: reply, Req: cloneReq(r), Msg: m})
	return nil
}

// Notify implements bot.Platform.
func (p *Platform) Notify(ctx context.Context, r *store.Request, text string) error {
	p.record(Post{Op: "notify", Req: cloneReq(r), Text: text})
	return nil
}

// Posts returns everything sent so far.
func (p *Platform) Posts() []Post {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Post(nil), p.posts...)
}
