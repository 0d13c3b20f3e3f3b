// Package bot is factbot's platform-neutral chat core: it stores each chat
// request durably before the platform is acknowledged, runs checks on a
// bounded worker pool, reports progress, renders the final report into an
// abstract Message that each platform adapter (bot/slack, bot/discord) turns
// into its own markup, and resumes unfinished requests after a restart.
//
// The package knows nothing of Slack or Discord types. Adapters implement
// Platform and hand Requests to a Service.
package bot

import (
	"context"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
)

// Request kinds.
const (
	KindMention  = "mention"  // the bot was mentioned with a claim
	KindCommand  = "command"  // a slash command
	KindShortcut = "shortcut" // a message shortcut / message command
	KindRecheck  = "recheck"  // "Check again" on an earlier report (Fresh)
)

// Request states, as in the store.
const (
	StatePending = "pending"
	StateDone    = "done"
	StateFailed  = "failed"
)

// MetaCheckID is the Request.Meta key naming the earlier check a KindRecheck
// request repeats; the core loads its text when Request.Text is empty.
const MetaCheckID = "check_id"

// Request is one chat request, platform neutral. Adapters fill the
// identifying fields; the core fills the bookkeeping ones.
type Request struct {
	Key      string // platform idempotency key, e.g. "slack:event:Ev0123"
	Tenant   string // Slack team id, Discord guild id
	Platform string // Platform.Name() of the adapter that answers it
	Kind     string // KindMention, KindCommand, ...
	Channel  string
	Thread   string // where to reply: thread ts / message id
	Link     string // permalink to the asked message, if known
	User     string
	Text     string
	Private  bool // answer visible to the asker only
	Fresh    bool // ignore the verdict cache
	// Reply is the adapter's opaque handle of the posted placeholder.
	Reply string
	// Meta holds adapter-specific extras (response_url, interaction token…).
	Meta map[string]string

	State     string
	CheckID   string
	Attempts  int
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Check is a saved, answered request (history and audit).
type Check struct {
	ID                                            string
	Tenant, Platform, Channel, Thread, Link, User string
	RequestKey                                    string
	Text                                          string
	Report                                        *factcheck.Report
	CreatedAt                                     time.Time
	Feedback                                      []Feedback
	Private                                       bool // answered to the asker only: hidden from others' history
}

// Feedback is a user's "Wrong verdict?" note on a check.
type Feedback struct {
	User  string
	Claim int // -1 for the whole check
	Note  string
	At    time.Time
}

// HistoryQuery selects checks of one tenant.
type HistoryQuery struct {
	Channel, User string
	Verdict       factcheck.Label
	Since         time.Time
	Search        string
	Limit         int
	// Viewer is who asks for the history: private checks are shown to their
	// own asker only. Service.History always hides the others.
	Viewer      string
	HidePrivate bool
}

// CheckSummary is one line of history.
type CheckSummary struct {
	ID, Channel, User, Text string
	CreatedAt               time.Time
	Verdicts                []factcheck.Label
	Claims                  []string
	Cached                  bool
	Private                 bool
}

// ErrNotFound is returned by Store.Check for an unknown id. Store
// implementations wrap or return it (the store package's ErrNotFound is
// translated by FromDB).
var ErrNotFound = errNotFound{}

type errNotFound struct{}

func (errNotFound) Error() string { return "not found" }

// Store is what the core needs of the durable store. *store.DB satisfies it
// through FromDB; tests use an in-memory fake (see bot/bottest).
type Store interface {
	// AcceptRequest stores r durably unless its Key exists; false means a
	// redelivery and nothing was written.
	AcceptRequest(ctx context.Context, r *Request) (bool, error)
	UpdateRequest(ctx context.Context, tenant, key string, fn func(*Request) error) error
	FinishRequest(ctx context.Context, tenant, key, state, checkID string) error
	Tenants(ctx context.Context) ([]string, error)
	PendingRequests(ctx context.Context, tenant string) ([]*Request, error)
	// SaveCheck saves c, assigning c.ID, and in the same write records
	// c.ID as the CheckID of the request named c.RequestKey, if any (so a
	// request resumed after a restart re-posts the saved answer).
	SaveCheck(ctx context.Context, c *Check) error
	Check(ctx context.Context, tenant, id string) (*Check, error)
	History(ctx context.Context, tenant string, q HistoryQuery) ([]CheckSummary, error)
	AddFeedback(ctx context.Context, tenant, checkID string, f Feedback) error
}

// Checker checks text; *factcheck.Checker satisfies it.
type Checker interface {
	Check(ctx context.Context, in factcheck.Input) (*factcheck.Report, error)
}

// Platform is what an adapter gives the core to answer requests it
// submitted. Text in Messages is raw: the adapter escapes it for its markup
// and suppresses mentions.
type Platform interface {
	// Name is the adapter's name, matching Request.Platform ("slack").
	Name() string
	// Post posts m as the answer to r (in r's thread, or privately when
	// r.Private) and returns an opaque handle for later updates.
	Post(ctx context.Context, r *Request, m *Message) (reply string, err error)
	// Update replaces the answer posted earlier. Adapters may skip
	// intermediate (non-Final) updates they cannot show, e.g. ephemeral ones.
	Update(ctx context.Context, r *Request, reply string, m *Message) error
	// Notify shows a short note to the asker only (a refusal, a thank-you).
	Notify(ctx context.Context, r *Request, text string) error
}
