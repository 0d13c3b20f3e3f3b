package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// hidden are Native drivers (driver.go) opened with Native hidden, so
// that the store's portable path runs over them too (memory-shared is the
// memory driver's, with OneProcess hidden).
var hidden = []struct {
	name string
	open func(t *testing.T, opts store.Options) *store.DB
}{
	{"Postgres-portable", func(t *testing.T, opts store.Options) *store.DB {
		db, err := store.New(context.Background(), portable{openPostgres(t, opts).Driver()}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}},
}

// portable is a driver with Native (and OneProcess) hidden: the store
// runs over it by its portable path, whatever its transactions are.
type portable struct{ store.Driver }

// TestPortable runs the domain suites over the portable path of a Native
// driver: the store behaves the same on both paths.
func TestPortable(t *testing.T) {
	for _, d := range hidden {
		t.Run(d.name, func(t *testing.T) {
			Run(t, func(t *testing.T, now func() time.Time) Backend { return d.open(t, store.Options{Now: now}) })
			RunMaintained(t, func(t *testing.T, now func() time.Time) Maintained {
				return checkedDB{d.open(t, store.Options{Now: now})}
			})
		})
	}
}

// TestPaths checks each method of a Native driver, and the store's use of
// it or of its portable path, on every driver: the native path on
// PostgreSQL, the portable one elsewhere (and on PostgreSQL with Native
// hidden).
func TestPaths(t *testing.T) {
	for _, d := range append(drivers[:len(drivers):len(drivers)], hidden...) {
		t.Run(d.name, func(t *testing.T) {
			t.Run("Path", func(t *testing.T) {
				db := d.open(t, store.Options{})
				_, native := db.Driver().(store.Native)
				if db.Native() != native {
					t.Errorf("store on its native path: %v; driver Native: %v", db.Native(), native)
				}
			})
			t.Run("Insert", func(t *testing.T) { testInsert(t, d.open(t, store.Options{}).Driver()) })
			t.Run("Read", func(t *testing.T) { testRead(t, d.open(t, store.Options{}).Driver()) })
			t.Run("Lease", func(t *testing.T) { testLease(t, d.open(t, store.Options{}).Driver()) })
			t.Run("ConcurrentTakeOver", func(t *testing.T) {
				clk := storetest.NewClock(t0)
				testConcurrentTakeOver(t, d.open(t, store.Options{Now: clk.Now}), clk)
			})
			t.Run("Times", func(t *testing.T) { testTimes(t, d.open(t, store.Options{}).Driver()) })
			t.Run("PruneCache", func(t *testing.T) { testPruneCache(t, d.open(t, store.Options{})) })
			t.Run("ConcurrentAccepts", func(t *testing.T) { testConcurrentAccepts(t, d.open(t, store.Options{})) })
		})
	}
}

// TestWordSearch: a word search finds the same checks on every driver,
// with its native index or the store's own (the memory driver's answers
// are the reference), on a random corpus with shared prefixes, words cut
// in the index and characters a tsquery would read as syntax.
func TestWordSearch(t *testing.T) {
	long := strings.Repeat("é", 40) // 80 bytes: indexed by its first 64
	vocab := []string{"a", "ab", "abc", "b", "ba", "cat", "cats", "dogma", "élan", "Über", "3.5%", "35", "a|b", "x<y>", "c+c", "^^", long, long + "z"}
	prefixes := []string{"a", "ab", "b", "ca", "cats", "d", "é", "ü", "3", "3.", "a|", "x<", "c+c", "^", long[:66], long, long + "z", "z"}
	rng := rand.New(rand.NewPCG(5, 6))
	var texts []string
	for range 150 {
		var ws []string
		for range 1 + rng.IntN(4) {
			ws = append(ws, vocab[rng.IntN(len(vocab))])
		}
		texts = append(texts, strings.Join(ws, " "))
	}
	var queries []store.HistoryQuery
	for range 150 {
		var qs []string
		for range 1 + rng.IntN(3) {
			qs = append(qs, prefixes[rng.IntN(len(prefixes))])
		}
		queries = append(queries, store.HistoryQuery{Search: strings.Join(qs, " "), Limit: 1 + rng.IntN(30), Channel: []string{"", "C1"}[rng.IntN(2)]})
	}
	answers := func(db *store.DB) [][]string {
		var cs []*store.Check
		for i, s := range texts {
			cs = append(cs, check("T1", fmt.Sprintf("C%d", i%2), "U1", s, t0.Add(time.Duration(i)*time.Minute), map[string]factcheck.Label{s: factcheck.Supported}))
		}
		mustf(t, db.SaveChecks(ctx, cs), "save")
		var out [][]string
		for _, q := range queries {
			h, err := db.History(ctx, "T1", q)
			mustf(t, err, "history")
			var got []string
			for _, s := range h {
				got = append(got, s.Text)
			}
			out = append(out, got)
		}
		return out
	}
	want := answers(store.NewMemory(store.Options{}))
	for _, d := range append(drivers[:len(drivers):len(drivers)], hidden...) {
		t.Run(d.name, func(t *testing.T) {
			got := answers(d.open(t, store.Options{}))
			for i, q := range queries {
				if diff := cmp.Diff(want[i], got[i]); diff != "" {
					t.Errorf("History(%+v) (-memory +%s):\n%s", q, d.name, diff)
				}
			}
		})
	}
}

// testInsert: Insert writes a record, and its time, if its key is
// absent.
func testInsert(t *testing.T, d store.Driver) {
	ins, ok := d.(store.Native)
	if !ok {
		t.Skip("portable path: AcceptRequest inserts in a transaction")
	}
	for i, want := range []bool{true, false} {
		r := store.Record{Bucket: bA, Key: []byte("k"), Value: []byte(fmt.Sprint(i + 1)), Time: t0}
		if got, err := ins.Insert(context.Background(), r); got != want || err != nil {
			t.Errorf("Insert #%d = %v, %v; want %v", i+1, got, err, want)
		}
	}
	var timed [][]byte
	ins.Run(ctx, store.ModeView, func(tx store.NativeTx) error {
		timed = tx.Timed(bA, 0)
		return nil
	})
	if v := get(t, d, bA, "k"); string(v) != "1" || len(timed) != 1 {
		t.Errorf("after two inserts: k=%q, timed keys %q; want k=1, timed [k]", v, timed)
	}
}

// testRead: a read (ModeRead) sees what is committed when each of its
// reads runs (an empty value is not a missing one) and cannot write.
func testRead(t *testing.T, d store.Driver) {
	n, ok := d.(store.Native)
	if !ok {
		t.Skip("portable path: reads are views")
	}
	read := func(ctx context.Context, fn func(store.Tx) error) error {
		return n.Run(ctx, store.ModeRead, func(tx store.NativeTx) error { return fn(tx) })
	}
	put := func(k, v string) {
		mustf(t, d.Update(ctx, func(tx store.Tx) error { return tx.Put(bA, []byte(k), []byte(v)) }), "put")
	}
	put("k", "1")
	mustf(t, d.Update(ctx, func(tx store.Tx) error { return tx.Put(bA, []byte("e"), nil) }), "put")
	var first, second, empty, missing []byte
	var putErr error
	err := read(ctx, func(tx store.Tx) error {
		first = bytes.Clone(tx.Get(bA, []byte("k")))
		put("k", "2") // committed between the two reads
		second, empty, missing = bytes.Clone(tx.Get(bA, []byte("k"))), tx.Get(bA, []byte("e")), tx.Get(bA, []byte("missing"))
		empty = bytes.Clone(empty)
		putErr = tx.Put(bA, []byte("k"), []byte("3"))
		return nil
	})
	if string(first) != "1" || string(second) != "2" || empty == nil || len(empty) != 0 || missing != nil {
		t.Errorf("Read: k=%q then %q, e=%q (nil: %v), missing=%q; want 1, 2, an empty value, nil", first, second, empty, empty == nil, missing)
	}
	if err == nil && putErr == nil {
		t.Errorf("a write in a Read succeeded")
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if err := read(canceled, func(tx store.Tx) error { tx.Get(bA, []byte("k")); return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Read with a canceled context: %v, want context.Canceled", err)
	}
}

// testConcurrentAccepts: one event delivered many times at once is
// accepted once; events with neighbouring keys are all accepted.
func testConcurrentAccepts(t *testing.T, db *store.DB) {
	var fresh atomic.Int32
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			for _, key := range []string{"slack:event:same", fmt.Sprintf("slack:event:%02d", i)} {
				isNew, err := db.AcceptRequest(ctx, &store.Request{Key: key, Tenant: "T1", Text: "x"})
				if err != nil {
					t.Errorf("accept %s: %v", key, err)
				}
				if isNew && key == "slack:event:same" {
					fresh.Add(1)
				}
			}
		})
	}
	wg.Wait()
	pend, err := db.PendingRequests(ctx, "T1")
	if n := fresh.Load(); n != 1 || err != nil || len(pend) != 41 {
		t.Errorf("new accepts of one key: %d, want 1; pending: %d, %v, want 41", n, len(pend), err)
	}
}

// testLease: a lease is taken if its record is free, expired or the
// owner's, and only while the record it is for exists; renewed only by
// its owner; of owners taking an expired lease at once, one does.
func testLease(t *testing.T, d store.Driver) {
	lr, ok := d.(store.Native)
	if !ok {
		t.Skip("portable path: leases are taken in serializable updates")
	}
	update(t, d, func(tx store.Tx) error { return tx.Put(bB, []byte("k"), []byte("req")) })
	step := func(key, owner string, now, until int, renew, want bool) {
		t.Helper()
		l := store.Lease{Bucket: bA, Read: bB, Key: []byte(key), Owner: owner, Renew: renew,
			Now: t0.Add(time.Duration(now) * time.Hour), Until: t0.Add(time.Duration(until) * time.Hour)}
		read, ok, err := lr.Lease(ctx, l)
		wantRead := map[bool]string{true: "req"}[key == "k"]
		if string(read) != wantRead || ok != want || err != nil {
			t.Errorf("Lease(%s, %s, now %d, until %d, renew %v) = %q, %v, %v; want %q, %v", key, owner, now, until, renew, read, ok, err, wantRead, want)
		}
		if v := get(t, d, bA, key); ok && string(v) != fmt.Sprintf("%s\x00%d", owner, l.Until.UnixNano()) {
			t.Errorf("lease record after a take: %q", v)
		}
	}
	step("missing", "O1", 0, 1, false, false)
	if get(t, d, bA, "missing") != nil {
		t.Error("a lease was taken for a missing record")
	}
	step("k", "O1", 0, 1, true, false) // not held: no renewal
	step("k", "O1", 0, 1, false, true)
	step("k", "O2", 0, 1, false, false)
	step("k", "O2", 0, 1, true, false)
	step("k", "O1", 0, 2, true, true)
	step("k", "O1", 1, 2, false, true) // its own
	step("k", "O2", 2, 3, false, true) // expired
	step("k", "O1", 2, 4, true, false)
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			l := store.Lease{Bucket: bA, Read: bB, Key: []byte("k"), Owner: fmt.Sprint("P", i), Now: t0.Add(3 * time.Hour), Until: t0.Add(4 * time.Hour)}
			if _, ok, err := lr.Lease(ctx, l); ok {
				won.Add(1)
			} else if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := won.Load(); n != 1 {
		t.Errorf("owners taking an expired lease at once: %d took it, want 1", n)
	}
}

// testConcurrentTakeOver: of owners taking over an expired lease at once,
// one gets it, and its first owner has lost it.
func testConcurrentTakeOver(t *testing.T, db *store.DB, clk *storetest.Clock) {
	acceptTwo(t, db, clk)
	if !claim(t, db, "slack:event:Ev1", "O0") {
		t.Fatal("first claim failed")
	}
	clk.Add(2 * leaseD)
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			r, err := db.ClaimRequest(ctx, "T1", "slack:event:Ev1", fmt.Sprintf("O%d", i+1), leaseD)
			if err != nil {
				t.Errorf("claim: %v", err)
			}
			if r != nil {
				won.Add(1)
			}
		})
	}
	wg.Wait()
	if n := won.Load(); n != 1 {
		t.Errorf("owners taking the lease over: %d, want 1", n)
	}
	if err := db.RenewLease(ctx, "T1", "slack:event:Ev1", "O0", leaseD); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("first owner's renewal: %v, want ErrLeaseLost", err)
	}
}

// testPruneCache: Prune deletes the cached verdicts made before its
// cutoff, those whose time a driver keeps and those it does not (new
// since the last prune, or written again), and keeps the others.
func testPruneCache(t *testing.T, db *store.DB) {
	put := func(claim string, h int) {
		mustf(t, db.PutVerdict(ctx, "T1", verdict(claim, factcheck.Supported, t0.Add(time.Duration(h)*time.Hour)), nil), "put")
	}
	prune := func(h, want int) {
		t.Helper()
		st, err := db.Prune(ctx, t0.Add(time.Duration(h)*time.Hour))
		if err != nil || st.Verdicts != want {
			t.Errorf("Prune before hour %d: %d verdicts, %v; want %d", h, st.Verdicts, err, want)
		}
	}
	put("a", 0)
	put("b", 2)
	put("c", 4)
	prune(1, 1)
	put("d", 0)
	put("c", 1) // written again, older
	put("e", 5)
	prune(3, 3)
	for claim, want := range map[string]bool{"a": false, "b": false, "c": false, "d": false, "e": true} {
		if _, ok, err := db.Verdict(ctx, "T1", claim, 100*365*24*time.Hour, nil); ok != want || err != nil {
			t.Errorf("Verdict(%s) after prunes: %v, %v; want %v", claim, ok, err, want)
		}
	}
	prune(6, 1)
}

// testTimes: records are deleted by the times set on them; a record
// without one, or written again, is listed.
func testTimes(t *testing.T, d store.Driver) {
	n, ok := d.(store.Native)
	if !ok {
		t.Skip("portable path: Prune decodes every cached record")
	}
	step := func(fn func(ex store.NativeTx, tx store.Tx) error) {
		t.Helper()
		mustf(t, n.Run(ctx, store.ModeUpdate, func(tx store.NativeTx) error { return fn(tx, tx) }), "update")
	}
	deleteBefore := func(h int, wantN int, want ...string) {
		t.Helper()
		step(func(ex store.NativeTx, tx store.Tx) error {
			n, untimed, err := ex.DeleteBefore(bA, t0.Add(time.Duration(h)*time.Hour))
			var got []string
			for _, k := range untimed {
				got = append(got, string(k))
			}
			if n != wantN || err != nil || !slices.Equal(got, want) {
				t.Errorf("DeleteBefore(hour %d) = %d, %q, %v; want %d, %q", h, n, got, err, wantN, want)
			}
			return err
		})
	}
	step(func(ex store.NativeTx, tx store.Tx) error {
		for _, k := range []string{"k1", "k2", "k3"} {
			mustf(t, tx.Put(bA, []byte(k), []byte("v")), "put")
		}
		return tx.Put(bB, []byte("k1"), []byte("v"))
	})
	deleteBefore(1, 0, "k1", "k2", "k3")
	step(func(ex store.NativeTx, tx store.Tx) error {
		return ex.SetTimes(bA, [][]byte{[]byte("k1"), []byte("k2")}, []time.Time{t0, t0.Add(2 * time.Hour)})
	})
	deleteBefore(1, 1, "k3")
	step(func(ex store.NativeTx, tx store.Tx) error { return tx.Put(bA, []byte("k2"), []byte("w")) })
	deleteBefore(3, 0, "k2", "k3")
	if get(t, d, bB, "k1") == nil {
		t.Error("DeleteBefore deleted from another bucket")
	}
}

// TestHistoryReadsRecordsAsTheyCome: a history page read without a
// transaction (the native path's ModeRead) skips a check deleted after the
// index entry that names it was read, instead of failing. (A page of the
// latest checks reads each summary with its entry, as does a page through
// an index entry that holds its summary: they have no such gap. The
// entries here are made as those written before entries held summaries,
// which are read through the summaries.)
func TestHistoryReadsRecordsAsTheyCome(t *testing.T) {
	drv, ok := openPostgres(t, store.Options{}).Driver().(store.Native)
	if !ok {
		t.Fatal("the PostgreSQL driver is not Native")
	}
	db, err := store.New(ctx, drv, store.Options{})
	mustf(t, err, "open")
	var cs []*store.Check
	for i := range 3 {
		cs = append(cs, check("T1", "C1", "U1", fmt.Sprintf("claim %d", i), t0.Add(time.Duration(i)*time.Minute), map[string]factcheck.Label{"x": factcheck.Supported}))
	}
	mustf(t, db.SaveChecks(ctx, cs), "save")
	byUser := store.Bucket{Tenant: "T1", Name: "by_user"}
	update(t, drv, func(tx store.Tx) error {
		var keys [][]byte
		c := tx.Cursor(byUser)
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			keys = append(keys, bytes.Clone(k))
		}
		for _, k := range keys {
			if err := tx.Put(byUser, k, nil); err != nil {
				return err
			}
		}
		return nil
	})
	db, err = store.New(ctx, gone{drv, cs[1].ID}, store.Options{})
	mustf(t, err, "open")
	for _, q := range []store.HistoryQuery{{User: "U1"}, {Search: "claim"}} {
		h, err := db.History(ctx, "T1", q)
		var got []string
		for _, s := range h {
			got = append(got, s.Text)
		}
		if diff := cmp.Diff(got, []string{"claim 2", "claim 0"}); diff != "" || err != nil {
			t.Errorf("History(%+v): %v (-got +want):\n%s", q, err, diff)
		}
	}
}

// gone is a Native driver whose reads without a transaction find no
// summary of the check id, as if it was deleted after its index entries
// were read.
type gone struct {
	store.Native
	id string
}

func (g gone) Run(ctx context.Context, mode store.Mode, fn func(store.NativeTx) error) error {
	if mode != store.ModeRead {
		return g.Native.Run(ctx, mode, fn)
	}
	return g.Native.Run(ctx, mode, func(tx store.NativeTx) error { return fn(goneTx{tx, g.id}) })
}

type goneTx struct {
	store.NativeTx
	id string
}

func (t goneTx) Get(b store.Bucket, k []byte) []byte {
	if b.Name == "sums" && string(k) == t.id {
		return nil
	}
	return t.NativeTx.Get(b, k)
}

// TestPendingTimesUpgrade: a PostgreSQL database of schema version 4,
// whose pending requests are listed by the pending index, opens with them
// listed by their times instead, oldest first, and the index gone.
func TestPendingTimesUpgrade(t *testing.T) {
	clk := storetest.NewClock(t0)
	drv := openPostgres(t, store.Options{}).Driver()
	old, err := store.New(ctx, portable{drv}, store.Options{Now: clk.Now})
	mustf(t, err, "open without capabilities")
	var want []string
	for _, k := range []string{"b", "a", "c", "done"} {
		_, err := old.AcceptRequest(ctx, &store.Request{Key: k, Tenant: "T1", Text: "x"})
		mustf(t, err, "accept")
		want = append(want, k)
		clk.Add(time.Second)
	}
	mustf(t, old.FinishRequest(ctx, "T1", "done", store.RequestDone, ""), "finish")
	want = want[:3]
	pendingIndex := store.Bucket{Tenant: "T1", Name: "pending"}
	meta := store.Bucket{Name: "meta"}
	update(t, drv, func(tx store.Tx) error { return tx.Put(meta, []byte("schema"), []byte("4")) })
	if k, _ := cursorFirst(t, drv, pendingIndex); k == nil {
		t.Fatal("no pending index written without capabilities")
	}
	db, err := store.New(ctx, drv, store.Options{Now: clk.Now})
	mustf(t, err, "open")
	pend, err := db.PendingRequests(ctx, "T1")
	mustf(t, err, "pending")
	var got []string
	for _, r := range pend {
		got = append(got, r.Key)
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("pending requests after the upgrade (-got +want):\n%s", diff)
	}
	if k, _ := cursorFirst(t, drv, pendingIndex); k != nil || string(get(t, drv, meta, "schema")) != "6" { // 4 to 5, then 6 (which changes nothing on PostgreSQL)
		t.Errorf("after the upgrade: pending index entry %q, schema %q", k, get(t, drv, meta, "schema"))
	}
	mustf(t, store.CheckInvariants(db), "invariants")
}

func cursorFirst(t *testing.T, d store.Driver, b store.Bucket) (k, v []byte) {
	t.Helper()
	if err := d.View(ctx, func(tx store.Tx) error { k, v = tx.Cursor(b).First(); return nil }); err != nil {
		t.Fatal(err)
	}
	return k, v
}

// TestAcceptWithoutInserter: a Native driver hidden behind another type
// is on the portable path as a whole, though its transactions are native:
// an accept writes the pending index, and the request is listed as
// pending. (When a driver's transactions kept times but it had no
// Inserter, the accept lost the request from the pending list; the two
// are now one interface, so that mix cannot be made.)
func TestAcceptWithoutInserter(t *testing.T) {
	drv := openPostgres(t, store.Options{}).Driver()
	db, err := store.New(ctx, struct{ store.Driver }{drv}, store.Options{})
	mustf(t, err, "open")
	_, err = db.AcceptRequest(ctx, &store.Request{Key: "k", Tenant: "T1", Text: "x"})
	mustf(t, err, "accept")
	pend, err := db.PendingRequests(ctx, "T1")
	if err != nil || len(pend) != 1 {
		t.Errorf("pending requests: %d, %v; want 1", len(pend), err)
	}
	mustf(t, store.CheckInvariants(db), "invariants")
}
