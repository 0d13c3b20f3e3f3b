package storetest

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// Memory is an in-memory store for tests: it has the methods of Backend,
// with the signatures and, for everything Run checks, the behaviour of
// *store.DB (idempotent accepts, the pending list, check IDs, the request's
// CheckID set by SaveCheck, History's filters and order, ErrNotFound and
// ErrNoTenant). Like the database it keeps records encoded, so callers
// never share memory with what is stored. Nothing is durable, and History
// reads every check of the tenant. The zero Memory is empty and ready; it
// is safe for concurrent use.
type Memory struct {
	// Now returns the time (default time.Now); set it before first use.
	Now func() time.Time

	mu      sync.Mutex
	tenants map[string]*memTenant
	leases  store.LeaseTable
}

// memTenant holds one tenant's records as JSON, like the database's
// buckets.
type memTenant struct {
	requests map[string][]byte // key → store.Request
	checks   map[string][]byte // ID → store.Check
}

// NewMemory returns an empty Memory on the real clock.
func NewMemory() *Memory { return &Memory{} }

func (m *Memory) now() time.Time {
	if m.Now == nil {
		return time.Now().UTC()
	}
	return m.Now().UTC()
}

// tenant returns the tenant's records, creating them if create is set;
// nil if there are none. m.mu is held.
func (m *Memory) tenant(name string, create bool) (*memTenant, error) {
	if name == "" {
		return nil, store.ErrNoTenant
	}
	tn := m.tenants[name]
	if tn == nil && create {
		if m.tenants == nil {
			m.tenants = map[string]*memTenant{}
		}
		tn = &memTenant{requests: map[string][]byte{}, checks: map[string][]byte{}}
		m.tenants[name] = tn
	}
	return tn, nil
}

// put stores v under key, encoded.
func put(records map[string][]byte, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	records[key] = b
	return nil
}

// request returns the request under key, nil if none (a nil tn has none).
func (tn *memTenant) request(key string) (*store.Request, error) {
	if tn == nil {
		return nil, nil
	}
	return decode[store.Request](tn.requests[key])
}

// check returns the check with the ID, nil if none (a nil tn has none).
func (tn *memTenant) check(id string) (*store.Check, error) {
	if tn == nil {
		return nil, nil
	}
	return decode[store.Check](tn.checks[id])
}

// decode returns the record encoded in b, nil for a nil b.
func decode[T any](b []byte) (*T, error) {
	if b == nil {
		return nil, nil
	}
	v := new(T)
	if err := json.Unmarshal(b, v); err != nil {
		return nil, err
	}
	return v, nil
}

func validState(s string) error {
	switch s {
	case store.RequestPending, store.RequestDone, store.RequestFailed:
		return nil
	}
	return fmt.Errorf("unknown request state %q", s)
}

// AcceptRequest stores r unless a request with the same Tenant and Key
// exists, as store.DB.AcceptRequest does.
func (m *Memory) AcceptRequest(ctx context.Context, r *store.Request) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if r.Key == "" {
		return false, fmt.Errorf("accept request: empty key")
	}
	if r.State == "" {
		r.State = store.RequestPending
	}
	if err := validState(r.State); err != nil {
		return false, fmt.Errorf("accept request: %w", err)
	}
	now := m.now()
	if r.CreatedAt.IsZero() {
		r.CreatedAt = now
	}
	r.UpdatedAt = now
	m.mu.Lock()
	defer m.mu.Unlock()
	tn, err := m.tenant(r.Tenant, true)
	if err != nil {
		return false, fmt.Errorf("accept request %s: %w", r.Key, err)
	}
	if _, ok := tn.requests[r.Key]; ok {
		return false, nil
	}
	if err := put(tn.requests, r.Key, r); err != nil {
		return false, fmt.Errorf("accept request %s: %w", r.Key, err)
	}
	return true, nil
}

// UpdateRequest lets fn change a copy of the stored request and stores it
// unless fn fails, as store.DB.UpdateRequest does.
func (m *Memory) UpdateRequest(ctx context.Context, tenant, key string, fn func(*store.Request) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.updateRequest(tenant, key, fn); err != nil {
		return fmt.Errorf("update request %s: %w", key, err)
	}
	return nil
}

// updateRequest is UpdateRequest with m.mu held.
func (m *Memory) updateRequest(tenant, key string, fn func(*store.Request) error) error {
	tn, err := m.tenant(tenant, false)
	if err != nil {
		return err
	}
	old, err := tn.request(key)
	if err != nil {
		return err
	}
	if old == nil {
		return fmt.Errorf("request %q: %w", key, store.ErrNotFound)
	}
	r, err := tn.request(key) // fn's own copy
	if err != nil {
		return err
	}
	if err := fn(r); err != nil {
		return err
	}
	r.Key, r.Tenant, r.CreatedAt = old.Key, old.Tenant, old.CreatedAt
	if err := validState(r.State); err != nil {
		return err
	}
	r.UpdatedAt = m.now()
	return put(tn.requests, key, r)
}

// FinishRequest marks the request done or failed, as
// store.DB.FinishRequest does: an empty checkID keeps the one SaveCheck
// recorded.
func (m *Memory) FinishRequest(ctx context.Context, tenant, key, state, checkID string) error {
	if state != store.RequestDone && state != store.RequestFailed {
		return fmt.Errorf("finish request %s: state %q is not %q or %q", key, state, store.RequestDone, store.RequestFailed)
	}
	return m.UpdateRequest(ctx, tenant, key, func(r *store.Request) error {
		r.State = state
		if checkID != "" {
			r.CheckID = checkID
		}
		return nil
	})
}

// RefuseRequest replaces the request by its dedupe record
// (store.RefusedStub), as store.DB.RefuseRequest does.
func (m *Memory) RefuseRequest(ctx context.Context, tenant, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	err := m.updateRequest(tenant, key, func(r *store.Request) error {
		*r = *store.RefusedStub(r)
		return nil
	})
	if err != nil {
		return fmt.Errorf("refuse request %s: %w", key, err)
	}
	return nil
}

// Request returns one request, or an error wrapping store.ErrNotFound.
func (m *Memory) Request(ctx context.Context, tenant, key string) (*store.Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	tn, err := m.tenant(tenant, false)
	if err != nil {
		return nil, fmt.Errorf("request %s: %w", key, err)
	}
	r, err := tn.request(key)
	if err != nil {
		return nil, fmt.Errorf("request %s: %w", key, err)
	}
	if r == nil {
		return nil, fmt.Errorf("request %s: request %q: %w", key, key, store.ErrNotFound)
	}
	return r, nil
}

// Tenants lists the tenants that have pending requests, in name order.
func (m *Memory) Tenants(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for name := range m.tenants {
		pend, err := m.pending(name)
		if err != nil {
			return nil, err
		}
		if len(pend) > 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// PendingRequests lists one tenant's unfinished requests, oldest first.
func (m *Memory) PendingRequests(ctx context.Context, tenant string) ([]*store.Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out, err := m.pending(tenant)
	if err != nil {
		return nil, fmt.Errorf("pending requests: %w", err)
	}
	return out, nil
}

// pending returns the tenant's pending requests in the order of the
// database's pending index: creation time, then key. m.mu is held.
func (m *Memory) pending(tenant string) ([]*store.Request, error) {
	tn, err := m.tenant(tenant, false)
	if err != nil || tn == nil {
		return nil, err
	}
	var out []*store.Request
	for key := range tn.requests {
		r, err := tn.request(key)
		if err != nil {
			return nil, err
		}
		if r.State == store.RequestPending {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *store.Request) int {
		return cmp.Or(cmp.Compare(a.CreatedAt.UnixNano(), b.CreatedAt.UnixNano()), cmp.Compare(a.Key, b.Key))
	})
	return out, nil
}

// SaveCheck assigns c.ID (and CreatedAt) if empty, stores the check and
// records its ID on the request named by c.RequestKey, replacing the
// request's earlier check, as store.DB.SaveCheck does.
func (m *Memory) SaveCheck(ctx context.Context, c *store.Check) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.saveCheck(c); err != nil {
		return fmt.Errorf("save check: %w", err)
	}
	return nil
}

// saveCheck is SaveCheck with m.mu held.
func (m *Memory) saveCheck(c *store.Check) error {
	tn, err := m.tenant(c.Tenant, true)
	if err != nil {
		return err
	}
	now := m.now()
	if c.CreatedAt.IsZero() {
		c.CreatedAt = now
	}
	var req *store.Request
	if c.RequestKey != "" {
		if req, err = tn.request(c.RequestKey); err != nil {
			return err
		}
		if req != nil && c.ID == "" && req.CheckID != "" && tn.checks[req.CheckID] != nil {
			c.ID = req.CheckID
		}
	}
	if c.ID == "" {
		c.ID = store.NewCheckID(c.CreatedAt, func(id string) bool { return tn.checks[id] != nil })
	}
	if err := put(tn.checks, c.ID, c); err != nil {
		return err
	}
	if req != nil && req.CheckID != c.ID {
		req.CheckID = c.ID
		req.UpdatedAt = now
		return put(tn.requests, req.Key, req)
	}
	return nil
}

// Check returns one check of the tenant, or an error wrapping
// store.ErrNotFound.
func (m *Memory) Check(ctx context.Context, tenant, id string) (*store.Check, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	tn, err := m.tenant(tenant, false)
	if err != nil {
		return nil, fmt.Errorf("check %q: %w", id, err)
	}
	c, err := tn.check(id)
	if err != nil {
		return nil, fmt.Errorf("check %q: %w", id, err)
	}
	if c == nil {
		return nil, fmt.Errorf("check %q: %w", id, store.ErrNotFound)
	}
	return c, nil
}

// History returns the summaries of the tenant's checks that q matches
// (see store.HistoryQuery.Matches), newest (highest ID) first, at most
// q.Limit (default store.DefaultLimit, at most store.MaxLimit).
func (m *Memory) History(ctx context.Context, tenant string, q store.HistoryQuery) ([]store.CheckSummary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = store.DefaultLimit
	}
	limit = min(limit, store.MaxLimit)
	m.mu.Lock()
	defer m.mu.Unlock()
	tn, err := m.tenant(tenant, false)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	out := []store.CheckSummary{}
	if tn == nil {
		return out, nil
	}
	ids := slices.Sorted(maps.Keys(tn.checks))
	slices.Reverse(ids)
	for _, id := range ids {
		c, err := tn.check(id)
		if err != nil {
			return nil, fmt.Errorf("history: check %s: %w", id, err)
		}
		if q.Matches(c) {
			out = append(out, c.Summary())
			if len(out) == limit {
				break
			}
		}
	}
	return out, nil
}

// AddFeedback appends feedback to a check (At defaults to now), or returns
// an error wrapping store.ErrNotFound, or store.ErrFeedbackLimit beyond
// store.MaxFeedbackPerCheck notes or store.MaxFeedbackPerUser of one person.
func (m *Memory) AddFeedback(ctx context.Context, tenant, checkID string, f store.Feedback) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if f.At.IsZero() {
		f.At = m.now()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	tn, err := m.tenant(tenant, false)
	if err != nil {
		return fmt.Errorf("add feedback to %q: %w", checkID, err)
	}
	c, err := tn.check(checkID)
	if err != nil {
		return fmt.Errorf("add feedback to %q: %w", checkID, err)
	}
	if c == nil {
		return fmt.Errorf("add feedback to %q: %w", checkID, store.ErrNotFound)
	}
	mine := 0
	for _, g := range c.Feedback {
		if g.User == f.User {
			mine++
		}
	}
	if len(c.Feedback) >= store.MaxFeedbackPerCheck || mine >= store.MaxFeedbackPerUser {
		return fmt.Errorf("add feedback to %q: %w", checkID, store.ErrFeedbackLimit)
	}
	c.Feedback = append(c.Feedback, f)
	if err := put(tn.checks, checkID, c); err != nil {
		return fmt.Errorf("add feedback to %q: %w", checkID, err)
	}
	return nil
}
