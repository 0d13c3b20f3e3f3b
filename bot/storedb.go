package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/factbot-dev/factbot/store"
)

// FromDB adapts the bbolt store to Store.
func FromDB(db *store.DB) Store { return dbStore{db} }

type dbStore struct{ db *store.DB }

func notFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	return err
}

func (s dbStore) AcceptRequest(ctx context.Context, r *Request) (bool, error) {
	sr := store.Request(*r)
	ok, err := s.db.AcceptRequest(ctx, &sr)
	if ok {
		*r = Request(sr)
	}
	return ok, err
}

func (s dbStore) UpdateRequest(ctx context.Context, tenant, key string, fn func(*Request) error) error {
	return notFound(s.db.UpdateRequest(ctx, tenant, key, func(sr *store.Request) error {
		r := Request(*sr)
		if err := fn(&r); err != nil {
			return err
		}
		*sr = store.Request(r)
		return nil
	}))
}

func (s dbStore) FinishRequest(ctx context.Context, tenant, key, state, checkID string) error {
	return notFound(s.db.FinishRequest(ctx, tenant, key, state, checkID))
}

func (s dbStore) Tenants(ctx context.Context) ([]string, error) { return s.db.Tenants(ctx) }

func (s dbStore) PendingRequests(ctx context.Context, tenant string) ([]*Request, error) {
	srs, err := s.db.PendingRequests(ctx, tenant)
	if err != nil {
		return nil, err
	}
	out := make([]*Request, len(srs))
	for i, sr := range srs {
		r := Request(*sr)
		out[i] = &r
	}
	return out, nil
}

func (s dbStore) SaveCheck(ctx context.Context, c *Check) error {
	sc := &store.Check{
		ID: c.ID, Tenant: c.Tenant, Platform: c.Platform, Channel: c.Channel, Thread: c.Thread, Link: c.Link,
		User: c.User, RequestKey: c.RequestKey, Text: c.Text, Report: c.Report, CreatedAt: c.CreatedAt,
		Private: c.Private,
	}
	for _, f := range c.Feedback {
		sc.Feedback = append(sc.Feedback, store.Feedback(f))
	}
	if err := s.db.SaveCheck(ctx, sc); err != nil {
		return err
	}
	c.ID, c.CreatedAt = sc.ID, sc.CreatedAt
	return nil
}

func (s dbStore) Check(ctx context.Context, tenant, id string) (*Check, error) {
	sc, err := s.db.Check(ctx, tenant, id)
	if err != nil {
		return nil, notFound(err)
	}
	c := &Check{
		ID: sc.ID, Tenant: sc.Tenant, Platform: sc.Platform, Channel: sc.Channel, Thread: sc.Thread, Link: sc.Link,
		User: sc.User, RequestKey: sc.RequestKey, Text: sc.Text, Report: sc.Report, CreatedAt: sc.CreatedAt,
		Private: sc.Private,
	}
	for _, f := range sc.Feedback {
		c.Feedback = append(c.Feedback, Feedback(f))
	}
	return c, nil
}

func (s dbStore) History(ctx context.Context, tenant string, q HistoryQuery) ([]CheckSummary, error) {
	ss, err := s.db.History(ctx, tenant, store.HistoryQuery(q))
	if err != nil {
		return nil, err
	}
	out := make([]CheckSummary, len(ss))
	for i, x := range ss {
		out[i] = CheckSummary(x)
	}
	return out, nil
}

func (s dbStore) AddFeedback(ctx context.Context, tenant, checkID string, f Feedback) error {
	return notFound(s.db.AddFeedback(ctx, tenant, checkID, store.Feedback(f)))
}
