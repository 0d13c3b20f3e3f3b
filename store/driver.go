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

// A driver says what else it can do by its methods, found by a type
// assertion (as Vault finds an HABackend); otherwise the store does it its
// own portable way, with the same behaviour. OneProcess(): the database
// has one user (bbolt, memory), so request leases are records of an
// in-memory driver of the store's own; without it (PostgreSQL) they are
// the driver's records (leases.go). The other capabilities follow.

// Inserter is a driver that writes a record if its key is absent, in
// one atomic step without a transaction's reads: PostgreSQL's INSERT …
// ON CONFLICT DO NOTHING, which concurrent inserts of neighbouring keys do
// not make conflict and run again.
type Inserter interface {
	// Insert writes r if its key is absent, and reports whether it did.
	Insert(ctx context.Context, r Record) (bool, error)
}

// Leaser is a driver that takes or renews a lease record in one atomic
// step, without a transaction (PostgreSQL: INSERT … ON CONFLICT DO UPDATE
// … WHERE, which locks the record while it decides, so that two owners
// never both take it). Without it the store does it in a serializable
// update (takeLease).
type Leaser interface {
	Lease(ctx context.Context, l Lease) (read []byte, ok bool, err error)
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

// WordIndexer is a Tx that indexes records by words natively: PostgreSQL's
// tsvector column with a GIN index. The store's own index of words
// (wordindex.go) is the fallback.
type WordIndexer interface {
	// IndexWords indexes the record b/key, written in this transaction,
	// under words, until it is written again or deleted.
	IndexWords(b Bucket, key []byte, words []string) error
	// FindWords returns the keys of b indexed under a word starting with
	// each of prefixes, highest first, at most limit of them.
	FindWords(b Bucket, prefixes []string, limit int) [][]byte
}

// Expirer is a Tx that keeps a time beside records, deletes them by it
// and lists them in its order natively: PostgreSQL's at_ns column. A
// record written again has no time until the store sets it. The store
// keeps so the times of cached records (deleted by them) and of pending
// requests (listed by them, instead of an index of its own).
type Expirer interface {
	// SetTimes sets the times of b's records keys (ts[i] is keys[i]'s).
	SetTimes(b Bucket, keys [][]byte, ts []time.Time) error
	// DeleteBefore deletes b's records whose time is before t, and returns
	// how many and the keys of the records without a time.
	DeleteBefore(b Bucket, t time.Time) (int, [][]byte, error)
	// Timed returns the keys of b's records that have a time, earliest
	// first (then in key order), at most limit of them (0: all).
	Timed(b Bucket, limit int) [][]byte
}

// Prefetcher is a Tx that reads many records of a bucket in one step
// (PostgreSQL: key = ANY(…)), so that the Gets that follow are not a round
// trip each. Without it each Get reads its own.
type Prefetcher interface {
	Prefetch(b Bucket, keys [][]byte)
}

// Reader is a driver that reads without a transaction: each read is its
// own step and sees what is committed when it runs (PostgreSQL: a
// statement with no BEGIN or COMMIT around it, a round trip fewer). The
// store reads so where one record is read, or where a record written or
// deleted between two reads may only come or go (a history page);
// without it they are views.
type Reader interface {
	Read(ctx context.Context, fn func(Tx) error) error
}

// ReverseSeeker is a Cursor that moves to the last key before k in one
// step (PostgreSQL: one descending read), where the store would Seek and
// step back: a history page walks an index from there.
type ReverseSeeker interface {
	SeekBefore(k []byte) (key, v []byte)
}

// Coverer is a Tx whose walk of an index is cheaper when its entries
// hold the records they name than when it reads those beside it
// (PostgreSQL: one range scan of the primary key, not a probe per entry).
// The store then writes each history index entry with its check's
// summary, and a page reads the entries alone; an entry without one
// (written before, or without it) is read through the summaries.
type Coverer interface{ CoverIndexes() }

// Record is one key and value of a bucket, and its time if it has one:
// written with it where the transaction is an Expirer (and by the
// Inserter of a driver whose transactions are), left out elsewhere.
type Record struct {
	Bucket     Bucket
	Key, Value []byte
	Time       time.Time
}

// insert writes recs, all or none, if recs[0]'s key is absent, in a
// transaction of do: Inserter.Insert's fallback, or where there is more
// than one record.
func insert(do func(func(Tx) error) error, recs []Record) (ok bool, err error) {
	err = do(func(tx Tx) error {
		if ok = tx.Get(recs[0].Bucket, recs[0].Key) == nil; !ok {
			return nil
		}
		for _, r := range recs {
			err := tx.Put(r.Bucket, r.Key, r.Value)
			if ex, timed := tx.(Expirer); err == nil && timed && !r.Time.IsZero() {
				err = ex.SetTimes(r.Bucket, [][]byte{r.Key}, []time.Time{r.Time})
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	return ok, err
}
