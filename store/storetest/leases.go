package storetest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// ClaimRequest takes the lease of one pending request, as
// store.DB.ClaimRequest does.
func (m *Memory) ClaimRequest(ctx context.Context, tenant, key, owner string, lease time.Duration) (*store.Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if tenant == "" {
		return nil, fmt.Errorf("claim request %s: %w", key, store.ErrNoTenant)
	}
	r, err := m.leases.Claim(tenant, key, owner, m.now(), lease, func() (*store.Request, error) {
		return m.Request(ctx, tenant, key)
	})
	if err != nil {
		return nil, fmt.Errorf("claim request %s: %w", key, err)
	}
	return r, nil
}

// ClaimPending claims every claimable pending request of the tenant, as
// store.DB.ClaimPending does.
func (m *Memory) ClaimPending(ctx context.Context, tenant, owner string, lease time.Duration) ([]*store.Request, error) {
	pend, err := m.PendingRequests(ctx, tenant)
	if err != nil {
		return nil, err
	}
	var out []*store.Request
	for _, p := range pend {
		r, err := m.ClaimRequest(ctx, tenant, p.Key, owner, lease)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if r != nil {
			out = append(out, r)
		}
	}
	return out, nil
}

// RenewLease extends or releases owner's lease, as store.DB.RenewLease
// does.
func (m *Memory) RenewLease(ctx context.Context, tenant, key, owner string, lease time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if tenant == "" {
		return fmt.Errorf("renew lease %s: %w", key, store.ErrNoTenant)
	}
	err := m.leases.Renew(tenant, key, owner, m.now(), lease, func() (string, error) {
		r, err := m.Request(ctx, tenant, key)
		if errors.Is(err, store.ErrNotFound) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		return r.State, nil
	})
	if err != nil {
		return fmt.Errorf("renew lease %s: %w", key, err)
	}
	return nil
}
