// Package storetest helps test code that keeps records in a store: Open
// gives a real bbolt database in a temporary directory, Memory is an
// in-memory store with the same behaviour for what the chat core uses, and
// Run is the conformance suite every store backend passes (RunMaintained
// adds the caches, pruning and forgetting, for the backends that keep
// them: bbolt and store/postgres).
package storetest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// Backend is what a store backend provides to the chat core (bot.Store)
// and to its tests (Request): durable requests, checks, their history and
// feedback, in the store's own types. Run checks that a backend behaves as
// *store.DB does.
type Backend interface {
	AcceptRequest(ctx context.Context, r *store.Request) (bool, error)
	UpdateRequest(ctx context.Context, tenant, key string, fn func(*store.Request) error) error
	FinishRequest(ctx context.Context, tenant, key, state, checkID string) error
	RefuseRequest(ctx context.Context, tenant, key string) error
	Request(ctx context.Context, tenant, key string) (*store.Request, error)
	Tenants(ctx context.Context) ([]string, error)
	PendingRequests(ctx context.Context, tenant string) ([]*store.Request, error)
	SaveCheck(ctx context.Context, c *store.Check) error
	Check(ctx context.Context, tenant, id string) (*store.Check, error)
	History(ctx context.Context, tenant string, q store.HistoryQuery) ([]store.CheckSummary, error)
	AddFeedback(ctx context.Context, tenant, checkID string, f store.Feedback) error
	ClaimRequest(ctx context.Context, tenant, key, owner string, lease time.Duration) (*store.Request, error)
	ClaimPending(ctx context.Context, tenant, owner string, lease time.Duration) ([]*store.Request, error)
	RenewLease(ctx context.Context, tenant, key, owner string, lease time.Duration) error
}

var (
	_ Backend = (*store.DB)(nil)
	_ Backend = (*Memory)(nil)
)

// Open opens a new database in t.TempDir() and closes it at cleanup.
func Open(t testing.TB, opts store.Options) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "factbot.db"), opts)
	if err != nil {
		t.Fatalf("storetest.Open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("storetest: close: %v", err)
		}
	})
	return db
}
