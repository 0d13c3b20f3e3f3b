package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
)

// Options configure a Service. Zero fields take defaults.
type Options struct {
	// Workers bounds the checks run at once (default 8).
	Workers int
	// UserLimit bounds checks per user (default DefaultUserLimit; set
	// NoUserLimit to disable).
	UserLimit Limit
	// NoUserLimit disables the per-user limit.
	NoUserLimit bool
	// MaxInput bounds a request's text in bytes (default 8000).
	MaxInput int
	// CheckTimeout bounds one check's wall time (default 5m).
	CheckTimeout time.Duration
	// MaxAttempts bounds how often a request is started, counting resumes
	// after restarts (default 3); then it is answered with an error.
	MaxAttempts int
	// Metrics, if nil, are created unregistered.
	Metrics *Metrics
	Logger  *slog.Logger
	// Now returns the time (tests). Default time.Now.
	Now func() time.Time
}

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
	limiter *userLimiter

	// saveMu lets one check at a time wait to be saved: the store has a
	// single writer, and acknowledgements (whose writes are group-committed)
	// should queue behind at most one check's save, not one per worker.
	saveMu sync.Mutex

	mu        sync.Mutex
	platforms map[string]Platform
	queue     []*Request
	queued    map[string]bool // keys queued or running
	wake      chan struct{}
	started   bool
	closed    bool

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New returns a Service over st and ck.
func New(st Store, ck Checker, opts Options) *Service {
	if opts.Workers <= 0 {
		opts.Workers = 8
	}
	if opts.UserLimit == (Limit{}) && !opts.NoUserLimit {
		opts.UserLimit = DefaultUserLimit
	}
	if opts.NoUserLimit {
		opts.UserLimit = Limit{}
	}
	if opts.MaxInput <= 0 {
		opts.MaxInput = 8000
	}
	if opts.CheckTimeout <= 0 {
		opts.CheckTimeout = 5 * time.Minute
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 3
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Metrics == nil {
		opts.Metrics = NewMetrics(nil)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{
		store: st, checker: ck, opts: opts, log: opts.Logger, metrics: opts.Metrics,
		limiter:   newUserLimiter(opts.UserLimit),
		platforms: map[string]Platform{},
		queued:    map[string]bool{},
		wake:      make(chan struct{}, 1),
		ctx:       ctx, cancel: cancel,
	}
}

// Metrics returns the service's metrics.
func (s *Service) Metrics() *Metrics { return s.metrics }

// ObserveAck records one acknowledgement's latency for platform: from the
// adapter holding the decoded event to the acknowledgement handed to the
// platform (factbot_ack_seconds). Adapters find it on their core with a type
// assertion, so wrappers of the Service can record it too.
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

// Start starts the workers and queues every pending request of the
// registered platforms (resume after a restart).
func (s *Service) Start(ctx context.Context) error {
	s.mu.Lock()
	if s.started || s.closed {
		s.mu.Unlock()
		return errors.New("bot: Start called twice or after Close")
	}
	s.started = true
	s.mu.Unlock()
	for range s.opts.Workers {
		s.wg.Add(1)
		go s.worker()
	}
	return s.Resume(ctx)
}

// Resume queues the pending requests of registered platforms, tenant by
// tenant. Start calls it; it is safe to call again (queued keys are skipped).
func (s *Service) Resume(ctx context.Context) error {
	tenants, err := s.store.Tenants(ctx)
	if err != nil {
		return fmt.Errorf("bot: resume: %w", err)
	}
	n := 0
	for _, t := range tenants {
		reqs, err := s.store.PendingRequests(ctx, t)
		if err != nil {
			return fmt.Errorf("bot: resume tenant %s: %w", t, err)
		}
		for _, r := range reqs {
			s.mu.Lock()
			_, ok := s.platforms[r.Platform]
			s.mu.Unlock()
			if !ok {
				continue
			}
			if s.enqueue(r) {
				n++
			}
		}
	}
	if n > 0 {
		s.log.Info("resuming unfinished requests", "count", n)
	}
	return nil
}

// Close stops accepting requests, cancels running checks (they stay
// pending in the store and are resumed on the next Start) and waits for the
// workers.
func (s *Service) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	return nil
}

// Submit validates r, stores it durably and queues it. Call it before
// acknowledging the platform: an error means nothing was stored and the
// platform should redeliver. Adapters set Key, Tenant, Platform, Kind,
// Channel, Thread, User, Text (and Private, Fresh, Meta as needed).
func (s *Service) Submit(ctx context.Context, r *Request) (Result, error) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return Result{}, ErrClosed
	}
	if r.Key == "" || r.Tenant == "" || r.Platform == "" {
		return Result{}, errors.New("bot: request needs Key, Tenant and Platform")
	}
	now := s.opts.Now()
	r.State = StatePending
	r.CreatedAt, r.UpdatedAt = now, now
	r.Text = strings.TrimSpace(r.Text)
	if r.Kind == KindRecheck {
		r.Fresh = true
	}
	notice := s.validate(r)
	isNew, err := s.store.AcceptRequest(ctx, r)
	if err != nil {
		s.metrics.Errors.WithLabelValues("store").Inc()
		return Result{}, fmt.Errorf("bot: accept request %s: %w", r.Key, err)
	}
	if !isNew {
		s.metrics.Requests.WithLabelValues(r.Platform, r.Kind, "duplicate").Inc()
		return Result{Status: Duplicate}, nil
	}
	if notice == "" {
		if ok, next := s.limiter.allow(r.Tenant+"\x00"+r.User, now); !ok {
			notice = fmt.Sprintf("You have reached the limit of %d checks per %s. Try again after %s UTC.",
				s.opts.UserLimit.N, fmtDuration(s.opts.UserLimit.Window), next.UTC().Format("15:04"))
		}
	}
	if notice != "" {
		s.metrics.Requests.WithLabelValues(r.Platform, r.Kind, "refused").Inc()
		s.refuse(r, notice)
		return Result{Status: Refused, Notice: notice}, nil
	}
	s.metrics.Requests.WithLabelValues(r.Platform, r.Kind, "accepted").Inc()
	s.enqueue(r)
	return Result{Status: Accepted}, nil
}

func (s *Service) validate(r *Request) string {
	if r.Kind == KindRecheck && r.Text == "" && r.Meta[MetaCheckID] != "" {
		return ""
	}
	if r.Text == "" {
		return "Give me something to check, e.g. \"The Eiffel Tower is 330 m tall.\""
	}
	if len(r.Text) > s.opts.MaxInput {
		return fmt.Sprintf("That text is too long to check (%d characters; the limit is %d). Send a shorter passage.",
			utf8.RuneCountInString(r.Text), s.opts.MaxInput)
	}
	return ""
}

func fmtDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%d hours", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return d.String()
}

// refuse records r as failed and shows the notice to the asker, in the
// background.
func (s *Service) refuse(r *Request, notice string) {
	p := s.platform(r.Platform)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(s.ctx, time.Minute)
		defer cancel()
		if err := s.store.FinishRequest(ctx, r.Tenant, r.Key, StateFailed, ""); err != nil {
			s.log.Error("finish refused request", "key", r.Key, "err", err)
		}
		if p == nil {
			return
		}
		if err := p.Notify(ctx, r, notice); err != nil {
			s.metrics.Errors.WithLabelValues("post").Inc()
			s.log.Warn("notify refusal", "key", r.Key, "err", err)
		}
	}()
}

func (s *Service) platform(name string) Platform {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.platforms[name]
}

func (s *Service) enqueue(r *Request) bool {
	s.mu.Lock()
	if s.queued[r.Key] {
		s.mu.Unlock()
		return false
	}
	s.queued[r.Key] = true
	s.queue = append(s.queue, r)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return true
}

func (s *Service) next() *Request {
	for {
		s.mu.Lock()
		if len(s.queue) > 0 {
			r := s.queue[0]
			s.queue[0] = nil
			s.queue = s.queue[1:]
			more := len(s.queue) > 0
			s.mu.Unlock()
			if more { // pass the wake-up on to another worker
				select {
				case s.wake <- struct{}{}:
				default:
				}
			}
			return r
		}
		s.mu.Unlock()
		select {
		case <-s.wake:
		case <-s.ctx.Done():
			return nil
		}
	}
}

func (s *Service) worker() {
	defer s.wg.Done()
	for {
		r := s.next()
		if r == nil {
			return
		}
		s.process(r)
		s.mu.Lock()
		delete(s.queued, r.Key)
		s.mu.Unlock()
	}
}

// process runs one request to its final answer. If the service closes
// meanwhile the request stays pending.
func (s *Service) process(r *Request) {
	ctx := s.ctx
	p := s.platform(r.Platform)
	if p == nil {
		return
	}
	s.metrics.InFlight.Inc()
	defer s.metrics.InFlight.Dec()
	log := s.log.With("key", r.Key, "tenant", r.Tenant, "platform", r.Platform)

	if err := s.store.UpdateRequest(ctx, r.Tenant, r.Key, func(q *Request) error {
		q.Attempts++
		r.Attempts = q.Attempts
		if q.Reply != "" {
			r.Reply = q.Reply
		}
		if q.CheckID != "" {
			r.CheckID = q.CheckID
		}
		return nil
	}); err != nil {
		if ctx.Err() != nil {
			return
		}
		s.metrics.Errors.WithLabelValues("store").Inc()
		log.Error("update request", "err", err)
	}

	reply := r.Reply
	if reply == "" {
		var err error
		reply, err = p.Post(ctx, r, RenderPlaceholder())
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			s.metrics.Errors.WithLabelValues("post").Inc()
			log.Warn("post placeholder", "err", err)
		} else {
			r.Reply = reply
			s.saveReply(ctx, r, reply, log)
		}
	}

	if r.Attempts > s.opts.MaxAttempts {
		log.Error("giving up after repeated attempts", "attempts", r.Attempts)
		s.answer(ctx, p, r, &reply, RenderError("Sorry, this check failed repeatedly and was given up. Please try again."), log)
		s.finish(ctx, r, StateFailed, "", log)
		return
	}

	// A check saved before a restart is answered from the store.
	if r.CheckID != "" {
		if c, err := s.store.Check(ctx, r.Tenant, r.CheckID); err == nil && c.Report != nil {
			s.answer(ctx, p, r, &reply, RenderReport(c.Report, c.ID), log)
			s.finish(ctx, r, StateDone, c.ID, log)
			return
		}
	}

	text := r.Text
	if text == "" && r.Kind == KindRecheck {
		c, err := s.store.Check(ctx, r.Tenant, r.Meta[MetaCheckID])
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Warn("recheck: load check", "check", r.Meta[MetaCheckID], "err", err)
			s.answer(ctx, p, r, &reply, RenderError("I could not find that earlier check to repeat it."), log)
			s.finish(ctx, r, StateFailed, "", log)
			return
		}
		text = c.Text
	}

	prog := s.startProgress(ctx, p, r, reply)
	cctx, cancel := context.WithTimeout(ctx, s.opts.CheckTimeout)
	rep, err := s.checker.Check(cctx, factcheck.Input{Tenant: r.Tenant, Text: text, Fresh: r.Fresh, Progress: prog.event})
	cancel()
	prog.stop()
	if ctx.Err() != nil {
		return // shutting down: stays pending, resumed on restart
	}
	if err == nil && rep == nil {
		err = errors.New("checker returned no report")
	}
	if err != nil {
		s.metrics.Errors.WithLabelValues("check").Inc()
		s.metrics.Checks.WithLabelValues(r.Platform, "failed").Inc()
		log.Error("check failed", "err", err)
		s.answer(ctx, p, r, &reply, RenderError(userMessage(err)), log)
		s.finish(ctx, r, StateFailed, "", log)
		return
	}
	s.metrics.observeReport(rep)

	c := &Check{
		Tenant: r.Tenant, Platform: r.Platform, Channel: r.Channel, Thread: r.Thread, Link: r.Link,
		User: r.User, RequestKey: r.Key, Text: text, Report: rep, CreatedAt: s.opts.Now(), Private: r.Private,
	}
	// SaveCheck also records the check's id on the request.
	s.saveMu.Lock()
	err = s.store.SaveCheck(ctx, c)
	s.saveMu.Unlock()
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		s.metrics.Errors.WithLabelValues("store").Inc()
		log.Error("save check", "err", err)
	}
	if !s.answer(ctx, p, r, &reply, RenderReport(rep, c.ID), log) && ctx.Err() != nil {
		return
	}
	s.metrics.Checks.WithLabelValues(r.Platform, "done").Inc()
	s.metrics.Latency.WithLabelValues(r.Platform).Observe(s.opts.Now().Sub(r.CreatedAt).Seconds())
	s.finish(ctx, r, StateDone, c.ID, log)
}

func (s *Service) saveReply(ctx context.Context, r *Request, reply string, log *slog.Logger) {
	if err := s.store.UpdateRequest(ctx, r.Tenant, r.Key, func(q *Request) error {
		q.Reply = reply
		return nil
	}); err != nil && ctx.Err() == nil {
		s.metrics.Errors.WithLabelValues("store").Inc()
		log.Warn("record reply", "err", err)
	}
}

// answer updates the reply with m, or posts m when there is no reply or the
// update fails. It reports whether m reached the platform.
func (s *Service) answer(ctx context.Context, p Platform, r *Request, reply *string, m *Message, log *slog.Logger) bool {
	if *reply != "" {
		err := p.Update(ctx, r, *reply, m)
		if err == nil {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		s.metrics.Errors.WithLabelValues("update").Inc()
		log.Warn("update reply; posting a new one", "err", err)
	}
	nr, err := p.Post(ctx, r, m)
	if err != nil {
		if ctx.Err() == nil {
			s.metrics.Errors.WithLabelValues("post").Inc()
			log.Error("post answer", "err", err)
		}
		return false
	}
	*reply = nr
	r.Reply = nr
	s.saveReply(ctx, r, nr, log)
	return true
}

func (s *Service) finish(ctx context.Context, r *Request, state, checkID string, log *slog.Logger) {
	// The answer was delivered: record it even if the service is closing,
	// or the request would be answered again after a restart.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.store.FinishRequest(ctx, r.Tenant, r.Key, state, checkID); err != nil && ctx.Err() == nil {
		s.metrics.Errors.WithLabelValues("store").Inc()
		log.Error("finish request", "err", err)
	}
}

// userMessage is the short, honest error shown for a failed check.
func userMessage(err error) string {
	if msg, ok := usererr.Message(err); ok {
		return msg
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "Sorry, the check took too long and was stopped. Try a shorter text, or try again later."
	}
	if errors.Is(err, factcheck.ErrRateLimited) {
		return "Sorry, the model or search service is rate limiting factbot right now. Try again in a few minutes."
	}
	return "Sorry, the check failed because of an internal error. It has been logged; please try again later."
}

// History returns the tenant's latest n checks, newest first. Private
// checks are left out unless q.Viewer asked them.
func (s *Service) History(ctx context.Context, tenant string, q HistoryQuery) ([]CheckSummary, error) {
	q.HidePrivate = true
	if q.Limit <= 0 {
		q.Limit = 10
	}
	q.Limit = min(q.Limit, 50)
	return s.store.History(ctx, tenant, q)
}

// Feedback records a user's "Wrong verdict?" on a check.
func (s *Service) Feedback(ctx context.Context, tenant, checkID string, f Feedback) error {
	if f.At.IsZero() {
		f.At = s.opts.Now()
	}
	if f.Note == "" {
		f.Note = "wrong verdict"
	}
	if err := s.store.AddFeedback(ctx, tenant, checkID, f); err != nil {
		return fmt.Errorf("bot: feedback on %s: %w", checkID, err)
	}
	return nil
}

// progress coalesces progress updates: one in flight at a time, and only
// the latest state is sent after it.
type progress struct {
	mu       sync.Mutex
	claims   []factcheck.ExtractedClaim
	verdicts map[int]*factcheck.Verdict
	dirty    chan struct{}
	quit     chan struct{}
	done     chan struct{}
}

func (s *Service) startProgress(ctx context.Context, p Platform, r *Request, reply string) *progress {
	pr := &progress{verdicts: map[int]*factcheck.Verdict{}, dirty: make(chan struct{}, 1),
		quit: make(chan struct{}), done: make(chan struct{})}
	if reply == "" {
		close(pr.done)
		return pr
	}
	go func() {
		defer close(pr.done)
		for {
			select {
			case <-pr.quit:
				return
			case <-ctx.Done():
				return
			case <-pr.dirty:
			}
			pr.mu.Lock()
			m := RenderProgress(pr.claims, pr.verdicts)
			pr.mu.Unlock()
			if err := p.Update(ctx, r, reply, m); err != nil && ctx.Err() == nil {
				s.log.Debug("progress update", "key", r.Key, "err", err)
			}
		}
	}()
	return pr
}

func (pr *progress) event(e factcheck.Event) {
	pr.mu.Lock()
	switch e.Kind {
	case factcheck.EventClaims:
		pr.claims = append([]factcheck.ExtractedClaim(nil), e.Claims...)
	case factcheck.EventVerdict:
		if e.Verdict != nil && e.Claim >= 0 {
			v := *e.Verdict // a snapshot: rendered later, on another goroutine
			v.Evidence = append([]factcheck.Evidence(nil), v.Evidence...)
			pr.verdicts[e.Claim] = &v
		}
	default:
		pr.mu.Unlock()
		return
	}
	pr.mu.Unlock()
	select {
	case pr.dirty <- struct{}{}:
	default:
	}
}

func (pr *progress) stop() {
	select {
	case <-pr.done:
		return
	default:
	}
	close(pr.quit)
	<-pr.done
}
