package store

import (
	"context"
	"time"
)

// A Driver is the storage a Store runs over: named buckets of ordered
// keys in transactions, in the manner of HashiCorp Vault's physical
// backends. Every rule of the store (requests, leases, checks and their
// indexes, caches, prune, forget, record versions) is written once above
// it; a driver knows nothing of them. The drivers are bbolt (Open), an
// in-memory one (NewMemoryDriver, for tests) and PostgreSQL
// (store/postgres). RunDriver, in the store's tests, is their conformance
// suite.
//
// Update transactions are serializable: one sees no other's writes, and
// a driver that runs them concurrently (PostgreSQL) retries fn when they
// conflict, so fn may run more than once and must only read and write
// through its Tx. View transactions see one snapshot and may not write.
type Driver interface {
	View(ctx context.Context, fn func(Tx) error) error
	Update(ctx context.Context, fn func(Tx) error) error
	Close() error
}

// Bucket names a bucket: one of a tenant's (Tenant set) or a global one
// (Tenant empty: meta, installations).
type Bucket struct {
	Tenant string
	Name   string
}

// Tx is one transaction. Keys are ordered bytewise. A value returned by
// Get or a cursor is valid until the transaction ends and must not be
// changed. Reading a bucket that does not exist finds nothing; writing
// creates it. A read error (say, a lost connection) ends the transaction:
// Get and cursors then find nothing and View or Update return the error.
type Tx interface {
	Get(b Bucket, key []byte) []byte
	Put(b Bucket, key, value []byte) error
	Delete(b Bucket, key []byte) error
	Cursor(b Bucket) Cursor
	// DropBucket deletes a bucket and its keys.
	DropBucket(b Bucket) error
	// Tenants lists the tenants that have a bucket, in order.
	Tenants() []string
	// DropTenant deletes every bucket of a tenant.
	DropTenant(tenant string) error
}

// Cursor walks a bucket's keys in order; a nil key is past either end.
// Writes to the bucket during a walk are allowed: the cursor moves on
// from the key it is at.
type Cursor interface {
	First() (k, v []byte)
	Last() (k, v []byte)
	// Seek moves to the first key at or after k.
	Seek(k []byte) (key, v []byte)
	Next() (k, v []byte)
	Prev() (k, v []byte)
}

// The store runs over a driver by one of two paths, picked once in New
// (docs/store.md): the portable one over any Driver, where every index is
// records of the store's own buckets, and the native one over a Native
// driver (PostgreSQL), as a whole, never mixed with the other. A driver
// used by one process (bbolt, memory) says so with a method OneProcess():
// its request leases are then kept in memory (leases.go), and its writes
// have one writer (group commit, SaveCheck).

// Native is a driver that the store runs over by its native path. Its
// methods do in one step what the portable path does in transactions.
type Native interface {
	Driver
	// Insert writes r, and its time if it has one, if its key is absent,
	// in one atomic step without a transaction's reads (PostgreSQL:
	// INSERT … ON CONFLICT DO NOTHING, which concurrent inserts of
	// neighbouring keys do not make conflict and run again), and reports
	// whether it did.
	Insert(ctx context.Context, r Record) (bool, error)
	// Lease takes or renews a lease record in one atomic step, without a
	// transaction (PostgreSQL: INSERT … ON CONFLICT DO UPDATE … WHERE,
	// which locks the record while it decides, so that two owners never
	// both take it). The portable path does it in a serializable update
	// (takeLease).
	Lease(ctx context.Context, l Lease) (read []byte, ok bool, err error)
	// Run runs fn in a transaction of mode whose Tx is native: View and
	// Update as the Driver's, or Read.
	Run(ctx context.Context, mode Mode, fn func(NativeTx) error) error
}

// Mode is the kind of a Native transaction.
type Mode int

const (
	// ModeView is Driver.View: one snapshot, read only.
	ModeView Mode = iota
	// ModeUpdate is Driver.Update: serializable, run again on a conflict.
	ModeUpdate
	// ModeRead reads without a transaction: each read is its own step and
	// sees what is committed when it runs (PostgreSQL: a statement with no
	// BEGIN or COMMIT around it, a round trip fewer). The store reads so
	// where one record is read, or where a record written or deleted
	// between two reads may only come or go (a history page). Writes fail.
	ModeRead
)

// NativeTx is a transaction of a Native driver.
type NativeTx interface {
	Tx
	// IndexWords indexes the record b/key, written in this transaction,
	// under words, until it is written again or deleted (PostgreSQL: a
	// tsvector column with a GIN index). The portable path keeps an index
	// of words of its own (wordindex.go).
	IndexWords(b Bucket, key []byte, words []string) error
	// FindWords returns the keys of b indexed under a word starting with
	// each of prefixes, highest first, at most limit of them.
	FindWords(b Bucket, prefixes []string, limit int) [][]byte

	// SetTimes sets the times of b's records keys (ts[i] is keys[i]'s): a
	// time kept beside a record (PostgreSQL: the at_ns column) until it is
	// written again. The store keeps so the times of cached records
	// (deleted by them) and of pending requests (listed by them, instead
	// of the portable path's pending index).
	SetTimes(b Bucket, keys [][]byte, ts []time.Time) error
	// DeleteBefore deletes b's records whose time is before t, and returns
	// how many and the keys of the records without a time.
	DeleteBefore(b Bucket, t time.Time) (int, [][]byte, error)
	// Timed returns the keys of b's records that have a time, earliest
	// first (then in key order), at most limit of them (0: all).
	Timed(b Bucket, limit int) [][]byte

	// Prefetch reads many records of a bucket in one step (PostgreSQL:
	// key = ANY(…)), so that the Gets that follow are not a round trip
	// each.
	Prefetch(b Bucket, keys [][]byte)
	// SeekBefore returns a cursor of b at the last key before k, and that
	// key and value, in one step (PostgreSQL: one descending read), where
	// the portable path seeks and steps back: a history page walks an
	// index from there.
	SeekBefore(b Bucket, k []byte) (c Cursor, key, v []byte)
}

// Lease is one take or renewal of the lease record Bucket/Key, whose value
// is "<owner>\x00<until, unix nanoseconds>": it writes Owner until Until
// if the record Read/Key exists and the lease is Owner's, or (unless
// Renew) absent or held until Now or before. It returns the record
// Read/Key, read in the same step (nil if missing), and whether it wrote.
type Lease struct {
	Bucket, Read Bucket
	Key          []byte
	Owner        string
	Now, Until   time.Time
	Renew        bool
}

// Record is one key and value of a bucket, and its time if it has one
// (kept on the native path only: Native.Insert, NativeTx.SetTimes).
type Record struct {
	Bucket     Bucket
	Key, Value []byte
	Time       time.Time
}
