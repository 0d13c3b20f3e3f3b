package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbot-dev/factbot/store"
)

// Leases (see store.ErrLeaseLost and store.DB.ClaimRequest) live in the
// requests table's lease_owner and lease_until_ns, so that every replica
// sees them. A claim is one UPDATE whose WHERE holds the lease rules: the
// row lock makes concurrent claims of one request take turns, and the
// second sees the first's lease. Times are the replicas' clocks, which
// must agree to well within a lease.

// claimable is the condition on a requests row that owner ($owner) may
// claim at $now.
const claimable = `state = 'pending' AND (lease_owner = @owner OR lease_owner = '' OR lease_until_ns <= @now)`

// ClaimRequest takes the lease of one pending request for owner until
// now+lease, if its lease is free, expired or already owner's. It returns
// the request as stored, or nil if it was not claimed: another owner
// holds it, or it is finished. An unknown request is an error wrapping
// store.ErrNotFound.
func (db *DB) ClaimRequest(ctx context.Context, tenant, key, owner string, lease time.Duration) (*store.Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if tenant == "" {
		return nil, fmt.Errorf("claim request %s: %w", key, store.ErrNoTenant)
	}
	if owner == "" {
		return nil, fmt.Errorf("claim request %s: empty owner", key)
	}
	now := db.now().UTC()
	args := pgx.NamedArgs{"tenant": pgText(tenant), "key": pgText(key), "owner": owner, "now": ns(now), "until": ns(now.Add(lease))}
	var rec string
	err := db.pool.QueryRow(ctx, `UPDATE requests SET lease_owner = @owner, lease_until_ns = @until
WHERE tenant = @tenant AND key = @key AND `+claimable+` RETURNING record::text`, args).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		// Not claimable, or not there.
		if _, err := getRequest(ctx, db.pool, tenant, key, false); err != nil {
			return nil, fmt.Errorf("claim request %s: %w", key, ctxErr(ctx, err))
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("claim request %s: %w", key, ctxErr(ctx, err))
	}
	var r store.Request
	if err := fromJSONB(rec, &r); err != nil {
		return nil, fmt.Errorf("claim request %s: %w", key, err)
	}
	return &r, nil
}

// ClaimPending claims, as ClaimRequest does, every pending request of the
// tenant that owner can claim, and returns them oldest first. Rows
// another replica is claiming at the moment are skipped (SKIP LOCKED):
// they are that replica's.
func (db *DB) ClaimPending(ctx context.Context, tenant, owner string, lease time.Duration) ([]*store.Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if tenant == "" {
		return nil, fmt.Errorf("claim pending: %w", store.ErrNoTenant)
	}
	if owner == "" {
		return nil, errors.New("claim pending: empty owner")
	}
	now := db.now().UTC()
	args := pgx.NamedArgs{"tenant": pgText(tenant), "owner": owner, "now": ns(now), "until": ns(now.Add(lease))}
	rows, err := db.pool.Query(ctx, `WITH c AS (
	SELECT tenant, key FROM requests WHERE tenant = @tenant AND `+claimable+`
	ORDER BY created_ns, key FOR UPDATE SKIP LOCKED
)
UPDATE requests r SET lease_owner = @owner, lease_until_ns = @until FROM c
WHERE r.tenant = c.tenant AND r.key = c.key
RETURNING r.created_ns, r.key, r.record::text`, args)
	if err != nil {
		return nil, fmt.Errorf("claim pending: %w", ctxErr(ctx, err))
	}
	type claimed struct {
		created int64
		key     string
		r       *store.Request
	}
	cs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (claimed, error) {
		var c claimed
		var rec string
		if err := row.Scan(&c.created, &c.key, &rec); err != nil {
			return c, err
		}
		c.r = new(store.Request)
		return c, fromJSONB(rec, c.r)
	})
	if err != nil {
		return nil, fmt.Errorf("claim pending: %w", ctxErr(ctx, err))
	}
	slices.SortFunc(cs, func(a, b claimed) int {
		if a.created != b.created {
			return cmp.Compare(a.created, b.created)
		}
		return strings.Compare(a.key, b.key)
	})
	var out []*store.Request
	for _, c := range cs {
		out = append(out, c.r)
	}
	return out, nil
}

// RenewLease extends owner's lease of the request to now+lease. It
// returns an error wrapping store.ErrLeaseLost if owner does not hold it
// (it was taken over, or the request is finished). A lease <= 0 releases
// owner's lease, so that another replica can claim the request at once.
func (db *DB) RenewLease(ctx context.Context, tenant, key, owner string, lease time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if tenant == "" {
		return fmt.Errorf("renew lease %s: %w", key, store.ErrNoTenant)
	}
	args := pgx.NamedArgs{"tenant": pgText(tenant), "key": pgText(key), "owner": owner}
	if lease <= 0 {
		_, err := db.pool.Exec(ctx, `UPDATE requests SET lease_owner = '', lease_until_ns = 0
WHERE tenant = @tenant AND key = @key AND lease_owner = @owner`, args)
		if err != nil {
			return fmt.Errorf("release lease %s: %w", key, ctxErr(ctx, err))
		}
		return nil
	}
	args["until"] = ns(db.now().UTC().Add(lease))
	tag, err := db.pool.Exec(ctx, `UPDATE requests SET lease_until_ns = @until
WHERE tenant = @tenant AND key = @key AND lease_owner = @owner AND state = 'pending'`, args)
	if err != nil {
		return fmt.Errorf("renew lease %s: %w", key, ctxErr(ctx, err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("renew lease %s: %w", key, store.ErrLeaseLost)
	}
	return nil
}
