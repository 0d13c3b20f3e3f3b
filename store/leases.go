package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// Leases: a pending request is run by the owner (a replica of factbot
// serve) that holds its lease. ClaimRequest and ClaimPending take the
// lease of pending requests whose lease is free, expired or already the
// owner's, until now+lease; RenewLease extends it while the request runs
// and releases it after. Two owners never hold one request's lease at
// once, so a request runs on one replica at a time, and a request whose
// replica died is taken over once its lease runs out. A finished request
// is never claimed.
//
// A bbolt file is used by one process, so its leases (and those of other
// one-process drivers) are kept in memory (leaseTable): they end with the
// process, and a restart resumes its requests at once, as before leases.
// A driver shared by several processes (PostgreSQL) keeps them as records
// (bucket leases, "owner\x00until unix nanos" by request key), each take
// or renewal one atomic step of the driver (Leaser) or, without it, a
// serializable update (takeLease).

// ErrLeaseLost is returned by RenewLease when the owner no longer holds
// the request's lease: another owner took it over after it expired, or the
// request is finished. The owner must stop working on the request.
var ErrLeaseLost = errors.New("lease lost: the request is another owner's now, or finished")

// leaseKey names one request.
type leaseKey struct{ tenant, key string }

// lease is one request's holder.
type lease struct {
	owner string
	until time.Time
}

// leaseTable holds the leases of a driver used by one process, in
// memory. The zero leaseTable is empty and ready; it is safe for
// concurrent use.
type leaseTable struct {
	mu     sync.Mutex
	leases map[leaseKey]lease
}

// Claim takes the lease of the request tenant/key for owner until now+d if
// it is free, expired or owner's, and the request, read with get while the
// table is locked, is pending. It returns the request, or nil if it was
// not claimed (another owner holds it, or it is finished). get returns an
// error wrapping ErrNotFound for an unknown request.
func (lt *leaseTable) Claim(tenant, key, owner string, now time.Time, d time.Duration, get func() (*Request, error)) (*Request, error) {
	if owner == "" {
		return nil, errors.New("claim request: empty owner")
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	k := leaseKey{tenant, key}
	if l, ok := lt.leases[k]; ok && l.owner != owner && now.Before(l.until) {
		return nil, nil
	}
	r, err := get()
	if err != nil {
		return nil, err
	}
	if r.State != RequestPending {
		delete(lt.leases, k)
		return nil, nil
	}
	if lt.leases == nil {
		lt.leases = map[leaseKey]lease{}
	}
	lt.leases[k] = lease{owner: owner, until: now.Add(d)}
	return r, nil
}

// Renew extends owner's lease of tenant/key to now+d, or releases it if d
// <= 0 (then it is not an error that owner does not hold it). state
// returns the request's state, read while the table is locked. It returns
// ErrLeaseLost if owner does not hold the lease or the request is not
// pending.
func (lt *leaseTable) Renew(tenant, key, owner string, now time.Time, d time.Duration, state func() (string, error)) error {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	k := leaseKey{tenant, key}
	l, ok := lt.leases[k]
	held := ok && l.owner == owner
	if d <= 0 {
		if held {
			delete(lt.leases, k)
		}
		return nil
	}
	if !held {
		return ErrLeaseLost
	}
	st, err := state()
	if err != nil {
		return err
	}
	if st != RequestPending {
		delete(lt.leases, k)
		return ErrLeaseLost
	}
	lt.leases[k] = lease{owner: owner, until: now.Add(d)}
	return nil
}

// ClaimRequest takes the lease of one pending request for owner until
// now+lease, if its lease is free, expired or already owner's. It returns
// the request as stored, or nil if it was not claimed: another owner holds
// it, or it is finished. An unknown request is an error wrapping
// ErrNotFound.
func (db *DB) ClaimRequest(ctx context.Context, tenant, key, owner string, lease time.Duration) (*Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if tenant == "" {
		return nil, fmt.Errorf("claim request %s: %w", key, ErrNoTenant)
	}
	var r *Request
	var err error
	if db.shared() {
		if owner == "" {
			return nil, fmt.Errorf("claim request %s: empty owner", key)
		}
		r, err = db.leaseShared(ctx, tenant, key, owner, lease, false)
	} else {
		r, err = db.leases.Claim(tenant, key, owner, db.now().UTC(), lease, func() (*Request, error) {
			return db.Request(ctx, tenant, key)
		})
	}
	if err != nil {
		return nil, fmt.Errorf("claim request %s: %w", key, err)
	}
	return r, nil
}

// ClaimPending claims, as ClaimRequest does, every pending request of the
// tenant that owner can claim, and returns them oldest first.
func (db *DB) ClaimPending(ctx context.Context, tenant, owner string, lease time.Duration) ([]*Request, error) {
	pend, err := db.PendingRequests(ctx, tenant)
	if err != nil {
		return nil, err
	}
	var out []*Request
	for _, p := range pend {
		r, err := db.ClaimRequest(ctx, tenant, p.Key, owner, lease)
		if errors.Is(err, ErrNotFound) {
			continue // removed meanwhile
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

// RenewLease extends owner's lease of the request to now+lease. It
// returns an error wrapping ErrLeaseLost if owner does not hold it (it was
// taken over, or the request is finished). A lease <= 0 releases owner's
// lease, so that another owner can claim the request at once.
func (db *DB) RenewLease(ctx context.Context, tenant, key, owner string, lease time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if tenant == "" {
		return fmt.Errorf("renew lease %s: %w", key, ErrNoTenant)
	}
	if db.shared() {
		var err error
		if lease <= 0 {
			err = db.releaseShared(ctx, tenant, key, owner)
		} else if r, lerr := db.leaseShared(ctx, tenant, key, owner, lease, true); errors.Is(lerr, ErrNotFound) || lerr == nil && r == nil {
			err = ErrLeaseLost
		} else {
			err = lerr
		}
		if err != nil {
			return fmt.Errorf("renew lease %s: %w", key, err)
		}
		return nil
	}
	err := db.leases.Renew(tenant, key, owner, db.now().UTC(), lease, func() (string, error) {
		r, err := db.Request(ctx, tenant, key)
		if errors.Is(err, ErrNotFound) {
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

var bLeases = []byte("leases")

// shared reports whether other processes use the driver: leases are then
// records.
func (db *DB) shared() bool {
	_, one := db.drv.(interface{ OneProcess() })
	return !one
}

// leaseRecord returns the holder of the lease record v.
func leaseRecord(v []byte) (lease, bool) {
	owner, until, ok := bytes.Cut(v, []byte{0})
	if !ok {
		return lease{}, false
	}
	n, err := strconv.ParseInt(string(until), 10, 64)
	return lease{owner: string(owner), until: time.Unix(0, n)}, err == nil
}

// leaseShared takes (renew false) or renews owner's lease record of the
// request tenant/key until now+d, natively (Leaser) or in a serializable
// update. It returns the request, read in the same step, or nil if the
// lease was not taken; a request found finished loses owner's lease. An
// unknown request is an error wrapping ErrNotFound.
func (db *DB) leaseShared(ctx context.Context, tenant, key, owner string, d time.Duration, renew bool) (*Request, error) {
	now := db.now().UTC()
	l := Lease{Bucket: Bucket{tenant, string(bLeases)}, Read: Bucket{tenant, string(bRequests)},
		Key: []byte(key), Owner: owner, Now: now, Until: now.Add(d), Renew: renew}
	var v []byte
	var ok bool
	var err error
	if lr, native := db.drv.(Leaser); native {
		v, ok, err = lr.Lease(ctx, l)
	} else {
		err = db.drv.Update(ctx, func(tx Tx) (err error) {
			v, ok, err = takeLease(tx, l)
			return err
		})
	}
	switch {
	case err != nil:
		return nil, err
	case v == nil:
		return nil, fmt.Errorf("request %q: %w", key, ErrNotFound)
	case !ok:
		return nil, nil
	}
	var r Request
	if err := decode(v, &r); err != nil {
		return nil, err
	}
	if r.State != RequestPending {
		return nil, db.releaseShared(ctx, tenant, key, owner)
	}
	return &r, nil
}

// releaseShared deletes owner's lease record of the request, if owner
// holds it.
func (db *DB) releaseShared(ctx context.Context, tenant, key, owner string) error {
	return db.drv.Update(ctx, func(tx Tx) error {
		lb := sub(&tenantTx{tx, tenant}, bLeases)
		if l, ok := leaseRecord(lb.Get([]byte(key))); ok && l.owner == owner {
			return lb.Delete([]byte(key))
		}
		return nil
	})
}

// takeLease is Leaser.Lease in a transaction (the fallback).
func takeLease(tx Tx, l Lease) ([]byte, bool, error) {
	read := bytes.Clone(tx.Get(l.Read, l.Key))
	cur, held := leaseRecord(tx.Get(l.Bucket, l.Key))
	mine := held && cur.owner == l.Owner
	if read == nil || !mine && (l.Renew || held && l.Now.Before(cur.until)) {
		return read, false, nil
	}
	err := tx.Put(l.Bucket, l.Key, []byte(l.Owner+"\x00"+strconv.FormatInt(l.Until.UnixNano(), 10)))
	return read, err == nil, err
}
