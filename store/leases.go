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
// (bucket leases, "owner\x00until unix nanos" by request key), read and
// written in its serializable transactions; a claim skips a lease record
// another transaction holds when the driver can tell (Locker).

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
		err = db.drv.Update(ctx, func(tx Tx) error {
			r, err = claimRecord(&tenantTx{tx, tenant}, key, owner, db.now().UTC(), lease)
			return err
		})
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
		err := db.drv.Update(ctx, func(tx Tx) error {
			return renewRecord(&tenantTx{tx, tenant}, key, owner, db.now().UTC(), lease)
		})
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

func putLease(tb *tenantTx, key, owner string, until time.Time) error {
	return sub(tb, bLeases).Put([]byte(key), []byte(owner+"\x00"+strconv.FormatInt(until.UnixNano(), 10)))
}

// claimRecord is leaseTable.Claim over lease records.
func claimRecord(tb *tenantTx, key, owner string, now time.Time, d time.Duration) (*Request, error) {
	if owner == "" {
		return nil, errors.New("claim request: empty owner")
	}
	lb := sub(tb, bLeases)
	v := lb.Get([]byte(key))
	if l, ok := leaseRecord(v); ok && l.owner != owner && now.Before(l.until) {
		return nil, nil
	}
	// Another replica writing the lease is claiming or renewing it.
	if lk, ok := tb.tx.(Locker); ok && v != nil && !lk.TryLock(lb.b, []byte(key)) {
		return nil, nil
	}
	r, err := getRequest(tb, key)
	if err != nil {
		return nil, err
	}
	if r.State != RequestPending {
		return nil, sub(tb, bLeases).Delete([]byte(key))
	}
	return r, putLease(tb, key, owner, now.Add(d))
}

// renewRecord is leaseTable.Renew over lease records.
func renewRecord(tb *tenantTx, key, owner string, now time.Time, d time.Duration) error {
	l, ok := leaseRecord(sub(tb, bLeases).Get([]byte(key)))
	held := ok && l.owner == owner
	if d <= 0 {
		if held {
			return sub(tb, bLeases).Delete([]byte(key))
		}
		return nil
	}
	if !held {
		return ErrLeaseLost
	}
	r, err := getRequest(tb, key)
	if errors.Is(err, ErrNotFound) || (err == nil && r.State != RequestPending) {
		if err := sub(tb, bLeases).Delete([]byte(key)); err != nil {
			return err
		}
		return ErrLeaseLost
	}
	if err != nil {
		return err
	}
	return putLease(tb, key, owner, now.Add(d))
}
