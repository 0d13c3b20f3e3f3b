package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/internal/retry"
	"github.com/factbot-dev/factbot/store"
)

// driver is the store's Driver on PostgreSQL, and store.Native as a
// whole (the store's native path): one table, records, keyed by tenant,
// bucket and key (bytea: bytewise order, NUL and all), the value the
// record's bytes (see migrations/0004_records.sql). Updates are
// SERIALIZABLE and retried when PostgreSQL reports a conflict; views are
// REPEATABLE READ READ ONLY, one snapshot.
type driver struct{ pool *pgxpool.Pool }

var (
	_ store.Native   = (*driver)(nil)
	_ store.NativeTx = (*tx)(nil)
)

// conflicts is how a statement or an update that conflicts is run again
// (internal/retry): at most 20 runs, waiting 1, 2, 4, 8, 16, then 20 ms.
var conflicts = retry.Policy{Attempts: 20, Base: time.Millisecond, MaxWait: 20 * time.Millisecond}

func (d *driver) View(ctx context.Context, fn func(store.Tx) error) error {
	return d.Run(ctx, store.ModeView, func(t store.NativeTx) error { return fn(t) })
}

func (d *driver) Update(ctx context.Context, fn func(store.Tx) error) error {
	return d.Run(ctx, store.ModeUpdate, func(t store.NativeTx) error { return fn(t) })
}

// Run is store.Native: a view, an update, or (ModeRead) fn's statements
// run as they are, each its own snapshot.
func (d *driver) Run(ctx context.Context, mode store.Mode, fn func(store.NativeTx) error) error {
	switch mode {
	case store.ModeView:
		return d.run(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", false, fn)
	case store.ModeUpdate:
		return retry.Do(ctx, conflicts, retryable, func(context.Context) error { return d.run(ctx, "BEGIN ISOLATION LEVEL SERIALIZABLE", true, fn) })
	case store.ModeRead:
		return d.run(ctx, "", false, fn)
	}
	return fmt.Errorf("postgres: unknown transaction mode %d", mode)
}

// retryable retries a serialization failure or a deadlock: the
// transaction may succeed when run again.
func retryable(err error) retry.Decision {
	var pgErr *pgconn.PgError
	return retry.Decision{Retry: errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")}
}

// run runs fn in a transaction that begins with the first statement fn
// sends (in one round trip with it): a transaction that reads one record
// costs two round trips, that one and its COMMIT. With no begin (Read)
// there is no transaction: one read is one round trip.
func (d *driver) run(ctx context.Context, begin string, writable bool, fn func(store.NativeTx) error) error {
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
	// seen holds, by bucket, the rows of its last cursor batch or
	// prefetch, so that a Get of a key just read (a walk of the summaries,
	// then each one read) is not another round trip; a write forgets them.
	seen    map[store.Bucket]map[string][]byte
	seenGen int
}

// remember makes rows b's last rows read.
func (t *tx) remember(b store.Bucket, rows []row) {
	if t.seen == nil || t.seenGen != t.gen {
		t.seen, t.seenGen = map[store.Bucket]map[string][]byte{}, t.gen
	}
	m := make(map[string][]byte, len(rows))
	for _, r := range rows {
		m[string(r.k)] = nonNil(r.v)
	}
	t.seen[b] = m
}

// recall returns key's value if b's last rows read hold it and nothing was
// written since.
func (t *tx) recall(b store.Bucket, key []byte) ([]byte, bool) {
	v, ok := t.seen[b][string(key)]
	return v, ok && t.seenGen == t.gen
}

// query sends a statement, after BEGIN if it is the first (and there is
// one: Read has none).
func (t *tx) query(sql string, args ...any) (pgx.Rows, error) {
	if t.begun || t.begin == "" {
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
	vs := rowsOf(t, pgx.RowTo[[]byte], "SELECT value FROM records WHERE tenant = $1 AND bucket = $2 AND key = $3", []byte(b.Tenant), b.Name, key)
	if len(vs) == 0 {
		return nil
	}
	return nonNil(vs[0]) // an empty value is not a missing one
}

// rowsOf runs a query and collects its rows with fn; a failure is the
// transaction's.
func rowsOf[T any](t *tx, fn pgx.RowToFunc[T], sql string, args ...any) []T {
	if t.err != nil {
		return nil
	}
	rows, err := t.query(sql, args...)
	var out []T
	if err == nil {
		out, err = pgx.CollectRows(rows, fn)
	}
	t.fail(err)
	return out
}

func scanRow(r pgx.CollectableRow) (x row, err error) {
	err = r.Scan(&x.k, &x.v)
	return x, err
}

// Prefetch is store.NativeTx's: b's records of keys read in one statement,
// kept as the bucket's last batch for the Gets that follow.
func (t *tx) Prefetch(b store.Bucket, keys [][]byte) {
	if t.err != nil || !slices.ContainsFunc(keys, func(k []byte) bool { _, ok := t.recall(b, k); return !ok }) {
		return
	}
	t.remember(b, rowsOf(t, scanRow, "SELECT key, value FROM records WHERE tenant = $1 AND bucket = $2 AND key = ANY($3) ORDER BY key", []byte(b.Tenant), b.Name, keys))
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
	// A loose index scan: one probe of the primary key per tenant.
	return rowsOf(t, func(r pgx.CollectableRow) (string, error) {
		var b []byte
		err := r.Scan(&b)
		return string(b), err
	}, `WITH RECURSIVE ts(tenant) AS (
	(SELECT tenant FROM records WHERE tenant > ''::bytea ORDER BY tenant LIMIT 1)
	UNION ALL
	SELECT (SELECT r.tenant FROM records r WHERE r.tenant > ts.tenant ORDER BY r.tenant LIMIT 1) FROM ts WHERE ts.tenant IS NOT NULL
) SELECT tenant FROM ts WHERE tenant IS NOT NULL`)
}

// IndexWords is store.NativeTx's: the words, as they are, are the
// record's tsvector (see migrations/0005_words.sql).
func (t *tx) IndexWords(b store.Bucket, key []byte, words []string) error {
	return t.exec("UPDATE records SET words = array_to_tsvector($4::text[]) WHERE tenant = $1 AND bucket = $2 AND key = $3", []byte(b.Tenant), b.Name, key, words)
}

// FindWords is store.NativeTx's: a tsquery of the prefixes (each quoted,
// so taken as it is) over the GIN index.
func (t *tx) FindWords(b store.Bucket, prefixes []string, limit int) [][]byte {
	q := make([]string, len(prefixes))
	for i, p := range prefixes {
		q[i] = "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(p) + "':*"
	}
	return rowsOf(t, pgx.RowTo[[]byte], "SELECT key FROM records WHERE tenant = $1 AND bucket = $2 AND words @@ $3::tsquery ORDER BY key DESC LIMIT $4", []byte(b.Tenant), b.Name, strings.Join(q, " & "), limit)
}

// SetTimes is store.NativeTx's (see migrations/0006_times.sql).
func (t *tx) SetTimes(b store.Bucket, keys [][]byte, ts []time.Time) error {
	ns := make([]int64, len(ts))
	for i, at := range ts {
		ns[i] = at.UnixNano()
	}
	return t.exec(`UPDATE records r SET at_ns = u.at FROM unnest($3::bytea[], $4::bigint[]) u(key, at)
WHERE r.tenant = $1 AND r.bucket = $2 AND r.key = u.key`, []byte(b.Tenant), b.Name, keys, ns)
}

// DeleteBefore is store.NativeTx's.
func (t *tx) DeleteBefore(b store.Bucket, at time.Time) (int, [][]byte, error) {
	if !t.writable || t.err != nil {
		return 0, nil, cmp.Or(t.err, errReadOnly)
	}
	t.gen++
	n := rowsOf(t, pgx.RowTo[int], `WITH d AS (DELETE FROM records WHERE tenant = $1 AND bucket = $2 AND at_ns < $3 RETURNING 1)
SELECT count(*) FROM d`, []byte(b.Tenant), b.Name, at.UnixNano())
	untimed := rowsOf(t, pgx.RowTo[[]byte], "SELECT key FROM records WHERE tenant = $1 AND bucket = $2 AND at_ns IS NULL", []byte(b.Tenant), b.Name)
	if t.err != nil {
		return 0, nil, t.err
	}
	return n[0], untimed, nil
}

// Timed is store.NativeTx's: over the index of times (records_at).
func (t *tx) Timed(b store.Bucket, limit int) [][]byte {
	lim := ""
	if limit > 0 {
		lim = fmt.Sprintf(" LIMIT %d", limit)
	}
	return rowsOf(t, pgx.RowTo[[]byte], "SELECT key FROM records WHERE tenant = $1 AND bucket = $2 AND at_ns IS NOT NULL ORDER BY at_ns, key"+lim, []byte(b.Tenant), b.Name)
}

func (t *tx) Cursor(b store.Bucket) store.Cursor { return &cursor{t: t, b: b} }

// cursor reads a batch of rows ahead in its direction, and again after a
// write in its transaction.
type cursor struct {
	t     *tx
	b     store.Bucket
	rows  []row
	i     int
	desc  bool // the batch runs backwards
	full  bool // the batch was full: more rows may follow
	batch int  // rows of the last batch
	gen   int
	key   []byte // the current key; nil: past an end
}

type row struct{ k, v []byte }

// A cursor reads firstBatch rows at first (a history page's lines),
// and four times as many each time after, up to maxBatch: a long walk
// takes few round trips.
const firstBatch, maxBatch = 20, 1280

// fetch reads the rows after (op ">"/">=") or before ("<"/"<=") from, or
// from an end when from is nil, and moves to the first.
func (c *cursor) fetch(op string, from []byte) ([]byte, []byte) {
	c.rows, c.i, c.gen, c.desc = nil, 0, c.t.gen, op[0] == '<'
	order := "ASC"
	if c.desc {
		order = "DESC"
	}
	cond := ""
	args := []any{[]byte(c.b.Tenant), c.b.Name}
	if from != nil {
		cond = fmt.Sprintf(" AND key %s $3", op)
		args = append(args, from)
	}
	c.batch = min(max(c.batch*4, firstBatch), maxBatch)
	sql := fmt.Sprintf("SELECT key, value FROM records WHERE tenant = $1 AND bucket = $2%s ORDER BY key %s LIMIT %d", cond, order, c.batch)
	c.rows = rowsOf(c.t, scanRow, sql, args...)
	c.full = len(c.rows) == c.batch
	c.t.remember(c.b, c.rows)
	return c.set()
}

// set makes row i current.
func (c *cursor) set() ([]byte, []byte) {
	if c.i < 0 || c.i >= len(c.rows) {
		c.key = nil
		return nil, nil
	}
	c.key = c.rows[c.i].k
	return c.key, nonNil(c.rows[c.i].v)
}

func (c *cursor) First() ([]byte, []byte)        { return c.fetch(">=", nil) }
func (c *cursor) Last() ([]byte, []byte)         { return c.fetch("<=", nil) }
func (c *cursor) Seek(k []byte) ([]byte, []byte) { return c.fetch(">=", slices.Clone(k)) }

// SeekBefore is store.NativeTx's: one descending read from k.
func (t *tx) SeekBefore(b store.Bucket, k []byte) (store.Cursor, []byte, []byte) {
	c := &cursor{t: t, b: b}
	key, v := c.fetch("<", slices.Clone(k))
	return c, key, v
}

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

// Insert is store.Native's: one statement, outside a serializable
// transaction (a blind insert has no reads to conflict over; retried if
// the server's default isolation makes it conflict). The record's time is
// its at_ns.
func (d *driver) Insert(ctx context.Context, r store.Record) (bool, error) {
	var n int64
	err := retry.Do(ctx, conflicts, retryable, func(context.Context) error {
		tag, err := d.pool.Exec(ctx, "INSERT INTO records (tenant, bucket, key, value, at_ns) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
			[]byte(r.Bucket.Tenant), r.Bucket.Name, r.Key, nonNil(r.Value), unixNano(r.Time))
		n = tag.RowsAffected()
		return err
	})
	return n == 1, ctxErr(ctx, err)
}

// unixNano is t in unix nanoseconds, or nil (NULL) if t is zero.
func unixNano(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	n := t.UnixNano()
	return &n
}

// Lease is store.Native's: one statement, outside a transaction. INSERT …
// ON CONFLICT DO UPDATE locks the lease record and decides on its latest
// version, so of two owners taking an expired lease at once one does.
func (d *driver) Lease(ctx context.Context, l store.Lease) (read []byte, ok bool, err error) {
	// Another owner's lease is free once its time (after the NUL) is past.
	free := `CASE WHEN position('\000'::bytea in r.value) = 0 THEN true
		ELSE convert_from(substring(r.value from position('\000'::bytea in r.value) + 1), 'UTF8')::bigint <= $7 END`
	mine := append([]byte(l.Owner), 0)
	err = retry.Do(ctx, conflicts, retryable, func(context.Context) error {
		return d.pool.QueryRow(ctx, `WITH req AS (SELECT value FROM records WHERE tenant = $1 AND bucket = $3 AND key = $4),
l AS (INSERT INTO records AS r (tenant, bucket, key, value) SELECT $1, $2, $4, $5 FROM req WHERE NOT $9
	ON CONFLICT (tenant, bucket, key) DO UPDATE SET value = excluded.value, words = NULL, at_ns = NULL
	WHERE substring(r.value for $6) = $8 OR `+free+` RETURNING 1),
renewed AS (UPDATE records r SET value = $5 FROM req WHERE $9 AND r.tenant = $1 AND r.bucket = $2 AND r.key = $4
	AND substring(r.value for $6) = $8 RETURNING 1)
SELECT (SELECT value FROM req), EXISTS (SELECT FROM l) OR EXISTS (SELECT FROM renewed)`,
			[]byte(l.Bucket.Tenant), l.Bucket.Name, l.Read.Name, l.Key,
			[]byte(l.Owner+"\x00"+strconv.FormatInt(l.Until.UnixNano(), 10)), len(mine), l.Now.UnixNano(), mine, l.Renew).Scan(&read, &ok)
	})
	return read, ok, ctxErr(ctx, err)
}

func nonNil(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}
