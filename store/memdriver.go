package store

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
)

// memDriver is the in-memory Driver, for tests: one writer at a time, and
// readers see the last commit. A write transaction copies each bucket it
// changes and swaps the copies in when it commits.
type memDriver struct {
	mu      sync.RWMutex
	buckets map[Bucket]*memBucket
	closed  bool
}

// memBucket is one bucket: keys in order, values by key.
type memBucket struct {
	keys [][]byte
	vals map[string][]byte
}

// NewMemoryDriver returns an empty in-memory driver.
func NewMemoryDriver() Driver { return &memDriver{buckets: map[Bucket]*memBucket{}} }

// NewMemory returns a store over a new in-memory driver.
func NewMemory(opts Options) *DB {
	db, err := New(context.Background(), NewMemoryDriver(), opts)
	if err != nil {
		panic("store: new memory store: " + err.Error()) // an empty map cannot fail
	}
	return db
}

var errClosed = errors.New("store: database is closed")

// OneProcess: the memory lives in one process.
func (d *memDriver) OneProcess() {}

func (d *memDriver) View(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.closed {
		return errClosed
	}
	return fn(&memTx{d: d})
}

func (d *memDriver) Update(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errClosed
	}
	tx := &memTx{d: d, writable: true, changed: map[Bucket]*memBucket{}}
	if err := fn(tx); err != nil {
		return err
	}
	for b, mb := range tx.changed {
		if mb == nil {
			delete(d.buckets, b)
		} else {
			d.buckets[b] = mb
		}
	}
	return nil
}

func (d *memDriver) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	return nil
}

type memTx struct {
	d        *memDriver
	writable bool
	changed  map[Bucket]*memBucket // copies written by this tx; nil: dropped
}

// noBucket is a bucket that does not exist, as read.
var noBucket = &memBucket{}

// bucket returns b as this tx sees it (noBucket: none), a private copy
// when write is set.
func (t *memTx) bucket(b Bucket, write bool) *memBucket {
	mb, ok := t.changed[b]
	if !ok {
		mb = t.d.buckets[b]
	}
	if !write && mb == nil {
		return noBucket
	}
	if !write || ok && mb != nil {
		return mb
	}
	cp := &memBucket{vals: map[string][]byte{}}
	if mb != nil {
		cp.keys = slices.Clone(mb.keys)
		cp.vals = maps.Clone(mb.vals)
	}
	t.changed[b] = cp
	return cp
}

func (t *memTx) Get(b Bucket, key []byte) []byte { return t.bucket(b, false).vals[string(key)] }

func (t *memTx) Put(b Bucket, key, value []byte) error {
	if !t.writable {
		return errReadOnly
	}
	if len(key) == 0 {
		return errors.New("store: empty key")
	}
	mb := t.bucket(b, true)
	if _, ok := mb.vals[string(key)]; !ok {
		i, _ := slices.BinarySearchFunc(mb.keys, key, bytes.Compare)
		mb.keys = slices.Insert(mb.keys, i, bytes.Clone(key))
	}
	mb.vals[string(key)] = append([]byte{}, value...)
	return nil
}

var errReadOnly = errors.New("store: write in a read transaction")

func (t *memTx) Delete(b Bucket, key []byte) error {
	if !t.writable {
		return errReadOnly
	}
	if t.bucket(b, false).vals[string(key)] == nil {
		return nil
	}
	mb := t.bucket(b, true)
	i, _ := slices.BinarySearchFunc(mb.keys, key, bytes.Compare)
	mb.keys = slices.Delete(mb.keys, i, i+1)
	delete(mb.vals, string(key))
	return nil
}

func (t *memTx) Cursor(b Bucket) Cursor { return &memCursor{tx: t, b: b} }

func (t *memTx) DropBucket(b Bucket) error {
	if !t.writable {
		return errReadOnly
	}
	t.changed[b] = nil
	return nil
}

// visible returns the buckets this tx sees, with nil for those it dropped.
func (t *memTx) visible() map[Bucket]*memBucket {
	all := maps.Clone(t.d.buckets)
	maps.Copy(all, t.changed)
	return all
}

func (t *memTx) Tenants() []string {
	var out []string
	for b, mb := range t.visible() {
		if b.Tenant != "" && mb != nil && len(mb.keys) > 0 {
			out = append(out, b.Tenant)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (t *memTx) DropTenant(tenant string) error {
	for b := range t.visible() {
		if b.Tenant == tenant {
			if err := t.DropBucket(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// memCursor finds its next key afresh at each move, so that it goes on
// from where it is when the bucket changes.
type memCursor struct {
	tx  *memTx
	b   Bucket
	key []byte
}

// at moves to the i-th key of the bucket (none when out of range).
func (c *memCursor) at(i int) ([]byte, []byte) {
	mb := c.tx.bucket(c.b, false)
	if i < 0 || i >= len(mb.keys) {
		c.key = nil
		return nil, nil
	}
	c.key = mb.keys[i]
	return c.key, mb.vals[string(c.key)]
}

func (c *memCursor) search(k []byte) (int, bool) {
	return slices.BinarySearchFunc(c.tx.bucket(c.b, false).keys, k, bytes.Compare)
}

func (c *memCursor) First() ([]byte, []byte) { return c.at(0) }

func (c *memCursor) Last() ([]byte, []byte) { return c.at(len(c.tx.bucket(c.b, false).keys) - 1) }

func (c *memCursor) Seek(k []byte) ([]byte, []byte) {
	i, _ := c.search(k)
	return c.at(i)
}

func (c *memCursor) Next() ([]byte, []byte) {
	if c.key == nil {
		return nil, nil
	}
	i, found := c.search(c.key)
	if found {
		i++
	}
	return c.at(i)
}

func (c *memCursor) Prev() ([]byte, []byte) {
	if c.key == nil {
		return nil, nil
	}
	i, _ := c.search(c.key)
	return c.at(i - 1)
}
