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
//	tenants/<tenant>/requests/<key>     envelope(Request)
//	tenants/<tenant>/pending/<created unix nanos, 8 bytes big endian><key>  ""
//	tenants/<tenant>/verdicts/<normalised claim>    envelope(cachedVerdict)
//	tenants/<tenant>/extractions/<normalised input> envelope(cachedExtraction)
//	tenants/_web/webcache/<bucket>\x00<key>         envelope(webEntry): search answers, pages
//	tenants/_web/snapshots/<sha256>                 envelope(webEntry): a page as read
//
// A word search seeks each query word's prefix range in words/ and
// intersects the IDs (see History).
//
// Check IDs start with their creation time, so every bucket keyed by ID, and
// every index entry under one value, is in time order: a history page is a
// cursor walk from the newest entry.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// schemaVersion is the version written into every record envelope and into
// meta/schema. Open migrates files of older versions.
const schemaVersion = 3

// oldestRecordVersion is the oldest envelope version whose payload decodes
// as the current one: version 3 added the word index, not a record format,
// so version 2 records are read as they are rather than rewritten.
const oldestRecordVersion = 2

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

// Backup writes a consistent copy of the whole database to w from a read
// transaction, so it may run while the bot writes. It returns the bytes
// written.
func (db *DB) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("backup: %w", err)
	}
	return n, nil
}

// BackupFile writes a consistent copy to path, through a temporary file in
// the same directory that is synced and renamed into place. It refuses to
// overwrite an existing file.
func (db *DB) BackupFile(ctx context.Context, path string) (int64, error) {
	if _, err := os.Lstat(path); err == nil {
		return 0, fmt.Errorf("backup: %s already exists; choose a new file name", path)
	}
	f, err := os.CreateTemp(dirOf(path), ".factbot-backup-*")
	if err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after the rename
	n, err := db.Backup(ctx, f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o600)
	}
	if err == nil {
		// Link fails if path appeared meanwhile, unlike Rename.
		err = os.Link(tmp, path)
	}
	if err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	return n, nil
}

func dirOf(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if os.IsPathSeparator(path[i]) {
			if i == 0 {
				return path[:1]
			}
			return path[:i]
		}
	}
	return "."
}

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

// encode wraps v in the versioned envelope {"v":3,"data":…}.
func encode(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(data)+16)
	out = append(out, `{"v":`...)
	out = strconv.AppendInt(out, schemaVersion, 10)
	out = append(out, `,"data":`...)
	out = append(out, data...)
	out = append(out, '}')
	return out, nil
}

// envelope is the versioned wrapper of every record.
type envelope struct {
	V    int             `json:"v"`
	Data json.RawMessage `json:"data"`
}

// openEnvelope returns the version and payload of an envelope.
func openEnvelope(b []byte) (int, []byte, error) {
	const prefix = `{"v":`
	const mid = `,"data":`
	// Fast path for what encode writes.
	if len(b) > len(prefix)+len(mid)+2 && string(b[:len(prefix)]) == prefix && b[len(b)-1] == '}' {
		i := len(prefix)
		v := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			v = v*10 + int(b[i]-'0')
			i++
		}
		if i+len(mid) <= len(b) && string(b[i:i+len(mid)]) == mid {
			return v, b[i+len(mid) : len(b)-1], nil
		}
	}
	var e envelope
	if err := json.Unmarshal(b, &e); err != nil || e.V == 0 {
		return 0, nil, fmt.Errorf("store: record is not a versioned envelope")
	}
	return e.V, e.Data, nil
}

// decode unpacks an envelope of a version between oldestRecordVersion and
// schemaVersion into v.
func decode(b []byte, v any) error {
	ver, data, err := openEnvelope(b)
	if err != nil {
		return err
	}
	if ver < oldestRecordVersion || ver > schemaVersion {
		return fmt.Errorf("store: record of schema version %d, want %d to %d", ver, oldestRecordVersion, schemaVersion)
	}
	return json.Unmarshal(data, v)
}
