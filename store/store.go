// Package store keeps everything factbot learns in one embedded bbolt file:
// the verdict and extraction cache, the history of checks (the audit trail)
// and durable chat requests.
//
// Every record belongs to one tenant (a Slack team, a Discord guild, or
// "cli") and every query takes one; no method lists records across tenants.
//
// Layout (schema version 3):
//
//	meta/schema                         "3"
//	tenants/<tenant>/checks/<id>        envelope(Check)
//	tenants/<tenant>/sums/<id>          envelope(summary): what a history line needs
//	tenants/<tenant>/text/<id>          " normalised claims + input ", for word search
//	tenants/<tenant>/words/<word>\x00<id>           "": every distinct word of text/<id>
//	tenants/<tenant>/by_channel/<channel>\x00<id>   ""
//	tenants/<tenant>/by_user/<user>\x00<id>         ""
//	tenants/<tenant>/by_verdict/<label>\x00<id>     ""
//	tenants/<tenant>/feedback/<id>\x00<seq, 4 bytes big endian>  envelope(Feedback)
//	tenants/<tenant>/requests/<key>     envelope(Request)
//	tenants/<tenant>/pending/<created unix nanos, 8 bytes big endian><key>  ""
//	tenants/<tenant>/verdicts/<normalised claim>    envelope(CachedVerdict)
//	tenants/<tenant>/extractions/<normalised input> envelope(CachedExtraction)
//	tenants/_web/webcache/<bucket>\x00<key>         envelope(webEntry): search answers, pages
//	tenants/_web/snapshots/<sha256>                 envelope(webEntry): a page as read
//	installations/<platform>\x00<team or org id>    envelope(installRecord): an app install, its tokens sealed (installations.go)
//
// Records carry who could see where they were made (Visibility; see
// (*Check).VisibleTo for the one rule of who may see a check in chat) and
// the cache entries they caused (CacheRefs), which Forget deletes with
// them. Fields added to records since version 3 are optional, and their
// absence is safe (unknown visibility is not public), so they needed no
// migration; nor did the feedback bucket, which starts empty (notes
// stored in older check records are still read).
//
// A word search seeks each query word's prefix range in words/ and
// intersects the IDs (see History).
//
// Check IDs start with their creation time, so every bucket keyed by ID, and
// every index entry under one value, is in time order: a history page is a
// cursor walk from the newest entry.
package store

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// schemaVersion is the version written into every record envelope and into
// meta/schema. Open migrates files of older versions.
const schemaVersion = 3

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
}

// DB is a factbot database. It is safe for concurrent use.
type DB struct {
	bolt *bolt.DB
	path string
	ttl  time.Duration
	now  func() time.Time
	// requests group-commits the request writes (see groupCommit).
	requests groupCommit
	// leases are the requests' leases (see ClaimRequest), in memory: the
	// file has one process.
	leases LeaseTable
}

// Open opens (creating if needed) the bbolt file at path, waiting at most
// opts.Timeout for the lock. If another process holds the file the error
// wraps ErrLocked and says so. Records of older schema versions are migrated
// in one transaction before Open returns.
func Open(path string, opts Options) (*DB, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.CacheTTL <= 0 {
		opts.CacheTTL = DefaultCacheTTL
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.Timeout, FreelistType: bolt.FreelistMapType})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("%w: %s is in use by another process (is 'factbot serve' running?); waited %v for it; stop that process or set FACTBOT_DB to another file", ErrLocked, path, opts.Timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db := &DB{bolt: b, path: path, ttl: opts.CacheTTL, now: opts.Now}
	db.requests.db = b
	if err := db.bolt.Update(migrate); err != nil {
		b.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return db, nil
}

// Close closes the file and releases its lock.
func (db *DB) Close() error { return db.bolt.Close() }

// Path returns the file's path.
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

// tenantBucket returns the tenant's bucket, creating it in a writable tx;
// nil in a read tx when the tenant has no records.
func tenantBucket(tx *bolt.Tx, tenant string) (*bolt.Bucket, error) {
	if tenant == "" {
		return nil, ErrNoTenant
	}
	root := tx.Bucket(bTenants)
	if root == nil {
		return nil, errors.New("store: missing tenants bucket")
	}
	if !tx.Writable() {
		return root.Bucket([]byte(tenant)), nil
	}
	return root.CreateBucketIfNotExists([]byte(tenant))
}

// sub returns the named child of tb, creating it in a writable tx. It
// returns nil for a nil tb or a missing child in a read tx.
func sub(tb *bolt.Bucket, name []byte) *bolt.Bucket {
	if tb == nil {
		return nil
	}
	if b := tb.Bucket(name); b != nil || !tb.Writable() {
		return b
	}
	b, err := tb.CreateBucket(name)
	if err != nil {
		panic("store: create bucket " + string(name) + ": " + err.Error()) // only on a corrupt tree
	}
	return b
}

// get is Bucket.Get that accepts a nil bucket (missing in a read tx).
func get(b *bolt.Bucket, k []byte) []byte {
	if b == nil {
		return nil
	}
	return b.Get(k)
}
