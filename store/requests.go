package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Request states.
const (
	RequestPending = "pending"
	RequestDone    = "done"
	RequestFailed  = "failed"
)

// Request is a durable request from chat (or the CLI), stored before it is
// acknowledged and keyed by the platform's own event or interaction id.
type Request struct {
	Key      string `json:"key"`      // platform idempotency key, e.g. "slack:event:Ev0123"
	Tenant   string `json:"tenant"`   // Slack team id, Discord guild id, or "cli"
	Platform string `json:"platform"` // "slack", "discord", "cli"
	Kind     string `json:"kind"`     // "mention", "command", "shortcut", "recheck", ...
	Channel  string `json:"channel,omitempty"`
	Thread   string `json:"thread,omitempty"` // where to reply: thread ts / message id
	Link     string `json:"link,omitempty"`   // permalink to the asked message, if known
	User     string `json:"user,omitempty"`
	Text     string `json:"text"`
	Private  bool   `json:"private,omitempty"` // answer visible to the asker only
	Fresh    bool   `json:"fresh,omitempty"`   // ignore the verdict cache
	// Reply is an opaque handle of the placeholder reply once posted.
	Reply string            `json:"reply,omitempty"`
	Meta  map[string]string `json:"meta,omitempty"` // adapter-specific extras
	State string            `json:"state"`          // RequestPending, RequestDone, RequestFailed
	// CheckID is the saved check. SaveCheck sets it as soon as a check with
	// this RequestKey is saved, before the request is finished, so a resumed
	// request can re-post the saved answer instead of checking again.
	CheckID   string    `json:"check_id,omitempty"`
	Attempts  int       `json:"attempts,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// AcceptRequest stores r durably (the commit is fsync'd) unless a request
// with the same Tenant and Key exists. It returns true if r is new, false for
// a redelivery (nothing is written). State defaults to RequestPending and
// CreatedAt to now; r is updated with what was stored.
func (db *DB) AcceptRequest(ctx context.Context, r *Request) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if r.Key == "" {
		return false, fmt.Errorf("accept request: empty key")
	}
	if r.State == "" {
		r.State = RequestPending
	}
	if err := validState(r.State); err != nil {
		return false, fmt.Errorf("accept request: %w", err)
	}
	now := db.now().UTC()
	if r.CreatedAt.IsZero() {
		r.CreatedAt = now
	}
	r.UpdatedAt = now
	isNew := false
	// Concurrent accepts (and request updates) share one transaction and
	// one fsync (group commit), so a burst of chat events is acknowledged
	// quickly; fn may run more than once, so it sets isNew afresh.
	err := db.requests.do(func(tx *bolt.Tx) error {
		isNew = false
		tb, err := tenantBucket(tx, r.Tenant)
		if err != nil {
			return err
		}
		if sub(tb, bRequests).Get([]byte(r.Key)) != nil {
			return nil
		}
		isNew = true
		return putRequest(tb, nil, r)
	})
	if err != nil {
		return false, fmt.Errorf("accept request %s: %w", r.Key, err)
	}
	return isNew, nil
}

// UpdateRequest loads the request, lets fn change it, and saves it (e.g. to
// record Reply or Attempts). Key and Tenant cannot change. If fn returns an
// error nothing is saved and the error is returned. The write shares its
// commit with concurrent request writes, so fn may be called more than once
// (each time on a fresh copy of the stored request): it should only set
// fields.
func (db *DB) UpdateRequest(ctx context.Context, tenant, key string, fn func(*Request) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := db.requests.do(func(tx *bolt.Tx) error {
		tb, err := tenantBucket(tx, tenant)
		if err != nil {
			return err
		}
		old, err := getRequest(tb, key)
		if err != nil {
			return err
		}
		r := *old
		r.Meta = cloneMeta(old.Meta)
		if err := fn(&r); err != nil {
			return err
		}
		r.Key, r.Tenant, r.CreatedAt = old.Key, old.Tenant, old.CreatedAt
		if err := validState(r.State); err != nil {
			return err
		}
		r.UpdatedAt = db.now().UTC()
		return putRequest(tb, old, &r)
	})
	if err != nil {
		return fmt.Errorf("update request %s: %w", key, err)
	}
	return nil
}

// FinishRequest marks the request done (or failed, with state) and records
// the check id (an empty checkID keeps the one SaveCheck recorded).
func (db *DB) FinishRequest(ctx context.Context, tenant, key, state, checkID string) error {
	if state != RequestDone && state != RequestFailed {
		return fmt.Errorf("finish request %s: state %q is not %q or %q", key, state, RequestDone, RequestFailed)
	}
	return db.UpdateRequest(ctx, tenant, key, func(r *Request) error {
		r.State = state
		if checkID != "" {
			r.CheckID = checkID
		}
		return nil
	})
}

// Request returns one request, or an error wrapping ErrNotFound.
func (db *DB) Request(ctx context.Context, tenant, key string) (*Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var r *Request
	err := db.bolt.View(func(tx *bolt.Tx) error {
		tb, err := tenantBucket(tx, tenant)
		if err != nil {
			return err
		}
		r, err = getRequest(tb, key)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("request %s: %w", key, err)
	}
	return r, nil
}

// Tenants lists the tenants that have pending requests, for the resume at
// start-up (which then asks each tenant's PendingRequests).
func (db *DB) Tenants(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []string
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bTenants).ForEachBucket(func(name []byte) error {
			p := sub(tx.Bucket(bTenants).Bucket(name), bPending)
			if p != nil {
				if k, _ := p.Cursor().First(); k != nil {
					out = append(out, string(name))
				}
			}
			return nil
		})
	})
	return out, err
}

// PendingRequests lists one tenant's unfinished requests, oldest first.
func (db *DB) PendingRequests(ctx context.Context, tenant string) ([]*Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []*Request
	err := db.bolt.View(func(tx *bolt.Tx) error {
		tb, err := tenantBucket(tx, tenant)
		if err != nil || tb == nil {
			return err
		}
		p := sub(tb, bPending)
		if p == nil {
			return nil
		}
		c := p.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			r, err := getRequest(tb, string(k[8:]))
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("pending requests: %w", err)
	}
	return out, nil
}

func validState(s string) error {
	switch s {
	case RequestPending, RequestDone, RequestFailed:
		return nil
	}
	return fmt.Errorf("unknown request state %q", s)
}

func cloneMeta(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func getRequest(tb *bolt.Bucket, key string) (*Request, error) {
	v := get(sub(tb, bRequests), []byte(key))
	if v == nil {
		return nil, fmt.Errorf("request %q: %w", key, ErrNotFound)
	}
	var r Request
	if err := decode(v, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func pendingKey(r *Request) []byte {
	k := make([]byte, 8, 8+len(r.Key))
	binary.BigEndian.PutUint64(k, uint64(r.CreatedAt.UnixNano()))
	return append(k, r.Key...)
}

// putRequest writes r, keeping the pending index in step with its state;
// old is the stored version, if any.
func putRequest(tb *bolt.Bucket, old, r *Request) error {
	v, err := encode(r)
	if err != nil {
		return err
	}
	if err := sub(tb, bRequests).Put([]byte(r.Key), v); err != nil {
		return err
	}
	p := sub(tb, bPending)
	if old != nil && old.State == RequestPending {
		if err := p.Delete(pendingKey(old)); err != nil {
			return err
		}
	}
	if r.State == RequestPending {
		return p.Put(pendingKey(r), nil)
	}
	return nil
}

// deleteRequest removes a request and its pending entry.
func deleteRequest(tb *bolt.Bucket, r *Request) error {
	if r.State == RequestPending {
		if err := sub(tb, bPending).Delete(pendingKey(r)); err != nil {
			return err
		}
	}
	return sub(tb, bRequests).Delete([]byte(r.Key))
}

// maxGroup bounds the writes sharing one commit.
const maxGroup = 1000

// groupCommit commits request writes in groups: a write that arrives while
// a commit is in progress waits for it, then is committed together with
// every other write that arrived meanwhile, in one transaction and one
// fsync. A write that finds nothing in progress commits at once: unlike
// bbolt's Batch there is no timer, so a lone acknowledgement pays one
// fsync, and a burst pays one fsync per group instead of one per request.
//
// The group is gathered after the writer lock is taken, so writes that
// queue behind another transaction (SaveCheck, …) join the same group.
type groupCommit struct {
	db      *bolt.DB
	mu      sync.Mutex
	pending []*groupOp
	running bool
}

type groupOp struct {
	fn   func(*bolt.Tx) error
	done chan error
}

// errTrySolo tells a write's caller that its function failed inside a group
// (which was rolled back): it is run again alone, for its own error.
var errTrySolo = errors.New("store: run the write alone")

// do runs fn in a read-write transaction shared with concurrent writes and
// returns once that transaction is committed (fsync'd). fn may be called
// more than once; if it fails, nothing of it is written.
func (g *groupCommit) do(fn func(*bolt.Tx) error) error {
	op := &groupOp{fn: fn, done: make(chan error, 1)}
	g.mu.Lock()
	g.pending = append(g.pending, op)
	lead := !g.running
	g.running = true
	g.mu.Unlock()
	if lead {
		go g.run()
	}
	err := <-op.done
	if err == errTrySolo {
		err = g.db.Update(fn)
	}
	return err
}

// run commits groups until no write is pending.
func (g *groupCommit) run() {
	var retry []*groupOp // the rest of a group that failed
	for {
		g.mu.Lock()
		if len(retry) == 0 && len(g.pending) == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		var ops []*groupOp
		failed := -1
		err := g.db.Update(func(tx *bolt.Tx) error {
			// Gather under the writer lock: everything that queued while
			// the previous commit (ours or anyone's) held it.
			g.mu.Lock()
			ops = g.take(retry)
			g.mu.Unlock()
			retry = nil
			for i, op := range ops {
				if err := safeCall(op.fn, tx); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		if ops == nil { // the transaction did not start (e.g. the file is closed)
			g.mu.Lock()
			ops = g.take(retry)
			g.mu.Unlock()
			retry = nil
		}
		if failed >= 0 {
			ops[failed].done <- errTrySolo
			retry = append(ops[:failed:failed], ops[failed+1:]...)
			continue
		}
		for _, op := range ops {
			op.done <- err
		}
	}
}

// take returns retry followed by pending writes, at most maxGroup in all,
// and removes those from the pending list. g.mu is held.
func (g *groupCommit) take(retry []*groupOp) []*groupOp {
	n := min(len(g.pending), max(0, maxGroup-len(retry)))
	ops := append(retry, g.pending[:n]...)
	if n == len(g.pending) {
		g.pending = nil
	} else {
		g.pending = append([]*groupOp(nil), g.pending[n:]...)
	}
	return ops
}

// safeCall runs fn, turning a panic into an error (the write is then run
// again alone, where it panics in its caller's goroutine).
func safeCall(fn func(*bolt.Tx) error, tx *bolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return fn(tx)
}
