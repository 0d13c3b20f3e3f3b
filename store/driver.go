package store

import (
	"context"
	"time"
)

// A Driver is the storage a Store runs over: named buckets of ordered
// keys in transactions, in the manner of HashiCorp Vault's physical
// backends. Every rule of the store (requests, leases, checks and their
// indexes, caches, prune, forget, record versions) is written once above
// it; a driver knows nothing of them. The drivers are bbolt (OpenBolt), an
// in-memory one (NewMemoryDriver, for tests) and PostgreSQL
// (store/postgres). storetest.RunDriver is their conformance suite.
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
	Writable() bool
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

// Optional capabilities: a driver implements them when its backend does
// the job better natively; the store falls back to its own portable way
// otherwise.

// Claimer keeps request leases where every process using the database
// sees them (PostgreSQL: lease columns claimed with FOR UPDATE SKIP
// LOCKED). Without it, a driver used by one process (bbolt, memory) keeps
// them in memory (leaseTable).
type Claimer interface {
	// Claim takes the lease of each pending request of tenant (those of
	// keys, or every pending one when keys is nil) whose lease is free,
	// expired or owner's, until until; it returns the records (envelopes)
	// of those it took. pending reports whether a record is pending.
	Claim(ctx context.Context, tenant string, keys []string, owner string, now, until time.Time, pending func([]byte) bool) ([][]byte, error)
	// Renew extends (or with until zero, releases) owner's lease; held is
	// false when owner does not hold it.
	Renew(ctx context.Context, tenant, key, owner string, now, until time.Time) (held bool, err error)
}

// WordSearcher finds checks by the words of their search text natively
// (PostgreSQL: a tsvector index). Without it, the store keeps its own word
// index (wordindex.go).
type WordSearcher interface {
	// IndexText sets the search text of check id (empty: removes it).
	IndexText(tx Tx, tenant, id string, text []byte) error
	// SearchWords returns the IDs of tenant's checks whose text has every
	// word (each a prefix of a word), newest first, below before if set, at
	// most limit.
	SearchWords(tx Tx, tenant string, words []string, before string, limit int) ([]string, error)
}

// Locker is a driver that allows one process only (bbolt holds a file
// lock): leases can then be kept in memory.
type Locker interface{ OneProcess() }
