package postgres

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/jackc/pgx/v5"

	"github.com/factbot-dev/factbot/store"
)

// AcceptRequest stores r unless the tenant has a request with its Key
// (the primary key decides, so replicas receiving one event twice store it
// once). It returns true if r is new, false for a redelivery (nothing is
// written). State defaults to store.RequestPending and CreatedAt to now;
// r is updated with what was stored.
func (db *DB) AcceptRequest(ctx context.Context, r *store.Request) (bool, error) {
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
	now := db.now().UTC()
	if r.CreatedAt.IsZero() {
		r.CreatedAt = now
	}
	r.UpdatedAt = now
	if r.Tenant == "" {
		return false, fmt.Errorf("accept request %s: %w", r.Key, store.ErrNoTenant)
	}
	args, err := requestArgs(r)
	if err != nil {
		return false, fmt.Errorf("accept request %s: %w", r.Key, err)
	}
	tag, err := db.pool.Exec(ctx, `INSERT INTO requests (tenant, key, state, user_id, refused, created_ns, updated_ns, record)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb) ON CONFLICT (tenant, key) DO NOTHING`, args...)
	if err != nil {
		return false, fmt.Errorf("accept request %s: %w", r.Key, ctxErr(ctx, err))
	}
	return tag.RowsAffected() == 1, nil
}

// requestArgs returns the column values of r, in the order of the columns
// of the requests table.
func requestArgs(r *store.Request) ([]any, error) {
	rec, err := toJSONB(r)
	if err != nil {
		return nil, err
	}
	return []any{pgText(r.Tenant), pgText(r.Key), r.State, pgText(r.User), r.Refused, ns(r.CreatedAt), ns(r.UpdatedAt), rec}, nil
}

// putRequest replaces the stored request r (same tenant and key).
func putRequest(ctx context.Context, tx pgx.Tx, r *store.Request) error {
	args, err := requestArgs(r)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE requests SET state = $3, user_id = $4, refused = $5, created_ns = $6, updated_ns = $7, record = $8::jsonb
WHERE tenant = $1 AND key = $2`, args...)
	return err
}

// UpdateRequest loads the request, lets fn change it, and saves it, in one
// transaction holding the request's row lock, so replicas updating one
// request take turns. Key, Tenant and CreatedAt cannot change. If fn
// returns an error nothing is saved and the error is returned.
func (db *DB) UpdateRequest(ctx context.Context, tenant, key string, fn func(*store.Request) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := db.updateRequest(ctx, tenant, key, func(old *store.Request) (*store.Request, error) {
		r := *old
		r.Meta = maps.Clone(old.Meta)
		if err := fn(&r); err != nil {
			return nil, err
		}
		r.Key, r.Tenant, r.CreatedAt = old.Key, old.Tenant, old.CreatedAt
		if err := validState(r.State); err != nil {
			return nil, err
		}
		return &r, nil
	})
	if err != nil {
		return fmt.Errorf("update request %s: %w", key, ctxErr(ctx, err))
	}
	return nil
}

// updateRequest replaces the stored request by what change makes of it,
// stamped with the time.
func (db *DB) updateRequest(ctx context.Context, tenant, key string, change func(*store.Request) (*store.Request, error)) error {
	if tenant == "" {
		return store.ErrNoTenant
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		old, err := getRequest(ctx, tx, tenant, key, true)
		if err != nil {
			return err
		}
		r, err := change(old)
		if err != nil {
			return err
		}
		r.UpdatedAt = db.now().UTC()
		return putRequest(ctx, tx, r)
	})
}

// FinishRequest marks the request done (or failed, with state) and
// records the check id (an empty checkID keeps the one SaveCheck
// recorded).
func (db *DB) FinishRequest(ctx context.Context, tenant, key, state, checkID string) error {
	if state != store.RequestDone && state != store.RequestFailed {
		return fmt.Errorf("finish request %s: state %q is not %q or %q", key, state, store.RequestDone, store.RequestFailed)
	}
	return db.UpdateRequest(ctx, tenant, key, func(r *store.Request) error {
		r.State = state
		if checkID != "" {
			r.CheckID = checkID
		}
		return nil
	})
}

// RefuseRequest keeps only the dedupe record of a refused request (see
// store.RefusedStub). It returns an error wrapping store.ErrNotFound for
// an unknown key.
func (db *DB) RefuseRequest(ctx context.Context, tenant, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := db.updateRequest(ctx, tenant, key, func(old *store.Request) (*store.Request, error) {
		return store.RefusedStub(old), nil
	})
	if err != nil {
		return fmt.Errorf("refuse request %s: %w", key, ctxErr(ctx, err))
	}
	return nil
}

// Request returns one request, or an error wrapping store.ErrNotFound.
func (db *DB) Request(ctx context.Context, tenant, key string) (*store.Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if tenant == "" {
		return nil, fmt.Errorf("request %s: %w", key, store.ErrNoTenant)
	}
	r, err := getRequest(ctx, db.pool, tenant, key, false)
	if err != nil {
		return nil, fmt.Errorf("request %s: %w", key, ctxErr(ctx, err))
	}
	return r, nil
}

// querier is a pool, connection or transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// getRequest reads a request, locking its row for the transaction if
// forUpdate.
func getRequest(ctx context.Context, q querier, tenant, key string, forUpdate bool) (*store.Request, error) {
	sql := "SELECT record::text FROM requests WHERE tenant = $1 AND key = $2"
	if forUpdate {
		sql += " FOR UPDATE"
	}
	var rec string
	err := q.QueryRow(ctx, sql, pgText(tenant), pgText(key)).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("request %q: %w", key, store.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	var r store.Request
	if err := fromJSONB(rec, &r); err != nil {
		return nil, fmt.Errorf("request %q: %w", key, err)
	}
	return &r, nil
}

// Tenants lists the tenants that have pending requests, for the resume at
// start-up.
func (db *DB) Tenants(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows, err := db.pool.Query(ctx, `SELECT DISTINCT tenant FROM requests WHERE state = 'pending' ORDER BY tenant`)
	if err != nil {
		return nil, ctxErr(ctx, err)
	}
	ts, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (string, error) {
		var t string
		err := row.Scan(&t)
		return fromText(t), err
	})
	if err != nil {
		return nil, ctxErr(ctx, err)
	}
	if len(ts) == 0 {
		return nil, nil
	}
	return ts, nil
}

// PendingRequests lists one tenant's unfinished requests, oldest first.
func (db *DB) PendingRequests(ctx context.Context, tenant string) ([]*store.Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if tenant == "" {
		return nil, fmt.Errorf("pending requests: %w", store.ErrNoTenant)
	}
	rows, err := db.pool.Query(ctx, `SELECT record::text FROM requests WHERE tenant = $1 AND state = 'pending' ORDER BY created_ns, key`, pgText(tenant))
	if err != nil {
		return nil, fmt.Errorf("pending requests: %w", ctxErr(ctx, err))
	}
	out, err := collectJSON[store.Request](rows)
	if err != nil {
		return nil, fmt.Errorf("pending requests: %w", ctxErr(ctx, err))
	}
	return out, nil
}

// collectJSON decodes the one JSONB text column of each row.
func collectJSON[T any](rows pgx.Rows) ([]*T, error) {
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (*T, error) {
		var s string
		if err := row.Scan(&s); err != nil {
			return nil, err
		}
		v := new(T)
		return v, fromJSONB(s, v)
	})
}

func validState(s string) error {
	switch s {
	case store.RequestPending, store.RequestDone, store.RequestFailed:
		return nil
	}
	return fmt.Errorf("unknown request state %q", s)
}
