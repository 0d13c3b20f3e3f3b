package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"time"
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
	// Visibility is who can read Channel (unknown: treated as not public);
	// the check made for the request copies it.
	Visibility Visibility `json:"visibility,omitempty"`
	// CacheRefs are the cache records a run for the request used or wrote
	// (see CacheRecorder), when no check was saved to carry them.
	CacheRefs []CacheRef `json:"cache_refs,omitempty"`
	// Refused marks what is left of a refused request (see RefuseRequest):
	// its key, for deduplication, and no content. Prune removes it after
	// RefusedTTL.
	Refused bool `json:"refused,omitempty"`
	// Notice is the refusal still to be told to the asker: the request
	// stays pending (with no text) until it is, and is then refused
	// (RefuseRequest). Resumed, it is told again, never run.
	Notice string `json:"notice,omitempty"`
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
	if r.Tenant == "" {
		return false, fmt.Errorf("accept request %s: %w", r.Key, ErrNoTenant)
	}
	recs, err := requestRecords(r, db.nat != nil)
	if err != nil {
		return false, fmt.Errorf("accept request %s: %w", r.Key, err)
	}
	// The native path inserts in one statement (one record: a pending
	// request's time is kept beside it); on the portable one concurrent
	// accepts (and request updates) share one transaction and one fsync
	// (group commit), so a burst of chat events is acknowledged quickly.
	var isNew bool
	if db.nat != nil && len(recs) == 1 {
		isNew, err = db.nat.Insert(ctx, recs[0])
	} else {
		err = db.requests.Do(func(tx *txn) error {
			if isNew = tx.Get(recs[0].Bucket, recs[0].Key) == nil; !isNew {
				return nil
			}
			return putRecords(tx, recs)
		})
	}
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
	err := db.requests.Do(func(tx *txn) error {
		return inTenant(tx, tenant, func(tb *tenantTx) error {
			old, err := getRequest(tb, key)
			if err != nil {
				return err
			}
			r := *old
			r.Meta = maps.Clone(old.Meta)
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

// RefusedTTL is how long the dedupe record of a refused request is kept:
// longer than any platform redelivers an event.
const RefusedTTL = 24 * time.Hour

// RefuseRequest finishes a refused request (e.g. over a rate limit) and
// keeps only what deduplication needs: the stored request becomes a failed
// record with Refused set, its key, tenant, platform and kind, and nothing
// the person sent (text, user, channel, meta). Prune removes it once it is
// RefusedTTL old, whatever its cutoff. The write shares the group commit of
// the accepts. It returns an error wrapping ErrNotFound for an unknown key.
func (db *DB) RefuseRequest(ctx context.Context, tenant, key string) error {
	return db.UpdateRequest(ctx, tenant, key, func(r *Request) error {
		*r = Request{Key: r.Key, Tenant: r.Tenant, Platform: r.Platform, Kind: r.Kind, State: RequestFailed, Refused: true}
		return nil
	})
}

// Request returns one request, or an error wrapping ErrNotFound.
func (db *DB) Request(ctx context.Context, tenant, key string) (*Request, error) {
	var r *Request
	err := db.read(ctx, tenant, func(tb *tenantTx) (err error) {
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
	var out []string
	err := db.run(ctx, ModeView, func(tx *txn) error {
		for _, name := range tx.Tenants() {
			if len(pendingKeys(&tenantTx{tx, name}, 1)) > 0 {
				out = append(out, name)
			}
		}
		return nil
	})
	return out, err
}

// PendingRequests lists one tenant's unfinished requests, oldest first.
func (db *DB) PendingRequests(ctx context.Context, tenant string) ([]*Request, error) {
	var out []*Request
	err := db.view(ctx, tenant, func(tb *tenantTx) error {
		keys := pendingKeys(tb, 0)
		if n := tb.tx.nat; n != nil {
			n.Prefetch(tb.Bucket(bRequests).b, keys)
		}
		for _, k := range keys {
			r, err := getRequest(tb, string(k))
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

func getRequest(tb *tenantTx, key string) (*Request, error) {
	var r Request
	if err := getRecord(tb.Bucket(bRequests), []byte(key), &r); err != nil {
		return nil, fmt.Errorf("request %q: %w", key, err)
	}
	return &r, nil
}

// pendingKeys returns the keys of the tenant's pending requests, oldest
// first, at most limit of them (0: all). The native path keeps a pending
// request's creation time beside it; the portable one lists them in the
// pending index (its keys: the creation time, then the request's key).
func pendingKeys(tb *tenantTx, limit int) [][]byte {
	if n := tb.tx.nat; n != nil {
		return n.Timed(tb.Bucket(bRequests).b, limit)
	}
	var keys [][]byte
	c := tb.Bucket(bPending).Cursor()
	for k, _ := c.First(); k != nil && (limit == 0 || len(keys) < limit); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k[8:]))
	}
	return keys
}

func pendingKey(r *Request) []byte {
	k := make([]byte, 8, 8+len(r.Key))
	binary.BigEndian.PutUint64(k, uint64(r.CreatedAt.UnixNano()))
	return append(k, r.Key...)
}

// requestRecords returns the records that store r: the request and, while
// it is pending, its creation time (timed: on the native path) or its
// entry in the pending index.
func requestRecords(r *Request, timed bool) ([]Record, error) {
	v, err := encode(r)
	recs := []Record{{Bucket: Bucket{r.Tenant, string(bRequests)}, Key: []byte(r.Key), Value: v}}
	switch {
	case r.State != RequestPending:
	case timed:
		recs[0].Time = r.CreatedAt
	default:
		recs = append(recs, Record{Bucket: Bucket{r.Tenant, string(bPending)}, Key: pendingKey(r)})
	}
	return recs, err
}

// putRequest writes r, keeping the pending index (or times) in step with
// its state; old is the stored version, if any.
func putRequest(tb *tenantTx, old, r *Request) error {
	timed := tb.tx.nat != nil
	if old != nil && old.State == RequestPending && !timed {
		if err := tb.Bucket(bPending).Delete(pendingKey(old)); err != nil {
			return err
		}
	}
	recs, err := requestRecords(r, timed)
	if err != nil {
		return err
	}
	return putRecords(tb.tx, recs)
}

// putRecords writes recs, and their times (set on the native path only).
func putRecords(tx *txn, recs []Record) error {
	for _, rec := range recs {
		err := tx.Put(rec.Bucket, rec.Key, rec.Value)
		if err == nil && !rec.Time.IsZero() {
			err = tx.nat.SetTimes(rec.Bucket, [][]byte{rec.Key}, []time.Time{rec.Time})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// requestsWhere returns the requests of tenant bucket tb that keep
// accepts, in key order.
func requestsWhere(tb *tenantTx, keep func(*Request) bool) ([]*Request, error) {
	var reqs []*Request
	err := eachRecord(tb.Bucket(bRequests), nil, func(_ []byte, r *Request) error {
		if keep(r) {
			reqs = append(reqs, r)
		}
		return nil
	})
	return reqs, err
}

// deleteRequest removes a request and its pending entry.
func deleteRequest(tb *tenantTx, r *Request) error {
	if r.State == RequestPending && tb.tx.nat == nil {
		if err := tb.Bucket(bPending).Delete(pendingKey(r)); err != nil {
			return err
		}
	}
	if err := tb.Bucket(bLeases).Delete([]byte(r.Key)); err != nil {
		return err
	}
	return tb.Bucket(bRequests).Delete([]byte(r.Key))
}
