package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
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
// Each lease is a record (bucket leases, "owner\x00until unix nanos" by
// request key), taken or renewed in one atomic step of the driver on the
// native path (Native.Lease) or, on the portable one, in a serializable
// update (takeLease). On a driver used by one process (bbolt) they are
// records of an in-memory driver (memLeases): they end with the process,
// and a restart resumes its requests at once.

// ErrLeaseLost is returned by RenewLease when the owner no longer holds
// the request's lease: another owner took it over after it expired, or the
// request is finished. The owner must stop working on the request.
var ErrLeaseLost = errors.New("lease lost: the request is another owner's now, or finished")

// lease is one request's holder.
type lease struct {
	owner string
	until time.Time
}

// ClaimRequest takes the lease of one pending request for owner until
// now+lease, if its lease is free, expired or already owner's. It returns
// the request as stored, or nil if it was not claimed: another owner holds
// it, or it is finished. An unknown request is an error wrapping
// ErrNotFound.
func (db *DB) ClaimRequest(ctx context.Context, tenant, key, owner string, lease time.Duration) (*Request, error) {
	if tenant == "" {
		return nil, fmt.Errorf("claim request %s: %w", key, ErrNoTenant)
	}
	if owner == "" {
		return nil, fmt.Errorf("claim request %s: empty owner", key)
	}
	r, err := db.lease(ctx, tenant, key, owner, lease, false)
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
	if tenant == "" {
		return fmt.Errorf("renew lease %s: %w", key, ErrNoTenant)
	}
	var err error
	if lease <= 0 {
		err = db.release(ctx, tenant, key, owner)
	} else if r, lerr := db.lease(ctx, tenant, key, owner, lease, true); errors.Is(lerr, ErrNotFound) || lerr == nil && r == nil {
		err = ErrLeaseLost
	} else {
		err = lerr
	}
	if err != nil {
		return fmt.Errorf("renew lease %s: %w", key, err)
	}
	return nil
}

var bLeases = []byte("leases")

// leaseRecord returns the holder of the lease record v.
func leaseRecord(v []byte) (lease, bool) {
	owner, until, ok := bytes.Cut(v, []byte{0})
	if !ok {
		return lease{}, false
	}
	n, err := strconv.ParseInt(string(until), 10, 64)
	return lease{owner: string(owner), until: time.Unix(0, n)}, err == nil
}

// lease takes (renew false) or renews owner's lease record of the request
// tenant/key until now+d. It returns the request, read in the same step,
// or nil if the lease was not taken; a request found finished loses
// owner's lease. An unknown request is an error wrapping ErrNotFound.
func (db *DB) lease(ctx context.Context, tenant, key, owner string, d time.Duration, renew bool) (*Request, error) {
	now := db.now().UTC()
	l := Lease{Bucket: Bucket{tenant, string(bLeases)}, Read: Bucket{tenant, string(bRequests)},
		Key: []byte(key), Owner: owner, Now: now, Until: now.Add(d), Renew: renew}
	var v []byte
	var ok bool
	var err error
	switch {
	case db.nat != nil:
		v, ok, err = db.nat.Lease(ctx, l)
	default:
		err = db.updateLeases(ctx, func(tx *txn) (err error) {
			read := tx.Get(l.Read, l.Key)
			if db.memLeases != nil { // read while the leases are locked
				err = db.run(ctx, ModeView, func(rtx *txn) error { read = bytes.Clone(rtx.Get(l.Read, l.Key)); return nil })
			}
			if err == nil {
				v, ok, err = takeLease(tx, l, read)
			}
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
		return nil, db.release(ctx, tenant, key, owner)
	}
	return &r, nil
}

// updateLeases runs fn in an update of the lease records: of memLeases,
// or else of the driver.
func (db *DB) updateLeases(ctx context.Context, fn func(*txn) error) error {
	if db.memLeases == nil {
		return db.update(ctx, fn)
	}
	return db.memLeases.Update(ctx, func(tx Tx) error { return fn(&txn{Tx: tx}) })
}

// release deletes owner's lease record of the request, if owner holds it.
func (db *DB) release(ctx context.Context, tenant, key, owner string) error {
	return db.updateLeases(ctx, func(tx *txn) error {
		lb := (&tenantTx{tx, tenant}).Bucket(bLeases)
		if l, ok := leaseRecord(lb.Get([]byte(key))); ok && l.owner == owner {
			return lb.Delete([]byte(key))
		}
		return nil
	})
}

// takeLease is Native.Lease in a transaction (the portable path), read
// the record l.Read/l.Key.
func takeLease(tx Tx, l Lease, read []byte) ([]byte, bool, error) {
	read = bytes.Clone(read)
	cur, held := leaseRecord(tx.Get(l.Bucket, l.Key))
	mine := held && cur.owner == l.Owner
	if read == nil || !mine && (l.Renew || held && l.Now.Before(cur.until)) {
		return read, false, nil
	}
	err := tx.Put(l.Bucket, l.Key, []byte(l.Owner+"\x00"+strconv.FormatInt(l.Until.UnixNano(), 10)))
	return read, err == nil, err
}
