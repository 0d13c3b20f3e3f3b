// Package store keeps everything factbot learns: the verdict and
// extraction cache, the history of checks (the audit trail), durable chat
// requests and their leases, the web cache, installations. Every rule is
// written once, here, over a Driver (driver.go): a bbolt file (Open), the
// memory (NewMemory, for tests) or PostgreSQL (store/postgres). A tenant's
// bucket below is Bucket{Tenant, Name}; bbolt nests it as shown, PostgreSQL
// keeps it as a row's tenant and bucket.
//
// Every record belongs to one tenant (a Slack team, a Discord guild, or
// "cli") and every query takes one; no method lists records across tenants.
//
// Layout (schema version 6):
//
//	meta/schema                         "6"
//	tenants/<tenant>/checks/<id>        envelope(Check)
//	tenants/<tenant>/sums/<id>          envelope(summary): what a history line needs
//	tenants/<tenant>/text/<id>          " normalised claims + input ", for word search
//	tenants/<tenant>/words/<word>\x00<packed id>    "": every distinct word of text/<id>, the ID packed (version 6, packID)
//	tenants/<tenant>/by_channel/<channel>\x00<id>   "" (on the native path: the check's summary, as in sums/)
//	tenants/<tenant>/by_user/<user>\x00<id>         "" (the same)
//	tenants/<tenant>/by_verdict/<label>\x00<id>     "" (the same)
//	tenants/<tenant>/feedback/<id>\x00<seq, 4 bytes big endian>  envelope(Feedback)
//	tenants/<tenant>/vectors/<id>       the check's claim vectors, 4 bits a component (embed.go)
//	tenants/<tenant>/requests/<key>     envelope(Request)
//	tenants/<tenant>/pending/<created unix nanos, 8 bytes big endian><key>  "": a pending request; on the native
//	                                    path its request's time is its creation instead (version 5)
//	tenants/<tenant>/verdicts/<normalised claim>    envelope(CachedVerdict)
//	tenants/<tenant>/extractions/<normalised input> envelope(CachedExtraction)
//	tenants/_web/webcache/<bucket>\x00<key>         envelope(webEntry): search answers, pages
//	tenants/_web/snapshots/<sha256>                 envelope(webEntry): a page as read
//	installations/<platform>\x00<team or org id>    envelope(installRecord): an app install, its tokens sealed (installations.go)
//	tenants/<tenant>/leases/<key>       "<owner>\x00<until unix nanos>": on a shared driver (leases.go)
//	once/<sha256 of key>                <expiry unix nanos, 8 bytes big endian> (once.go)
//
// An envelope is {"v":<version>,"data":<record as JSON>}, compressed with
// zstd when it is over 1 KiB (version 4; Open compresses an older file's
// large records in place). Version 5 changed only how the native path
// lists pending requests: by their times, not the pending bucket. Version 6
// packs the check IDs of the word index (7 bytes instead of 21); Open
// builds an older file's word index again.
//
// Fields added to records since version 3 are optional, and their
// absence is safe (unknown visibility is not public), so they needed no
// migration; nor did the feedback bucket, which starts empty (notes
// stored in older check records are still read).
//
// Check IDs start with their creation time, so every bucket keyed by ID, and
// every index entry under one value, is in time order: a history page is a
// cursor walk from the newest entry.
package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/internal/groupcommit"
)

// schemaVersion is the layout's version, written into meta/schema; Open
// migrates files of older versions. recordVersion, written into every
// record envelope, is the version of the layout that last changed the
// records.
const (
	schemaVersion = 6
	recordVersion = 4
)

// Default option values.
const (
	DefaultTimeout  = time.Second
	DefaultCacheTTL = 168 * time.Hour
)

var (
	// ErrLocked is wrapped by Open when another process holds the file.
	ErrLocked = errors.New("database is locked")
	// ErrNotFound is returned for a missing check or request.
	ErrNotFound = errors.New("not found")
	// ErrNoTenant is returned when a tenant is empty.
	ErrNoTenant = errors.New("tenant required")
	// ErrNewerSchema is wrapped by Open when the file was written by a newer
	// factbot than this one.
	ErrNewerSchema = errors.New("database written by a newer factbot")
)

// Options configures Open. Zero fields take defaults.
type Options struct {
	// Timeout bounds the wait for the file lock (default 1s).
	Timeout time.Duration
	// CacheTTL is the verdict freshness used when a caller passes no maxAge
	// (default 168h).
	CacheTTL time.Duration
	// Now returns the time (default time.Now); tests set it.
	Now func() time.Time
	// AfterPrune, if set, is called at the end of each Prune, for what a
	// driver keeps beside the records (PostgreSQL's rate events).
	AfterPrune func(ctx context.Context, now time.Time) error
}

// DB is a factbot database: every rule of the store, over a Driver. It
// is safe for concurrent use.
type DB struct {
	drv Driver
	// nat is the driver on the native path (driver.go), nil on the
	// portable one.
	nat  Native
	path string
	ttl  time.Duration
	now  func() time.Time
	// requests group-commits the request writes (internal/groupcommit).
	requests *groupcommit.Committer[*txn]
	// memLeases keeps the requests' leases (see ClaimRequest) when the
	// driver is used by one process; otherwise the driver does.
	memLeases Driver
	// saves lets one check at a time wait to be saved on a driver of one
	// writer (see SaveCheck); unused on a shared driver.
	saves      sync.Mutex
	afterPrune func(ctx context.Context, now time.Time) error
	// vectors are the tenants' claim vectors in memory (earlier.go).
	vectors vectorIndexes
}

// Open opens (creating if needed) the bbolt file at path, waiting at most
// opts.Timeout for the lock. If another process holds the file the error
// wraps ErrLocked and says so. Records of older schema versions are migrated
// in one transaction before Open returns.
func Open(path string, opts Options) (*DB, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	d, err := openBoltDriver(path, opts.Timeout)
	if err != nil {
		return nil, err
	}
	db, err := New(context.Background(), d, opts)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.path = path
	return db, nil
}

// New returns the store over d, creating its layout or upgrading an older
// one first.
func New(ctx context.Context, d Driver, opts Options) (*DB, error) {
	if opts.CacheTTL <= 0 {
		opts.CacheTTL = DefaultCacheTTL
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	db := &DB{drv: d, ttl: opts.CacheTTL, now: opts.Now, afterPrune: opts.AfterPrune}
	db.vectors.tenants = map[string]*tenantVectors{}
	// The one place where the store picks its path (driver.go), and learns
	// whether other processes use the driver.
	db.nat, _ = d.(Native)
	_, one := d.(interface{ OneProcess() })
	// A driver shared by processes runs transactions side by side
	// (PostgreSQL): grouping them would queue every write behind one.
	db.requests = groupcommit.New(func(fn func(*txn) error) error { return db.update(context.Background(), fn) }, !one)
	if one {
		db.memLeases = NewMemoryDriver()
	}
	if err := db.update(ctx, migrate); err != nil {
		return nil, err
	}
	return db, nil
}

// txn is a transaction as the store's rules see it: the driver's, and on
// the native path the same transaction as a NativeTx (nat; nil on the
// portable path). The rules ask nat, never the Tx's type.
type txn struct {
	Tx
	nat NativeTx
}

// run runs fn in a transaction of mode on the store's path. On the
// portable path a read (ModeRead) is a view.
func (db *DB) run(ctx context.Context, mode Mode, fn func(*txn) error) error {
	if db.nat != nil {
		return db.nat.Run(ctx, mode, func(tx NativeTx) error { return fn(&txn{tx, tx}) })
	}
	portable := func(tx Tx) error { return fn(&txn{Tx: tx}) }
	if mode == ModeUpdate {
		return db.drv.Update(ctx, portable)
	}
	return db.drv.View(ctx, portable)
}

// update runs fn in an update transaction.
func (db *DB) update(ctx context.Context, fn func(*txn) error) error {
	return db.run(ctx, ModeUpdate, fn)
}

// Close closes the driver (a bbolt file's lock is released).
func (db *DB) Close() error {
	return db.drv.Close()
}

// Path returns the file's path (empty for another driver).
func (db *DB) Path() string { return db.path }

// Bucket names.
var (
	bMeta        = []byte("meta")
	bTenants     = []byte("tenants")
	bChecks      = []byte("checks")
	bSums        = []byte("sums")
	bText        = []byte("text")
	bByChannel   = []byte("by_channel")
	bByUser      = []byte("by_user")
	bByVerdict   = []byte("by_verdict")
	bRequests    = []byte("requests")
	bPending     = []byte("pending")
	bVerdicts    = []byte("verdicts")
	bExtractions = []byte("extractions")
	kSchema      = []byte("schema")
)

// tenantTx is one tenant's buckets in a transaction.
type tenantTx struct {
	tx     *txn
	tenant string
}

// view runs fn on the tenant's buckets in a read transaction.
func (db *DB) view(ctx context.Context, tenant string, fn func(*tenantTx) error) error {
	return db.run(ctx, ModeView, func(tx *txn) error { return inTenant(tx, tenant, fn) })
}

// read runs fn on the tenant's buckets in reads without a transaction on
// the native path (ModeRead), or else in a view.
func (db *DB) read(ctx context.Context, tenant string, fn func(*tenantTx) error) error {
	return db.run(ctx, ModeRead, func(tx *txn) error { return inTenant(tx, tenant, fn) })
}

// updateTenant runs fn on the tenant's buckets in an update transaction.
func (db *DB) updateTenant(ctx context.Context, tenant string, fn func(*tenantTx) error) error {
	return db.update(ctx, func(tx *txn) error { return inTenant(tx, tenant, fn) })
}

// inTenant runs fn on the tenant's buckets in tx.
func inTenant(tx *txn, tenant string, fn func(*tenantTx) error) error {
	if tenant == "" {
		return ErrNoTenant
	}
	return fn(&tenantTx{tx: tx, tenant: tenant})
}

// Bucket returns the tenant's bucket name.
func (tb *tenantTx) Bucket(name []byte) *bkt {
	return &bkt{tx: tb.tx, b: Bucket{Tenant: tb.tenant, Name: string(name)}}
}

// DeleteBucket drops the tenant's bucket name.
func (tb *tenantTx) DeleteBucket(name []byte) error {
	return tb.tx.DropBucket(Bucket{Tenant: tb.tenant, Name: string(name)})
}

// bkt is one bucket in a transaction.
type bkt struct {
	tx *txn
	b  Bucket
}

// global returns the global bucket name in tx.
func global(tx *txn, name []byte) *bkt { return &bkt{tx: tx, b: Bucket{Name: string(name)}} }

func (b *bkt) Get(k []byte) []byte   { return b.tx.Get(b.b, k) }
func (b *bkt) Put(k, v []byte) error { return b.tx.Put(b.b, k, v) }
func (b *bkt) Delete(k []byte) error { return b.tx.Delete(b.b, k) }
func (b *bkt) Cursor() Cursor        { return b.tx.Cursor(b.b) }

// ForEach calls fn for every key of b, in order, until fn fails.
func (b *bkt) ForEach(fn func(k, v []byte) error) error { return b.scan(nil, fn) }

// scan calls fn for every key of b under prefix, in order, until fn fails.
func (b *bkt) scan(prefix []byte, fn func(k, v []byte) error) error {
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}

// deleteIf deletes the keys under prefix in b for which drop is true, and
// returns how many. It deletes once the walk is over, so that drop sees
// the bucket as it was.
func (b *bkt) deleteIf(prefix []byte, drop func(k, v []byte) (bool, error)) (int, error) {
	return b.deleteVisited(func(fn func(k, v []byte) error) error { return b.scan(prefix, fn) }, drop)
}

// deleteVisited is deleteIf over the records visit gives.
func (b *bkt) deleteVisited(visit func(func(k, v []byte) error) error, drop func(k, v []byte) (bool, error)) (int, error) {
	var keys [][]byte
	err := visit(func(k, v []byte) error {
		ok, err := drop(k, v)
		if ok {
			keys = append(keys, bytes.Clone(k))
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

// getRecord decodes the record under k into v, or returns ErrNotFound.
func getRecord(b *bkt, k []byte, v any) error {
	raw := b.Get(k)
	if raw == nil {
		return ErrNotFound
	}
	return decode(raw, v)
}

// putRecord stores v, encoded, under k.
func (b *bkt) putRecord(k []byte, v any) error {
	data, err := encode(v)
	if err != nil {
		return err
	}
	return b.Put(k, data)
}

// eachRecord decodes every record of b under prefix into a T and calls fn
// with it, in key order, until fn fails.
func eachRecord[T any](b *bkt, prefix []byte, fn func(k []byte, r *T) error) error {
	return b.scan(prefix, func(k, v []byte) error {
		var r T
		if err := decode(v, &r); err != nil {
			return fmt.Errorf("%s %q: %w", b.b.Name, k, err)
		}
		return fn(k, &r)
	})
}

// countKeys returns the number of keys in b.
func countKeys(b *bkt) (n int) {
	b.ForEach(func(_, _ []byte) error { n++; return nil })
	return n
}

// UserTenants lists every tenant that has records, the reserved web
// tenant aside, for operators' views across tenants.
func (db *DB) UserTenants(ctx context.Context) ([]string, error) {
	var tenants []string
	err := db.run(ctx, ModeView, func(tx *txn) error {
		tenants = slices.DeleteFunc(tx.Tenants(), func(k string) bool { return k == WebTenant })
		return nil
	})
	return tenants, err
}
