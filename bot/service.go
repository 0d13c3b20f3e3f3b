package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// Status says what Submit did with a request.
type Status int

const (
	// Accepted: stored and queued; the answer will be posted.
	Accepted Status = iota
	// Duplicate: a redelivery of a request already accepted; nothing done.
	Duplicate
	// Refused: stored as failed; Notice says why and is shown to the asker
	// with Platform.Notify.
	Refused
)

func (s Status) String() string {
	switch s {
	case Accepted:
		return "accepted"
	case Duplicate:
		return "duplicate"
	case Refused:
		return "refused"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is Submit's answer.
type Result struct {
	Status Status
	// Notice is the refusal shown to the asker (Refused only).
	Notice string
}

// ErrClosed is returned by Submit after Close.
var ErrClosed = errors.New("bot: service closed")

// Service is the chat core. Create it with New, Register the platforms,
// Start it, and have adapters Submit requests; Close it on shutdown.
type Service struct {
	store   Store
	checker Checker
	opts    Options
	log     *slog.Logger
	metrics *Metrics
	limits  *limits

	// unsaved are the checks answered but not yet saved (unsaved.go).
	unsaved unsaved

	mu        sync.Mutex
	platforms map[string]Platform
	queue     []*store.Request
	queued    map[string]bool // keys queued or running
	// submitting are the keys Submit is deciding on (until queued, or
	// until a refusal is recorded): Resume leaves them alone.
	submitting map[string]bool
	// notes are the refusals' notes being sent, by noteKey (notes.go).
	notes map[string]*noteGroup
	wake  chan struct{}
	// avgCheck is the checks' moving average wall time (admission.go).
	avgCheck time.Duration
	started  bool
	closed   bool

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New returns a Service over st and ck.
func New(st Store, ck Checker, opts Options) *Service {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{
		store: st, checker: ck, opts: opts, log: opts.Logger, metrics: opts.Metrics,
		limits:     newLimits(st, opts),
		platforms:  map[string]Platform{},
		queued:     map[string]bool{},
		submitting: map[string]bool{},
		notes:      map[string]*noteGroup{},
		wake:       make(chan struct{}, 1),
		ctx:        ctx, cancel: cancel,
	}
}

// Metrics returns the service's metrics.
func (s *Service) Metrics() *Metrics { return s.metrics }

// ObserveAck records one acknowledgement's latency for platform: from the
// adapter holding the decoded event to the acknowledgement handed to the
// platform (factbot_ack_seconds). It implements AckObserver.
func (s *Service) ObserveAck(platform string, d time.Duration) {
	s.metrics.Ack.WithLabelValues(platform).Observe(d.Seconds())
}

// MaxInput returns the input size limit in bytes.
func (s *Service) MaxInput() int { return s.opts.MaxInput }

// Register adds a platform; requests name it by Platform.Name(). Register
// before Start so that its pending requests are resumed.
func (s *Service) Register(p Platform) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.platforms[p.Name()] = p
}

// Close stops accepting requests, cancels running checks (they stay
// pending in the store and are resumed on the next Start, or by another
// replica), waits for the workers and gives back the leases of the
// requests still queued.
func (s *Service) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	// The requests still queued are given back at once, for another
	// replica (or the next start) to take without waiting out their lease.
	s.mu.Lock()
	queued := s.queue
	s.queue = nil
	s.mu.Unlock()
	for _, r := range queued {
		s.release(r)
	}
	return nil
}

// Submit validates r, stores it durably and queues it. Call it before
// acknowledging the platform: an error means nothing was stored and the
// platform should redeliver; its message is safe to show the asker.
// Adapters set Key, Tenant, Platform, Kind, Channel, Thread, User, Text (and
// Private, Fresh, Meta as needed).
func (s *Service) Submit(ctx context.Context, r *store.Request) (Result, error) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return Result{}, words.Said(words.NotStored, nil, ErrClosed)
	}
	if r.Key == "" || r.Tenant == "" || r.Platform == "" {
		return Result{}, errors.New("bot: request needs Key, Tenant and Platform")
	}
	now := s.opts.Now()
	r.State = store.RequestPending
	r.CreatedAt, r.UpdatedAt = now, now
	r.Text = strings.TrimSpace(r.Text)
	if r.Kind == KindRecheck {
		r.Fresh = true
	}
	notice, reason := s.validate(r), reasonInput
	// Until it is queued or its refusal recorded, the request is this
	// service's: Resume skips it here, and its lease keeps other replicas
	// from picking it up.
	s.setSubmitting(r.Key, true)
	isNew, err := s.store.AcceptRequest(ctx, r)
	if err != nil {
		s.setSubmitting(r.Key, false)
		s.metrics.Errors.WithLabelValues("store").Inc()
		return Result{}, words.Said(words.NotStored, nil, fmt.Errorf("bot: accept request %s: %w", r.Key, err))
	}
	if !isNew {
		s.setSubmitting(r.Key, false)
		s.metrics.Requests.WithLabelValues(r.Platform, r.Kind, "duplicate").Inc()
		return Result{Status: Duplicate}, nil
	}
	if _, err := s.store.ClaimRequest(ctx, r.Tenant, r.Key, s.opts.Owner, s.opts.Lease); err != nil {
		// Stored: a worker, or a replica's pick-up, claims it later.
		s.log.Warn("claim accepted request", "key", r.Key, "err", err)
	}
	if notice == "" {
		notice, reason = s.admit(ctx, r, now)
	}
	if notice != "" {
		s.metrics.Requests.WithLabelValues(r.Platform, r.Kind, "refused").Inc()
		s.refuse(r, notice, reason)
		return Result{Status: Refused, Notice: notice}, nil
	}
	s.metrics.Requests.WithLabelValues(r.Platform, r.Kind, "accepted").Inc()
	s.enqueue(r)
	s.setSubmitting(r.Key, false)
	return Result{Status: Accepted}, nil
}

// setSubmitting marks key as being decided on by Submit, or no longer.
func (s *Service) setSubmitting(key string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if on {
		s.submitting[key] = true
	} else {
		delete(s.submitting, key)
	}
}

// validate refuses empty and too long input in the engine's own words
// (factcheck.ValidateInput), before the request is queued.
func (s *Service) validate(r *store.Request) string {
	if r.Kind == KindRecheck && r.Text == "" && r.Meta[MetaCheckID] != "" {
		return ""
	}
	if r.Text == "" && r.Meta[MetaMessage] != "" {
		return "" // the message asked about is read when the request runs
	}
	if err := factcheck.ValidateInput(r.Text, s.opts.MaxInput); err != nil {
		return RequestLang(r, "", r.Text).UserMessage(err)
	}
	return ""
}

func (s *Service) platform(name string) Platform {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.platforms[name]
}
