// Package bot is factbot's platform-neutral chat core: it stores each chat
// request durably before the platform is acknowledged, runs checks on a
// bounded worker pool, reports progress, renders the final report into an
// abstract Message that each platform adapter (bot/slack, bot/discord) turns
// into its own markup, and resumes unfinished requests after a restart.
//
// The core owns the chat policy: input limits, per-user limits, history
// arguments and limits, feedback, "Check again", and the wording of every
// message a user sees. Adapters only translate: platform events become
// store.Requests handed to a Core, Messages become platform calls.
//
// The package knows nothing of Slack or Discord types. Requests, checks and
// history are the store's own record types.
package bot

import (
	"context"
	"errors"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// Request kinds.
const (
	KindMention  = "mention"  // the bot was mentioned with a claim
	KindCommand  = "command"  // a slash command
	KindShortcut = "shortcut" // a message shortcut / message command
	KindRecheck  = "recheck"  // "Check again" on an earlier report (Fresh)
	KindReaction = "reaction" // a reaction (🔍) asks for a check of a message
)

// MetaCheckID is the Request.Meta key naming the earlier check a KindRecheck
// request repeats; the core loads its text when Request.Text is empty.
const MetaCheckID = "check_id"

// Store is what the core needs of the durable store, in the store's own
// record types: *store.DB satisfies it; tests use an in-memory fake (see
// bot/bottest). Unknown requests and checks are reported with
// store.ErrNotFound.
type Store interface {
	// AcceptRequest stores r durably unless its Key exists; false means a
	// redelivery and nothing was written.
	AcceptRequest(ctx context.Context, r *store.Request) (bool, error)
	UpdateRequest(ctx context.Context, tenant, key string, fn func(*store.Request) error) error
	FinishRequest(ctx context.Context, tenant, key, state, checkID string) error
	Tenants(ctx context.Context) ([]string, error)
	PendingRequests(ctx context.Context, tenant string) ([]*store.Request, error)
	// SaveCheck saves c, assigning c.ID, and in the same write records
	// c.ID as the CheckID of the request named c.RequestKey, if any (so a
	// request resumed after a restart re-posts the saved answer).
	// It is safe to call concurrently: the store serialises saves where its
	// driver needs it.
	SaveCheck(ctx context.Context, c *store.Check) error
	Check(ctx context.Context, tenant, id string) (*store.Check, error)
	History(ctx context.Context, tenant string, q store.HistoryQuery) ([]store.CheckSummary, error)
	AddFeedback(ctx context.Context, tenant, checkID string, f store.Feedback) error
	// RefuseRequest shrinks a refused request to what stops a redelivery
	// from being answered twice (no text, no user); Prune removes it soon.
	RefuseRequest(ctx context.Context, tenant, key string) error
	// ClaimRequest takes the lease of a pending request for owner (see
	// store.ErrLeaseLost): nil if another owner holds it or it is
	// finished. ClaimPending claims every claimable pending request of a
	// tenant. RenewLease extends owner's lease, or with a lease <= 0
	// releases it; store.ErrLeaseLost means it was taken over.
	ClaimRequest(ctx context.Context, tenant, key, owner string, lease time.Duration) (*store.Request, error)
	ClaimPending(ctx context.Context, tenant, owner string, lease time.Duration) ([]*store.Request, error)
	RenewLease(ctx context.Context, tenant, key, owner string, lease time.Duration) error
}

var _ Store = (*store.DB)(nil)

// RateStore is implemented by stores that several replicas share (the
// PostgreSQL store): the core then counts its per-person, per-tenant and
// feedback limits there, so that N replicas do not let a person ask N
// times the limit. Without it (the bbolt store, one process) the limits
// are counted in the service's memory. Both count the same sliding
// window: a use is allowed while fewer than n uses of the key fall in
// (now-window, now].
type RateStore interface {
	// Take records a use of key at now if fewer than n uses fall in the
	// window ending at now; otherwise it records nothing and returns
	// false and when the next use will be allowed (the oldest use in the
	// window, plus window). Uses older than the window may be forgotten.
	// The core calls it only with n > 0 and window > 0.
	Take(ctx context.Context, key string, n int, window time.Duration, now time.Time) (ok bool, next time.Time, err error)
	// Give forgets one use of key that Take recorded at now (a later limit
	// refused the same request). Nothing recorded at now is no error.
	Give(ctx context.Context, key string, now time.Time) error
}

// Checker checks text; *factcheck.Checker satisfies it.
type Checker interface {
	Check(ctx context.Context, in factcheck.Input) (*factcheck.Report, error)
}

// Core is what an adapter needs of the chat core; *Service satisfies it.
// Every error it returns has a message safe to show the asker (see
// UserMessage).
type Core interface {
	// Submit validates r, stores it durably and queues it. An error means
	// nothing was stored: the platform must not be acknowledged (or, where
	// it does not redeliver, the asker is told with UserMessage(err)).
	Submit(ctx context.Context, r *store.Request) (Result, error)
	// History lists a tenant's latest checks as viewer, asking in channel,
	// may see them.
	History(ctx context.Context, tenant, viewer, channel string, args HistoryArgs) (*History, error)
	// Feedback records a "Wrong verdict?" that f.User clicked in channel on
	// a check, and returns the thank-you to show; by is who sends it (the
	// per-person limit).
	Feedback(ctx context.Context, tenant, channel, checkID string, by Person, f store.Feedback) (string, error)
}

// AckObserver is implemented by cores that record acknowledgement latency
// (*Service: the factbot_ack_seconds histogram). Adapters find it on their
// Core with a type assertion, so wrappers of the Service can record it too.
type AckObserver interface {
	ObserveAck(platform string, d time.Duration)
}

// Platform is what an adapter gives the core to answer requests it
// submitted. Text in Messages is raw: the adapter escapes it for its markup
// and suppresses mentions.
type Platform interface {
	// Name is the adapter's name, matching Request.Platform ("slack").
	Name() string
	// Post posts m as the answer to r (in r's thread, or privately when
	// r.Private) and returns an opaque handle for later updates.
	Post(ctx context.Context, r *store.Request, m *Message) (reply string, err error)
	// Update replaces the answer posted earlier. Adapters may skip
	// intermediate (non-Final) updates they cannot show, e.g. ephemeral ones.
	// An error wrapping ErrReplyGone means the reply cannot be edited any
	// more (deleted): the core then posts the answer anew; after any other
	// error it tries the update again later, so that an answer is never
	// split between a placeholder and a second message.
	Update(ctx context.Context, r *store.Request, reply string, m *Message) error
	// Notify shows a short note to the asker only (a refusal, a thank-you).
	Notify(ctx context.Context, r *store.Request, text string) error
}

// ErrReplyGone is wrapped by Platform.Update's error when the reply to
// update is gone (deleted, or no longer editable).
var ErrReplyGone = errors.New("bot: the reply cannot be updated any more")

// ErrUndeliverable is wrapped by Platform.Post's error when the answer can
// never be delivered (no place left to post it, e.g. an expired token of a
// request that may be answered nowhere else): the core finishes the
// request rather than try again.
var ErrUndeliverable = errors.New("bot: the answer has nowhere to go")

// Tracker is implemented by a Platform that shows a check's research as it
// runs (Slack's assistant: a status line, a task card per claim). Track is
// called with each progress event of the check answering r, reply being
// the handle Post returned for it, before the final Update; it must not
// block (the engine waits for it) and may keep e (its Claims and Verdict
// are the Tracker's own copies).
type Tracker interface {
	Track(r *store.Request, reply string, e factcheck.Event)
}
