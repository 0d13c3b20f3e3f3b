package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
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
	// TenantLimit bounds the checks of one tenant, all its users together
	// (default DefaultTenantLimit; set NoTenantLimit to disable).
	TenantLimit   Limit
	NoTenantLimit bool
	// FeedbackLimit bounds one person's feedback (default
	// DefaultFeedbackLimit; set NoFeedbackLimit to disable).
	FeedbackLimit   Limit
	NoFeedbackLimit bool
	// MaxQueue bounds the requests waiting for a worker: more are refused
	// (default DefaultMaxQueue; negative means no bound).
	MaxQueue int
	// CallTimeout bounds one call of a platform (a post, an update, a
	// notice, with the platform's own retries): a platform that hangs
	// never holds a worker (default 2m).
	CallTimeout time.Duration
	// ProgressTimeout bounds one progress update (default 15s): progress
	// is dropped rather than waited for.
	ProgressTimeout time.Duration
	// MaxInput bounds a request's text in bytes (default
	// factcheck.DefaultMaxInput, the engine's own bound).
	MaxInput int
	// CheckTimeout bounds one check's wall time (default 5m).
	CheckTimeout time.Duration
	// MaxAttempts bounds how often a request is started, counting resumes
	// after restarts (default 3); then it is answered with an error.
	MaxAttempts int
	// SaveBackoff are the waits between a job's attempts to save a check
	// while the store fails (default 1s, 2s, 4s, 8s); then the request
	// stays pending and is tried again every Lease/2.
	SaveBackoff []time.Duration
	// Owner names this service to the store's leases (see
	// store.ErrLeaseLost): replicas sharing a database need distinct
	// owners (default: a random id).
	Owner string
	// Lease is how long a request is held by this service without a
	// renewal (default DefaultLease). A running request's lease is renewed
	// every Lease/3; every Lease/2 the service claims pending requests
	// whose lease is free or expired (those of a replica that died).
	Lease time.Duration
	// Links, if set, makes the signed links to the web view that answers
	// carry: "Full report" under every report, "Open history" under
	// history. Leave it nil (not a typed nil) when the web view is off.
	Links Links
	// Metrics, if nil, are created unregistered.
	Metrics *Metrics
	Logger  *slog.Logger
	// Now returns the time (tests). Default time.Now.
	Now func() time.Time
}

// DefaultLease is Options.Lease's default.
const DefaultLease = time.Minute

// newOwner returns a random owner id.
func newOwner() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Links makes the signed links to the web view (web.Links implements it).
// An empty URL means no link.
type Links interface {
	// CheckURL is the link to the page of checkID for viewer.
	CheckURL(tenant, viewer, checkID string) string
	// HistoryURL is the link to the history viewer may see, asking in
	// channel.
	HistoryURL(tenant, viewer, channel string) string
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
	limits  *limits

	// saveMu lets one check at a time wait to be saved: the store has a
	// single writer, and acknowledgements (whose writes are group-committed)
	// should queue behind at most one check's save, not one per worker.
	saveMu sync.Mutex
	// unsaved are the checks answered but not yet saved (unsaved.go).
	unsaved unsaved

	mu        sync.Mutex
	platforms map[string]Platform
	queue     []*store.Request
	queued    map[string]bool // keys queued or running
	// submitting are the keys Submit is deciding on (until queued, or
	// until a refusal is recorded): Resume leaves them alone.
	submitting map[string]bool
	wake       chan struct{}
	started    bool
	closed     bool

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
	if opts.TenantLimit == (Limit{}) && !opts.NoTenantLimit {
		opts.TenantLimit = DefaultTenantLimit
	}
	if opts.NoTenantLimit {
		opts.TenantLimit = Limit{}
	}
	if opts.FeedbackLimit == (Limit{}) && !opts.NoFeedbackLimit {
		opts.FeedbackLimit = DefaultFeedbackLimit
	}
	if opts.NoFeedbackLimit {
		opts.FeedbackLimit = Limit{}
	}
	if opts.MaxQueue == 0 {
		opts.MaxQueue = DefaultMaxQueue
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 2 * time.Minute
	}
	if opts.ProgressTimeout <= 0 {
		opts.ProgressTimeout = 15 * time.Second
	}
	if opts.MaxInput <= 0 {
		opts.MaxInput = factcheck.DefaultMaxInput
	}
	if opts.CheckTimeout <= 0 {
		opts.CheckTimeout = 5 * time.Minute
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 3
	}
	if opts.SaveBackoff == nil {
		opts.SaveBackoff = defaultSaveBackoff
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Owner == "" {
		opts.Owner = newOwner()
	}
	if opts.Lease <= 0 {
		opts.Lease = DefaultLease
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
		limits:     newLimits(st, opts),
		platforms:  map[string]Platform{},
		queued:     map[string]bool{},
		submitting: map[string]bool{},
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

// Start starts the workers and queues every pending request of the
// registered platforms (resume after a restart). Then, every Lease/2, it
// queues the pending requests whose lease is free or has run out: those
// of a replica sharing the database that died.
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
	if err := s.Resume(ctx); err != nil {
		return err
	}
	s.wg.Add(1)
	go s.pickUp()
	return nil
}

// pickUp resumes, every Lease/2, the requests no one holds, until Close.
func (s *Service) pickUp() {
	defer s.wg.Done()
	t := time.NewTicker(s.opts.Lease / 2)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		if err := s.Resume(s.ctx); err != nil && s.ctx.Err() == nil {
			s.log.Warn("pick up unfinished requests", "err", err)
		}
	}
}

// Resume claims and queues the pending requests of registered platforms
// that no one else holds, tenant by tenant (a request of a platform not
// registered here is released again, for a replica that has it). Start
// calls it, and then calls it periodically; it is safe to call again
// (queued keys are skipped). A worker claims each request again before it
// runs it.
func (s *Service) Resume(ctx context.Context) error {
	tenants, err := s.store.Tenants(ctx)
	if err != nil {
		return fmt.Errorf("bot: resume: %w", err)
	}
	n := 0
	for _, t := range tenants {
		reqs, err := s.store.ClaimPending(ctx, t, s.opts.Owner, s.opts.Lease)
		if err != nil {
			return fmt.Errorf("bot: resume tenant %s: %w", t, err)
		}
		for _, r := range reqs {
			s.mu.Lock()
			_, ok := s.platforms[r.Platform]
			submitting := s.submitting[r.Key]
			s.mu.Unlock()
			if submitting {
				continue // Submit queues or refuses it
			}
			if !ok {
				s.release(r)
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
// platform should redeliver; its message is safe to show the asker.
// Adapters set Key, Tenant, Platform, Kind, Channel, Thread, User, Text (and
// Private, Fresh, Meta as needed).
func (s *Service) Submit(ctx context.Context, r *store.Request) (Result, error) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return Result{}, said(wNotStored, nil, ErrClosed)
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
	notice := s.validate(r)
	// Until it is queued or its refusal recorded, the request is this
	// service's: Resume skips it here, and its lease keeps other replicas
	// from picking it up.
	s.setSubmitting(r.Key, true)
	isNew, err := s.store.AcceptRequest(ctx, r)
	if err != nil {
		s.setSubmitting(r.Key, false)
		s.metrics.Errors.WithLabelValues("store").Inc()
		return Result{}, said(wNotStored, nil, fmt.Errorf("bot: accept request %s: %w", r.Key, err))
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
		notice = s.admit(ctx, r, now)
	}
	if notice != "" {
		s.metrics.Requests.WithLabelValues(r.Platform, r.Kind, "refused").Inc()
		s.refuse(r, notice)
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

// refuse records r as failed and shows the notice to the asker, in the
// background.
func (s *Service) refuse(r *store.Request, notice string) {
	p := s.platform(r.Platform)
	s.mu.Lock()
	if s.closed {
		delete(s.submitting, r.Key)
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		// Not s.ctx: Close cancels it, and the refusal must still be recorded
		// (Close waits for this goroutine, at most the minute).
		ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), time.Minute)
		defer cancel()
		if err := s.store.RefuseRequest(ctx, r.Tenant, r.Key); err != nil {
			s.log.Error("finish refused request", "key", r.Key, "err", err)
		}
		s.release(r)
		s.setSubmitting(r.Key, false)
		if p == nil {
			return
		}
		nctx, ncancel := context.WithTimeout(ctx, s.opts.CallTimeout)
		defer ncancel()
		if err := p.Notify(nctx, r, notice); err != nil {
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

func (s *Service) enqueue(r *store.Request) bool {
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

func (s *Service) next() *store.Request {
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
		s.run(r)
		s.mu.Lock()
		delete(s.queued, r.Key)
		s.mu.Unlock()
	}
}

// run claims the request's lease and, if this service got it, processes
// the request as stored while renewing the lease, and releases it after.
// A request another replica holds, or finished, is skipped.
func (s *Service) run(queued *store.Request) {
	r, err := s.store.ClaimRequest(s.ctx, queued.Tenant, queued.Key, s.opts.Owner, s.opts.Lease)
	if err != nil {
		if s.ctx.Err() == nil {
			s.metrics.Errors.WithLabelValues("store").Inc()
			s.log.Error("claim request; it stays pending", "key", queued.Key, "err", err)
		}
		return
	}
	if r == nil {
		return // another replica's, or finished
	}
	ctx, cancel := context.WithCancel(s.ctx)
	held := s.holdLease(ctx, cancel, r)
	s.process(ctx, r)
	cancel()
	<-held
	s.release(r)
}

// holdLease renews the lease of r every Lease/3 until ctx ends. When the
// lease is lost (taken over after it ran out, or not renewed for a whole
// Lease), it cancels the request's work: the request stays pending and
// is another replica's. The returned channel is closed when it stops.
func (s *Service) holdLease(ctx context.Context, cancel context.CancelFunc, r *store.Request) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(s.opts.Lease / 3)
		defer t.Stop()
		renewed := s.opts.Now()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			err := s.store.RenewLease(ctx, r.Tenant, r.Key, s.opts.Owner, s.opts.Lease)
			switch {
			case err == nil:
				renewed = s.opts.Now()
				continue
			case ctx.Err() != nil:
				return
			case errors.Is(err, store.ErrLeaseLost):
			case s.opts.Now().Sub(renewed) < s.opts.Lease:
				s.log.Warn("renew lease; trying again", "key", r.Key, "err", err)
				continue
			}
			s.metrics.Errors.WithLabelValues("store").Inc()
			s.log.Error("lease lost; leaving the request to another replica", "key", r.Key, "err", err)
			cancel()
			return
		}
	}()
	return done
}

// release gives up this service's lease of r, so that another replica can
// take an unfinished request at once.
func (s *Service) release(r *store.Request) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), 10*time.Second)
	defer cancel()
	if err := s.store.RenewLease(ctx, r.Tenant, r.Key, s.opts.Owner, 0); err != nil {
		s.log.Warn("release lease", "key", r.Key, "err", err)
	}
}

// process runs one request to its final answer. If ctx ends meanwhile
// (the service closes, or the lease was lost) the request stays pending.
func (s *Service) process(ctx context.Context, r *store.Request) {
	p := s.platform(r.Platform)
	if p == nil {
		return
	}
	s.metrics.InFlight.Inc()
	defer s.metrics.InFlight.Dec()
	j := &job{s: s, ctx: ctx, p: p, r: r, reply: r.Reply, log: s.log.With("key", r.Key, "tenant", r.Tenant, "platform", r.Platform),
		lang: RequestLang(r, "", r.Text)}
	if j.resumeUnsaved() {
		return
	}
	if !j.begin() {
		return
	}
	if r.Attempts > s.opts.MaxAttempts {
		j.log.Error("giving up after repeated attempts", "attempts", r.Attempts)
		j.answer(j.lang.RenderError(j.lang.text(wCheckGivenUp, nil)))
		j.finish(store.RequestFailed, "")
		return
	}
	// A check saved before a restart is answered from the store.
	if r.CheckID != "" {
		if c, err := s.store.Check(ctx, r.Tenant, r.CheckID); err == nil && c.Report != nil {
			j.answer(s.report(r, c.Report, c.ID))
			j.finish(store.RequestDone, c.ID)
			return
		}
	}
	text, ok := j.text()
	if !ok {
		return
	}
	text, files, notes, err := j.read(text)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		j.log.Warn("read the message asked about", "err", err)
		j.answer(j.lang.RenderError(j.lang.readMessage(err)))
		j.finish(store.RequestFailed, "")
		return
	}
	began := time.Now()
	rep, err := j.check(text, files)
	if ctx.Err() != nil {
		return // shutting down: stays pending, resumed on restart
	}
	j.logFinished(rep, err, began)
	if err != nil {
		s.metrics.Errors.WithLabelValues("check").Inc()
		s.metrics.Checks.WithLabelValues(r.Platform, "failed").Inc()
		j.keepCacheRefs()
		j.answer(j.lang.RenderError(j.lang.checkMessage(err)))
		j.finish(store.RequestFailed, "")
		return
	}
	s.metrics.observeReport(rep)
	for _, n := range notes {
		rep.AddNote(n)
	}
	j.deliver(text, rep)
}

// job is one request being processed.
type job struct {
	s      *Service
	ctx    context.Context
	p      Platform
	r      *store.Request
	log    *slog.Logger
	reply  string               // the handle of the answer posted so far
	lang   Lang                 // of the answer until the report's is known
	caches *store.CacheRecorder // what the check read or wrote in the caches
}

// begin counts the attempt and posts the placeholder unless one was posted
// before a restart. false means the service is closing.
func (j *job) begin() bool {
	ctx, r := j.ctx, j.r
	if err := j.s.store.UpdateRequest(ctx, r.Tenant, r.Key, func(q *store.Request) error {
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
			return false
		}
		j.s.metrics.Errors.WithLabelValues("store").Inc()
		j.log.Error("update request", "err", err)
	}
	j.reply = r.Reply
	if j.reply != "" {
		return true
	}
	cctx, cancel := j.call()
	reply, err := j.p.Post(cctx, r, j.lang.RenderPlaceholder())
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return false
		}
		j.s.metrics.Errors.WithLabelValues("post").Inc()
		j.log.Warn("post placeholder", "err", err)
		return true
	}
	j.reply, r.Reply = reply, reply
	j.saveReply(reply)
	return true
}

// text returns the text to check: the request's, or for "Check again" the
// earlier check's. false means the request was answered or the service is
// closing.
func (j *job) text() (string, bool) {
	r := j.r
	if r.Text != "" || r.Kind != KindRecheck {
		return r.Text, true
	}
	c, err := j.s.store.Check(j.ctx, r.Tenant, r.Meta[MetaCheckID])
	if err == nil && !c.VisibleTo(Audience(r.User, r.Channel)) {
		err = fmt.Errorf("check %s is not visible to %s in %s: %w", c.ID, r.User, r.Channel, store.ErrNotFound)
	}
	if err != nil {
		if j.ctx.Err() != nil {
			return "", false
		}
		j.log.Warn("recheck: load check", "check", r.Meta[MetaCheckID], "err", err)
		j.answer(j.lang.RenderError(j.lang.text(wRecheckNotFound, nil)))
		j.finish(store.RequestFailed, "")
		return "", false
	}
	if c.Message != "" { // its attachments are read again
		r.Meta[MetaMessage] = c.Message
	}
	return c.Text, true
}

// check runs the engine on text and files, showing its progress.
func (j *job) check(text string, files []factcheck.File) (*factcheck.Report, error) {
	r := j.r
	prog := j.s.startProgress(j.ctx, j.p, r, j.reply, text)
	cctx, cancel := context.WithTimeout(j.ctx, j.s.opts.CheckTimeout)
	// Every cache entry the check reads or writes is recorded with it, so
	// that forgetting the asker forgets what their request caused.
	cctx, j.caches = store.RecordCaches(cctx)
	rep, err := j.s.checker.Check(cctx, factcheck.Input{Tenant: r.Tenant, Text: text, Files: files, Fresh: r.Fresh, Progress: prog.event})
	cancel()
	prog.stop()
	if err == nil && rep == nil {
		err = errors.New("checker returned no report")
	}
	return rep, err
}

// deliver saves the check and answers with its report (deliverCheck).
func (j *job) deliver(text string, rep *factcheck.Report) {
	s, r := j.s, j.r
	j.deliverCheck(&store.Check{
		Tenant: r.Tenant, Platform: r.Platform, Channel: r.Channel, Thread: r.Thread, Link: r.Link,
		User: r.User, RequestKey: r.Key, Text: text, Report: rep, CreatedAt: s.opts.Now(), Private: r.Private,
		Visibility: r.Visibility, CacheRefs: j.caches.Refs(), Message: r.Meta[MetaMessage],
	})
}

// report renders the final report of the check saved as checkID for r,
// with a "Full report" link to its web page first among its buttons when
// the web view is on. The link is made for the asker; whoever sees the
// report may open it while it lasts, and the web view shows the check as
// the asker sees it in its channel. A check that could not be saved has no
// page, so no link.
func (s *Service) report(r *store.Request, rep *factcheck.Report, checkID string) *Message {
	l := RequestLang(r, rep.Language, rep.Input)
	m := l.RenderReport(rep, checkID)
	m.AskedBy = asker(r)
	if checkID == "" || s.opts.Links == nil {
		return m
	}
	if u := s.opts.Links.CheckURL(r.Tenant, r.User, checkID); u != "" {
		m.Actions = append([]Action{l.ReportLink(u)}, m.Actions...)
	}
	return m
}

// asker is who asked r, for a report everyone in a channel sees; nil for a
// report only the asker sees (private, or in a direct message) and for the
// answer to a mention, which replies to the asker's own message.
func asker(r *store.Request) *Asker {
	if r.Private || r.User == "" || r.Visibility == store.VisibilityDM || r.Kind == KindMention {
		return nil
	}
	return &Asker{ID: r.User, Name: r.Meta[MetaUserName]}
}

// keepCacheRefs records on a failed request the cache entries its check
// caused, since no check is saved to carry them.
func (j *job) keepCacheRefs() {
	refs := j.caches.Refs()
	if len(refs) == 0 {
		return
	}
	if err := j.s.store.UpdateRequest(j.ctx, j.r.Tenant, j.r.Key, func(q *store.Request) error {
		q.CacheRefs = refs
		return nil
	}); err != nil && j.ctx.Err() == nil {
		j.log.Warn("record cache entries", "err", err)
	}
}

func (j *job) saveReply(reply string) {
	if err := j.s.store.UpdateRequest(j.ctx, j.r.Tenant, j.r.Key, func(q *store.Request) error {
		q.Reply = reply
		return nil
	}); err != nil && j.ctx.Err() == nil {
		j.s.metrics.Errors.WithLabelValues("store").Inc()
		j.log.Warn("record reply", "err", err)
	}
}

// call returns the context of one platform call: the job's, bounded by
// Options.CallTimeout, so that a platform that hangs cannot hold the worker.
func (j *job) call() (context.Context, context.CancelFunc) {
	return context.WithTimeout(j.ctx, j.s.opts.CallTimeout)
}

// answer updates the reply with m, or posts m when there is no reply or the
// update fails. It reports whether m reached the platform.
func (j *job) answer(m *Message) bool {
	ctx, r := j.ctx, j.r
	if j.reply != "" {
		cctx, cancel := j.call()
		err := j.p.Update(cctx, r, j.reply, m)
		cancel()
		if err == nil {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		j.s.metrics.Errors.WithLabelValues("update").Inc()
		j.log.Warn("update reply; posting a new one", "err", err)
	}
	cctx, cancel := j.call()
	nr, err := j.p.Post(cctx, r, m)
	cancel()
	if err != nil {
		if ctx.Err() == nil {
			j.s.metrics.Errors.WithLabelValues("post").Inc()
			j.log.Error("post answer", "err", err)
		}
		return false
	}
	j.reply, r.Reply = nr, nr
	j.saveReply(nr)
	return true
}

func (j *job) finish(state, checkID string) {
	// The answer was delivered: record it even if the service is closing,
	// or the request would be answered again after a restart.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(j.ctx), 10*time.Second)
	defer cancel()
	if err := j.s.store.FinishRequest(ctx, j.r.Tenant, j.r.Key, state, checkID); err != nil && ctx.Err() == nil {
		j.s.metrics.Errors.WithLabelValues("store").Inc()
		j.log.Error("finish request", "err", err)
	}
}

// progress coalesces progress updates: one in flight at a time, and only
// the latest state is sent after it. Updates run on their own goroutine,
// each bounded by Options.ProgressTimeout, so a platform that hangs on one
// delays neither the check nor its final answer.
type progress struct {
	mu       sync.Mutex
	claims   []factcheck.ExtractedClaim
	verdicts map[int]*factcheck.Verdict
	lang     Lang // the request's, then the claims'
	dirty    chan struct{}
	cancel   context.CancelFunc
	done     chan struct{}
	wait     time.Duration // how long stop waits for an update in flight
	langOf   func(claims string) Lang
}

func (s *Service) startProgress(ctx context.Context, p Platform, r *store.Request, reply, text string) *progress {
	ctx, cancel := context.WithCancel(ctx)
	pr := &progress{verdicts: map[int]*factcheck.Verdict{}, dirty: make(chan struct{}, 1),
		lang:   RequestLang(r, "", text),
		cancel: cancel, done: make(chan struct{}), wait: s.opts.ProgressTimeout}
	pr.langOf = func(claims string) Lang { return RequestLang(r, claims, text) }
	if reply == "" {
		close(pr.done)
		return pr
	}
	go func() {
		defer close(pr.done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-pr.dirty:
			}
			pr.mu.Lock()
			m := pr.lang.RenderProgress(pr.claims, pr.verdicts)
			pr.mu.Unlock()
			uctx, ucancel := context.WithTimeout(ctx, s.opts.ProgressTimeout)
			err := p.Update(uctx, r, reply, m)
			ucancel()
			if err != nil && ctx.Err() == nil {
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
		if len(e.Claims) > 0 {
			pr.lang = pr.langOf(e.Claims[0].Language)
		}
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

// stop ends the updates: one in flight is cancelled (the final answer
// replaces it) and waited for, so that it does not land after the final
// answer, but never longer than one update's deadline.
func (pr *progress) stop() {
	pr.cancel()
	t := time.NewTimer(pr.wait)
	defer t.Stop()
	select {
	case <-pr.done:
	case <-t.C:
	}
}
