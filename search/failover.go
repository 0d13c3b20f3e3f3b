package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// DefaultMaxResults is the number of results asked for when max <= 0.
const DefaultMaxResults = 5

// Failover defaults.
const (
	DefaultProviderTimeout = 20 * time.Second
	DefaultCooldown        = 2 * time.Minute
	DefaultQuotaCooldown   = time.Hour
)

// FailoverOptions configures a Failover.
type FailoverOptions struct {
	// Timeout bounds one provider's answer; 0 means
	// DefaultProviderTimeout.
	Timeout time.Duration
	// Cooldown is how long a provider that failed or timed out is
	// skipped; 0 means DefaultCooldown. A longer Retry-After wins.
	Cooldown time.Duration
	// QuotaCooldown is how long a provider whose quota is spent, or whose
	// key or configuration is rejected, is skipped; 0 means
	// DefaultQuotaCooldown.
	QuotaCooldown time.Duration
	// MinResults, if > 0, makes Failover also ask the next providers
	// while fewer distinct results than this have been found, and merge.
	MinResults int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Failover asks providers in order and answers with the first that
// succeeds. A provider that fails is skipped for a cool-down; the
// response's Notes say who was skipped and why. It implements the
// engine's Searcher and is safe for concurrent use.
type Failover struct {
	providers []Provider
	opts      FailoverOptions

	mu   sync.Mutex
	down map[string]downState
}

type downState struct {
	until time.Time
	why   string
}

// NewFailover returns a Failover over providers, asked in the order given.
func NewFailover(providers []Provider, opts FailoverOptions) *Failover {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultProviderTimeout
	}
	if opts.Cooldown <= 0 {
		opts.Cooldown = DefaultCooldown
	}
	if opts.QuotaCooldown <= 0 {
		opts.QuotaCooldown = DefaultQuotaCooldown
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Failover{providers: providers, opts: opts, down: map[string]downState{}}
}

// Providers returns the providers' names in the order they are asked.
func (f *Failover) Providers() []string {
	names := make([]string, len(f.providers))
	for i, p := range f.providers {
		names[i] = p.Name()
	}
	return names
}

// Search asks the providers in order until one answers. Results the
// query's Restriction does not allow are dropped (MinResults counts those
// kept), and the notes say how many.
func (f *Failover) Search(ctx context.Context, q Query) (*Response, error) {
	q.Text = strings.TrimSpace(q.Text)
	if q.Text == "" {
		return nil, fmt.Errorf("empty search query")
	}
	if len(f.providers) == 0 {
		return nil, fmt.Errorf("no search provider is configured")
	}
	if q.Max <= 0 {
		q.Max = DefaultMaxResults
	}
	query, max, rs := q.Text, q.Max, q.Restriction
	var (
		notes    []string
		results  []Result
		answered []string
		errs     []error
		asked    int
	)
	ask := func(p Provider) bool {
		asked++
		res, err := f.ask(ctx, p, q)
		if err != nil {
			if ctx.Err() != nil {
				return false
			}
			until := f.markDown(p.Name(), err)
			notes = append(notes, fmt.Sprintf("%s failed (%v); not asked again until %s", p.Name(), err, until.Format("15:04:05")))
			errs = append(errs, err)
			return false
		}
		f.markUp(p.Name())
		res, late, excluded := rs.Filter(res)
		notes = append(notes, restrictionNotes(p.Name(), late, excluded)...)
		results = Dedupe(append(results, tagProvider(res, p.Name())...))
		answered = append(answered, p.Name())
		return true
	}
	for i, p := range f.providers {
		if st, ok := f.isDown(p.Name()); ok {
			notes = append(notes, fmt.Sprintf("skipped %s: cooling down until %s after: %s", p.Name(), st.until.Format("15:04:05"), st.why))
			continue
		}
		if !ask(p) {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		if len(results) >= f.opts.MinResults || i == len(f.providers)-1 {
			break
		}
		notes = append(notes, fmt.Sprintf("%s found %d distinct results; asking the next provider too", p.Name(), len(results)))
	}
	if asked == 0 {
		// Every provider is cooling down: rather than give no answer, try
		// the one whose cool-down ends first.
		p := f.soonestUp()
		notes = append(notes, fmt.Sprintf("every provider is cooling down; trying %s anyway", p.Name()))
		if !ask(p) && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	if len(answered) == 0 {
		return nil, &noAnswerError{errs: errs, notes: notes}
	}
	if len(results) > max {
		results = results[:max]
	}
	return &Response{Query: query, Results: results, Provider: strings.Join(answered, "+"), Notes: notes}, nil
}

func (f *Failover) ask(ctx context.Context, p Provider, q Query) ([]Result, error) {
	pctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()
	res, err := p.Search(pctx, q)
	if err != nil && ctx.Err() == nil && errors.Is(pctx.Err(), context.DeadlineExceeded) {
		return nil, &ProviderError{Provider: p.Name(), Kind: ErrUnavailable, Msg: fmt.Sprintf("no answer within %s", f.opts.Timeout)}
	}
	return res, err
}

func (f *Failover) cooldownFor(err error) time.Duration {
	d := f.opts.Cooldown
	if errors.Is(err, ErrQuota) || errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrMisconfigured) {
		d = f.opts.QuotaCooldown
	}
	var pe *ProviderError
	if errors.As(err, &pe) && pe.RetryAfter > d {
		d = min(pe.RetryAfter, 24*time.Hour)
	}
	return d
}

func (f *Failover) markDown(name string, err error) time.Time {
	until := f.opts.Now().Add(f.cooldownFor(err))
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down[name] = downState{until: until, why: err.Error()}
	return until
}

func (f *Failover) markUp(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.down, name)
}

func (f *Failover) isDown(name string) (downState, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st, ok := f.down[name]
	if !ok || !f.opts.Now().Before(st.until) {
		return downState{}, false
	}
	return st, true
}

func (f *Failover) soonestUp() Provider {
	f.mu.Lock()
	defer f.mu.Unlock()
	best := f.providers[0]
	for _, p := range f.providers[1:] {
		if f.down[p.Name()].until.Before(f.down[best.Name()].until) {
			best = p
		}
	}
	return best
}

// noAnswerError is returned when no provider answered. errors.Is finds
// the providers' own errors (ErrQuota, ErrRateLimited, …) through it.
type noAnswerError struct {
	errs  []error
	notes []string
}

func (e *noAnswerError) Error() string {
	if len(e.errs) == 0 {
		return "no search provider answered: " + strings.Join(e.notes, "; ")
	}
	msgs := make([]string, len(e.errs))
	for i, err := range e.errs {
		msgs[i] = err.Error()
	}
	return "no search provider answered: " + strings.Join(msgs, "; ")
}

func (e *noAnswerError) Unwrap() []error { return e.errs }

// restrictionNotes says what a Restriction dropped from a provider's
// answer.
func restrictionNotes(provider string, late, excluded int) []string {
	var notes []string
	if late > 0 {
		notes = append(notes, fmt.Sprintf("%s: dropped %d result(s) published after the as-of date", provider, late))
	}
	if excluded > 0 {
		notes = append(notes, fmt.Sprintf("%s: dropped %d result(s) from excluded sites", provider, excluded))
	}
	return notes
}

func tagProvider(res []Result, name string) []Result {
	for i := range res {
		if res[i].Provider == "" {
			res[i].Provider = name
		}
	}
	return res
}
