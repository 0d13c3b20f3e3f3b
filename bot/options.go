package bot

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
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

// withDefaults is o with every zero field set to its default.
func (opts Options) withDefaults() Options {
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
	return opts
}
