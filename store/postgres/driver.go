package postgres

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/store"
)

// driver is the store's Driver on PostgreSQL: one table, records, keyed
// by tenant, bucket and key (bytea: bytewise order, NUL and all), the
// value the record's bytes (see migrations/0004_records.sql). Updates are
// SERIALIZABLE and retried when PostgreSQL reports a conflict; views are
// REPEATABLE READ READ ONLY, one snapshot.
type driver struct{ pool *pgxpool.Pool }

// maxTries bounds the runs of an update that keeps conflicting.
const maxTries = 20

func (d *driver) View(ctx context.Context, fn func(store.Tx) error) error {
	return d.run(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", false, fn)
}

func (d *driver) Update(ctx context.Context, fn func(store.Tx) error) error {
	return retry(func() error { return d.run(ctx, "BEGIN ISOLATION LEVEL SERIALIZABLE", true, fn) })
}

// retry runs fn again, up to maxTries, while it conflicts.
func retry(fn func() error) error {
	var err error
	for try := range maxTries {
		if err = fn(); !retryable(err) {
			return err
		}
		time.Sleep(time.Duration(try+1) * time.Millisecond)
	}
	return err
}

// retryable reports a serialization failure or a deadlock: the
// transaction may succeed when run again.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// run runs fn in a transaction that begins with the first statement fn
// sends (in one round trip with it): a transaction that reads one record
// costs two round trips, that one and its COMMIT.
func (d *driver) run(ctx context.Context, begin string, writable bool, fn func(store.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c, err := d.pool.Acquire(ctx)
	if err != nil {
		return ctxErr(ctx, err)
	}
	defer c.Release() // a connection left in a transaction is closed
	t := &tx{ctx: ctx, conn: c.Conn(), begin: begin, writable: writable}
	err = fn(t)
	if err == nil {
		err = t.err
	}
	if !t.begun {
		return ctxErr(ctx, err)
	}
	if err != nil {
		c.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		return ctxErr(ctx, err)
	}
	_, err = c.Exec(ctx, "COMMIT")
	return ctxErr(ctx, err)
}

func (d *driver) Close() error {
	d.pool.Close()
	return nil
}

// tx is one transaction. A failed read is kept in err (the Driver
// contract): later reads find nothing and the transaction fails.
type tx struct {
	ctx      context.Context
	conn     *pgx.Conn
	begin    string // sent with the first statement
	begun    bool
	writable bool
	err      error
	gen      int // counts writes, so that cursors read again after one
	// batches holds each bucket's last batch of rows read by a cursor, so
	// that a Get of a key a cursor has just read (a walk of the summaries,
	// then each one read) is not another round trip; a write forgets them.
	batches map[store.Bucket]readBatch
}

type readBatch struct {
	rows []row // in key order, descending if desc
	desc bool
	gen  int
}

// recall returns key's value from b's last batch, if it holds the key and
// nothing was written since.
func (t *tx) recall(b store.Bucket, key []byte) ([]byte, bool) {
	bt, ok := t.batches[b]
	if !ok || bt.gen != t.gen {
		return nil, false
	}
	i, ok := slices.BinarySearchFunc(bt.rows, key, func(r row, k []byte) int {
		if bt.desc {
			return bytes.Compare(k, r.k)
		}
		return bytes.Compare(r.k, k)
	})
	if !ok {
		return nil, false
	}
	return nonNil(bt.rows[i].v), true
}

// query sends a statement, after BEGIN if it is the first.
func (t *tx) query(sql string, args ...any) (pgx.Rows, error) {
	if t.begun {
		return t.conn.Query(t.ctx, sql, args...)
	}
	t.begun = true
	var b pgx.Batch
	b.Queue(t.begin)
	b.Queue(sql, args...)
	br := t.conn.SendBatch(t.ctx, &b)
	if _, err := br.Exec(); err != nil {
		br.Close()
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		br.Close()
		return nil, err
	}
	return batchRows{rows, br}, nil
}

// batchRows closes its batch with its rows.
type batchRows struct {
	pgx.Rows
	br pgx.BatchResults
}

func (r batchRows) Close() {
	r.Rows.Close()
	r.br.Close()
}

func (t *tx) fail(err error) {
	if t.err == nil && err != nil {
		t.err = err
	}
}

func (t *tx) Get(b store.Bucket, key []byte) []byte {
	if t.err != nil {
		return nil
	}
	if v, ok := t.recall(b, key); ok {
		return v
	}
	rows, err := t.query("SELECT value FROM records WHERE tenant = $1 AND bucket = $2 AND key = $3", []byte(b.Tenant), b.Name, key)
	if err != nil {
		t.fail(err)
		return nil
	}
	v, err := pgx.CollectOneRow(rows, func(r pgx.CollectableRow) ([]byte, error) {
		var v []byte
		err := r.Scan(&v)
		if v == nil {
			v = []byte{} // an empty value is not a missing one
		}
		return v, err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	t.fail(err)
	return v
}

var errReadOnly = errors.New("postgres: write in a read transaction")

func (t *tx) exec(sql string, args ...any) error {
	if !t.writable {
		return errReadOnly
	}
	if t.err != nil {
		return t.err
	}
	t.gen++
	rows, err := t.query(sql, args...)
	if err == nil {
		rows.Close()
		err = rows.Err()
	}
	t.fail(err)
	return err
}

func (t *tx) Put(b store.Bucket, key, value []byte) error {
	if len(key) == 0 {
		return errors.New("postgres: empty key")
	}
	return t.exec(`INSERT INTO records (tenant, bucket, key, value) VALUES ($1, $2, $3, $4)
ON CONFLICT (tenant, bucket, key) DO UPDATE SET value = excluded.value, words = NULL, at_ns = NULL`, []byte(b.Tenant), b.Name, key, nonNil(value))
}

func (t *tx) Delete(b store.Bucket, key []byte) error {
	return t.exec("DELETE FROM records WHERE tenant = $1 AND bucket = $2 AND key = $3", []byte(b.Tenant), b.Name, key)
}

func (t *tx) DropBucket(b store.Bucket) error {
	return t.exec("DELETE FROM records WHERE tenant = $1 AND bucket = $2", []byte(b.Tenant), b.Name)
}

func (t *tx) DropTenant(tenant string) error {
	if tenant == "" {
		return errors.New("postgres: drop tenant: empty tenant")
	}
	return t.exec("DELETE FROM records WHERE tenant = $1", []byte(tenant))
}

func (t *tx) Tenants() []string {
	if t.err != nil {
		return nil
	}
	// A loose index scan: one probe of the primary key per tenant.
	rows, err := t.query(`WITH RECURSIVE ts(tenant) AS (
	(SELECT tenant FROM records WHERE tenant > ''::bytea ORDER BY tenant LIMIT 1)
	UNION ALL
	SELECT (SELECT r.tenant FROM records r WHERE r.tenant > ts.tenant ORDER BY r.tenant LIMIT 1) FROM ts WHERE ts.tenant IS NOT NULL
) SELECT tenant FROM ts WHERE tenant IS NOT NULL`)
	if err != nil {
		t.fail(err)
		return nil
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var b []byte
		err := r.Scan(&b)
		return string(b), err
	})
	t.fail(err)
	return out
}

func (t *tx) Writable() bool { return t.writable }

// IndexWords is store.WordIndexer: the words, as they are, are the
// record's tsvector (see migrations/0005_words.sql).
func (t *tx) IndexWords(b store.Bucket, key []byte, words []string) error {
	return t.exec("UPDATE records SET words = array_to_tsvector($4::text[]) WHERE tenant = $1 AND bucket = $2 AND key = $3", []byte(b.Tenant), b.Name, key, words)
}

// FindWords is store.WordIndexer: a tsquery of the prefixes (each quoted,
// so taken as it is) over the GIN index.
func (t *tx) FindWords(b store.Bucket, prefixes []string, limit int) [][]byte {
	q := make([]string, len(prefixes))
	for i, p := range prefixes {
		q[i] = "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(p) + "':*"
	}
	if t.err != nil {
		return nil
	}
	rows, err := t.query("SELECT key FROM records WHERE tenant = $1 AND bucket = $2 AND words @@ $3::tsquery ORDER BY key DESC LIMIT $4", []byte(b.Tenant), b.Name, strings.Join(q, " & "), limit)
	if err == nil {
		var keys [][]byte
		keys, err = pgx.CollectRows(rows, pgx.RowTo[[]byte])
		t.fail(err)
		return keys
	}
	t.fail(err)
	return nil
}

// SetTimes is store.Expirer (see migrations/0006_times.sql).
func (t *tx) SetTimes(b store.Bucket, keys [][]byte, ts []time.Time) error {
	ns := make([]int64, len(ts))
	for i, at := range ts {
		ns[i] = at.UnixNano()
	}
	return t.exec(`UPDATE records r SET at_ns = u.at FROM unnest($3::bytea[], $4::bigint[]) u(key, at)
WHERE r.tenant = $1 AND r.bucket = $2 AND r.key = u.key`, []byte(b.Tenant), b.Name, keys, ns)
}

// DeleteBefore is store.Expirer.
func (t *tx) DeleteBefore(b store.Bucket, at time.Time) (int, [][]byte, error) {
	if !t.writable || t.err != nil {
		return 0, nil, cmp.Or(t.err, errReadOnly)
	}
	var n int
	rows, err := t.query(`WITH d AS (DELETE FROM records WHERE tenant = $1 AND bucket = $2 AND at_ns < $3 RETURNING 1)
SELECT count(*) FROM d`, []byte(b.Tenant), b.Name, at.UnixNano())
	if err == nil {
		t.gen++
		n, err = pgx.CollectExactlyOneRow(rows, pgx.RowTo[int])
	}
	if err == nil {
		rows, err = t.query("SELECT key FROM records WHERE tenant = $1 AND bucket = $2 AND at_ns IS NULL", []byte(b.Tenant), b.Name)
	}
	var untimed [][]byte
	if err == nil {
		untimed, err = pgx.CollectRows(rows, pgx.RowTo[[]byte])
	}
	t.fail(err)
	return n, untimed, err
}

// TryLock is store.Locker.
func (t *tx) TryLock(b store.Bucket, key []byte) bool {
	if t.err != nil {
		return false
	}
	rows, err := t.query("SELECT FROM records WHERE tenant = $1 AND bucket = $2 AND key = $3 FOR UPDATE SKIP LOCKED", []byte(b.Tenant), b.Name, key)
	if err != nil {
		t.fail(err)
		return false
	}
	n := 0
	for rows.Next() {
		n++
	}
	rows.Close()
	t.fail(rows.Err())
	return n > 0
}

func (t *tx) Cursor(b store.Bucket) store.Cursor { return &cursor{t: t, b: b} }

// cursor reads a batch of rows ahead in its direction, and again after a
// write in its transaction.
type cursor struct {
	t    *tx
	b    store.Bucket
	rows []row
	i    int
	desc bool // the batch runs backwards
	full bool // the batch was full: more rows may follow
	gen  int
	key  []byte // the current key; nil: past an end
}

type row struct{ k, v []byte }

// readAhead is how many rows a cursor reads at a time.
const readAhead = 64

// fetch reads the rows after (op ">"/">=") or before ("<"/"<=") from, or
// from an end when from is nil, and moves to the first.
func (c *cursor) fetch(op string, from []byte) ([]byte, []byte) {
	c.rows, c.i, c.gen, c.desc = nil, 0, c.t.gen, op[0] == '<'
	if c.t.err != nil {
		return c.set()
	}
	order := "ASC"
	if c.desc {
		order = "DESC"
	}
	cond := ""
	args := []any{[]byte(c.b.Tenant), c.b.Name}
	if from != nil {
		cond = " AND key " + op + " $3"
		args = append(args, from)
	}
	rows, err := c.t.query(fmt.Sprintf("SELECT key, value FROM records WHERE tenant = $1 AND bucket = $2%s ORDER BY key %s LIMIT %d", cond, order, readAhead), args...)
	if err != nil {
		c.t.fail(err)
		return c.set()
	}
	c.rows, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		err := r.Scan(&x.k, &x.v)
		return x, err
	})
	c.t.fail(err)
	c.full = len(c.rows) == readAhead
	if c.t.batches == nil {
		c.t.batches = map[store.Bucket]readBatch{}
	}
	c.t.batches[c.b] = readBatch{c.rows, c.desc, c.t.gen}
	return c.set()
}

// set makes row i current.
func (c *cursor) set() ([]byte, []byte) {
	if c.i < 0 || c.i >= len(c.rows) {
		c.key = nil
		return nil, nil
	}
	r := c.rows[c.i]
	c.key = r.k
	if r.v == nil {
		r.v = []byte{}
	}
	return r.k, r.v
}

func (c *cursor) First() ([]byte, []byte)        { return c.fetch(">=", nil) }
func (c *cursor) Last() ([]byte, []byte)         { return c.fetch("<=", nil) }
func (c *cursor) Seek(k []byte) ([]byte, []byte) { return c.fetch(">=", slices.Clone(k)) }

// move steps one row in direction desc.
func (c *cursor) move(desc bool) ([]byte, []byte) {
	if c.key == nil {
		return nil, nil
	}
	if c.desc == desc && c.gen == c.t.gen {
		if c.i+1 < len(c.rows) {
			c.i++
			return c.set()
		}
		if !c.full {
			c.key = nil
			return nil, nil
		}
	}
	if desc {
		return c.fetch("<", c.key)
	}
	return c.fetch(">", c.key)
}

func (c *cursor) Next() ([]byte, []byte) { return c.move(false) }
func (c *cursor) Prev() ([]byte, []byte) { return c.move(true) }

// Insert is store.Inserter: one statement, outside a serializable
// transaction (a blind insert has no reads to conflict over; retried if
// the server's default isolation makes it conflict); the first record's
// primary key decides.
func (d *driver) Insert(ctx context.Context, recs []store.Record) (bool, error) {
	var ts, ks, vs [][]byte
	var bs []string
	for _, r := range recs[1:] {
		ts, bs, ks, vs = append(ts, []byte(r.Bucket.Tenant)), append(bs, r.Bucket.Name), append(ks, r.Key), append(vs, nonNil(r.Value))
	}
	f := recs[0]
	var n int
	err := retry(func() error {
		return d.pool.QueryRow(ctx, `WITH first AS (INSERT INTO records (tenant, bucket, key, value) VALUES ($1, $2, $3, $4)
	ON CONFLICT DO NOTHING RETURNING 1),
rest AS (INSERT INTO records (tenant, bucket, key, value) SELECT * FROM unnest($5::bytea[], $6::text[], $7::bytea[], $8::bytea[])
	WHERE EXISTS (SELECT FROM first) ON CONFLICT (tenant, bucket, key) DO UPDATE SET value = excluded.value)
SELECT count(*) FROM first`, []byte(f.Bucket.Tenant), f.Bucket.Name, f.Key, nonNil(f.Value), ts, bs, ks, vs).Scan(&n)
	})
	return n == 1, ctxErr(ctx, err)
}

func nonNil(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}
