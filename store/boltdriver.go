package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// boltDriver is the Driver of a bbolt file: a global bucket is a
// top-level bbolt bucket, a tenant's bucket is tenants/<tenant>/<name>.
type boltDriver struct{ db *bolt.DB }

// openBoltDriver opens (creating if needed) the bbolt file at path,
// waiting at most timeout for its lock.
func openBoltDriver(path string, timeout time.Duration) (*boltDriver, error) {
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, FreelistType: bolt.FreelistMapType})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, lockedError(path, timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return &boltDriver{db: b}, nil
}

// lockedError is the error of the file at path that another process
// holds.
func lockedError(path string, waited time.Duration) error {
	return fmt.Errorf("%w: %s is in use by another process; waited %v for it", ErrLocked, path, waited)
}

func (d *boltDriver) View(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.db.View(func(tx *bolt.Tx) error { return fn(&boltTx{tx: tx}) })
}

func (d *boltDriver) Update(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.db.Update(func(tx *bolt.Tx) error { return fn(&boltTx{tx: tx}) })
}

func (d *boltDriver) Close() error { return d.db.Close() }

// OneProcess: bbolt locks its file.
func (d *boltDriver) OneProcess() {}

var boltTenants = []byte("tenants")

// fillPercent packs the pages of the buckets that are appended to in key
// order (check IDs start with their time), and of the verdict index, whose
// few ranges (one per verdict label) are each appended to in key order.
// The user and channel indexes keep bbolt's even split: with hundreds of
// ranges a page holds the ends of several, and splitting it at 90% leaves
// pages a tenth full. Bytes per index entry, 40,000 checks saved one a
// transaction, split at 50% and at 90%: 58 and 107 with 500 users, 83
// and 47 with 4 labels.
var fillPercent = map[string]float64{"checks": 0.95, "sums": 0.95, "text": 0.95, "words": 0.9, "vectors": 1, "by_verdict": 0.9}

// boltTx is a transaction; it remembers the buckets it found.
type boltTx struct {
	tx    *bolt.Tx
	found map[Bucket]*bolt.Bucket
}

// bucket returns b, creating it when create is set (in a writable tx).
func (t *boltTx) bucket(b Bucket, create bool) (*bolt.Bucket, error) {
	if bk := t.found[b]; bk != nil {
		return bk, nil
	}
	bk, err := t.lookup(b, create)
	if bk != nil {
		if t.found == nil {
			t.found = map[Bucket]*bolt.Bucket{}
		}
		t.found[b] = bk
	}
	return bk, err
}

func (t *boltTx) lookup(b Bucket, create bool) (bk *bolt.Bucket, err error) {
	bk = t.tx.Cursor().Bucket() // the root
	for _, name := range boltPath(b) {
		next := bk.Bucket(name)
		if next == nil && create {
			next, err = bk.CreateBucket(name)
		}
		if next == nil {
			return nil, err
		}
		bk = next
	}
	if t.tx.Writable() {
		if f, ok := fillPercent[b.Name]; ok {
			bk.FillPercent = f
		}
	}
	return bk, nil
}

// boltPath is the path of nested bbolt buckets of b.
func boltPath(b Bucket) [][]byte {
	if b.Tenant == "" {
		return [][]byte{[]byte(b.Name)}
	}
	return [][]byte{boltTenants, []byte(b.Tenant), []byte(b.Name)}
}

// drop deletes the bucket at path, if there is one.
func (t *boltTx) drop(path [][]byte) error {
	clear(t.found)
	parent := t.tx.Cursor().Bucket()
	for _, name := range path[:len(path)-1] {
		if parent = parent.Bucket(name); parent == nil {
			return nil
		}
	}
	if err := parent.DeleteBucket(path[len(path)-1]); !errors.Is(err, berrors.ErrBucketNotFound) {
		return err
	}
	return nil
}

func (t *boltTx) Get(b Bucket, key []byte) []byte {
	bk, _ := t.bucket(b, false)
	if bk == nil {
		return nil
	}
	return bk.Get(key)
}

func (t *boltTx) Put(b Bucket, key, value []byte) error {
	bk, err := t.bucket(b, true)
	if err != nil {
		return err
	}
	return bk.Put(key, value)
}

func (t *boltTx) Delete(b Bucket, key []byte) error {
	if !t.tx.Writable() {
		return berrors.ErrTxNotWritable
	}
	if bk, _ := t.bucket(b, false); bk != nil {
		return bk.Delete(key)
	}
	return nil
}

func (t *boltTx) Cursor(b Bucket) Cursor {
	bk, _ := t.bucket(b, false)
	if bk == nil {
		return emptyCursor{}
	}
	return bk.Cursor()
}

func (t *boltTx) DropBucket(b Bucket) error { return t.drop(boltPath(b)) }

func (t *boltTx) Tenants() []string {
	root := t.tx.Bucket(boltTenants)
	if root == nil {
		return nil
	}
	var out []string
	root.ForEachBucket(func(k []byte) error {
		out = append(out, string(k))
		return nil
	})
	return out
}

func (t *boltTx) DropTenant(tenant string) error {
	return t.drop([][]byte{boltTenants, []byte(tenant)})
}

type emptyCursor struct{}

func (emptyCursor) First() ([]byte, []byte)      { return nil, nil }
func (emptyCursor) Last() ([]byte, []byte)       { return nil, nil }
func (emptyCursor) Seek([]byte) ([]byte, []byte) { return nil, nil }
func (emptyCursor) Next() ([]byte, []byte)       { return nil, nil }
func (emptyCursor) Prev() ([]byte, []byte)       { return nil, nil }
