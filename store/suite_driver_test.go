package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/store"
)

// RunDriver is the conformance suite of store drivers (bbolt, memory,
// PostgreSQL): transactions, key order, cursors, buckets and tenants,
// isolation. open returns a new, empty driver, closed when t ends.
func RunDriver(t *testing.T, open func(t *testing.T) store.Driver) {
	tests := []struct {
		name string
		run  func(t *testing.T, d store.Driver)
	}{
		{"PutGetDelete", testDriverPutGetDelete},
		{"Rollback", testDriverRollback},
		{"ReadOnly", testDriverReadOnly},
		{"Order", testDriverOrder},
		{"CursorWhileWriting", testDriverCursorWhileWriting},
		{"GetAfterCursor", testDriverGetAfterCursor},
		{"Buckets", testDriverBuckets},
		{"Snapshot", testDriverSnapshot},
		{"Serializable", testDriverSerializable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, open(t)) })
	}
}

var (
	bA = store.Bucket{Tenant: "T1", Name: "a"}
	bB = store.Bucket{Tenant: "T1", Name: "b"}
	bC = store.Bucket{Tenant: "T2", Name: "a"}
	bG = store.Bucket{Name: "a"}
)

func update(t *testing.T, d store.Driver, fn func(store.Tx) error) {
	t.Helper()
	if err := d.Update(context.Background(), fn); err != nil {
		t.Fatalf("update: %v", err)
	}
}

// get reads one value in its own view (nil: missing).
func get(t *testing.T, d store.Driver, b store.Bucket, k string) []byte {
	t.Helper()
	var v []byte
	err := d.View(context.Background(), func(tx store.Tx) error {
		if got := tx.Get(b, []byte(k)); got != nil {
			v = append([]byte{}, got...)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("view: %v", err)
	}
	return v
}

func testDriverPutGetDelete(t *testing.T, d store.Driver) {
	val := []byte("v1")
	update(t, d, func(tx store.Tx) error {
		if err := tx.Put(bA, []byte("k"), val); err != nil {
			return err
		}
		if got := tx.Get(bA, []byte("k")); string(got) != "v1" {
			return fmt.Errorf("own write read back as %q", got)
		}
		return tx.Put(bA, []byte("empty"), nil)
	})
	val[0] = 'X' // the driver kept a copy
	if got := get(t, d, bA, "k"); string(got) != "v1" {
		t.Errorf("get = %q, want v1", got)
	}
	if got := get(t, d, bA, "empty"); got == nil {
		t.Error("a key with an empty value reads as missing")
	}
	if got := get(t, d, bA, "missing"); got != nil {
		t.Errorf("missing key = %q", got)
	}
	update(t, d, func(tx store.Tx) error {
		if err := tx.Delete(bA, []byte("missing")); err != nil {
			return err
		}
		return tx.Delete(bA, []byte("k"))
	})
	if got := get(t, d, bA, "k"); got != nil {
		t.Errorf("deleted key = %q", got)
	}
}

func testDriverRollback(t *testing.T, d store.Driver) {
	update(t, d, func(tx store.Tx) error { return tx.Put(bA, []byte("k"), []byte("old")) })
	boom := errors.New("boom")
	err := d.Update(context.Background(), func(tx store.Tx) error {
		tx.Put(bA, []byte("k"), []byte("new"))
		tx.Put(bB, []byte("k2"), []byte("new"))
		tx.DropBucket(bC)
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("update = %v, want %v", err, boom)
	}
	if got := get(t, d, bA, "k"); string(got) != "old" {
		t.Errorf("after a failed update: %q, want old", got)
	}
	if got := get(t, d, bB, "k2"); got != nil {
		t.Errorf("a failed update wrote %q", got)
	}
}

func testDriverReadOnly(t *testing.T, d store.Driver) {
	err := d.View(context.Background(), func(tx store.Tx) error {
		if tx.Put(bA, []byte("k"), []byte("v")) == nil {
			t.Error("put in a view succeeded")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.Update(ctx, func(store.Tx) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("update with a canceled context = %v", err)
	}
}

// orderKeys sort bytewise: NUL and 0xff bytes, prefixes, and more keys
// than one batch of a driver that reads ahead.
func orderKeys() []string {
	ks := []string{"\x00", "a", "a\x00", "a\x00b", "a\x01", "ab", "b", "\xff", "\xff\xff"}
	for i := range 150 {
		ks = append(ks, fmt.Sprintf("n%03d", i))
	}
	slices.Sort(ks)
	return ks
}

func testDriverOrder(t *testing.T, d store.Driver) {
	ks := orderKeys()
	update(t, d, func(tx store.Tx) error {
		for i := len(ks) - 1; i >= 0; i-- {
			if err := tx.Put(bA, []byte(ks[i]), []byte("v"+ks[i])); err != nil {
				return err
			}
		}
		return nil
	})
	d.View(context.Background(), func(tx store.Tx) error {
		c := tx.Cursor(bA)
		var fwd, back []string
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if string(v) != "v"+string(k) {
				t.Errorf("value of %q = %q", k, v)
			}
			fwd = append(fwd, string(k))
		}
		for k, _ := c.Last(); k != nil; k, _ = c.Prev() {
			back = append(back, string(k))
		}
		if d := cmp.Diff(fwd, ks); d != "" {
			t.Errorf("First/Next (-got +want):\n%s", d)
		}
		slices.Reverse(back)
		if d := cmp.Diff(back, ks); d != "" {
			t.Errorf("Last/Prev, reversed (-got +want):\n%s", d)
		}
		for _, s := range []struct{ seek, want, prev string }{
			{"a\x00", "a\x00", "a"}, {"a\x00a", "a\x00b", "a\x00"}, {"n050x", "n051", "n050"}, {"", "\x00", ""}, {"\xff\xff\xff", "", ""},
		} {
			k, _ := c.Seek([]byte(s.seek))
			if string(k) != s.want {
				t.Errorf("Seek(%q) = %q, want %q", s.seek, k, s.want)
			}
			if k != nil {
				if p, _ := c.Prev(); string(p) != s.prev {
					t.Errorf("Prev after Seek(%q) = %q, want %q", s.seek, p, s.prev)
				}
			}
		}
		if n, ok := tx.(store.NativeTx); ok {
			testSeekBefore(t, n, ks)
		}
		if k, _ := tx.Cursor(bB).First(); k != nil {
			t.Errorf("empty bucket's first key = %q", k)
		}
		return nil
	})
}

// testSeekBefore: SeekBefore(k) is the last of the ordered keys ks below
// k, and the cursor it returns walks on from it both ways.
func testSeekBefore(t *testing.T, n store.NativeTx, ks []string) {
	for _, seek := range []string{"a\x00", "a\x00a", "n050x", "", "\xff\xff\xff", ks[0]} {
		i, _ := slices.BinarySearch(ks, seek) // ks[i] is the first key at or after seek
		var want, prev, next string
		if i > 0 {
			want, next = ks[i-1], seek
			if i < len(ks) {
				next = ks[i]
			}
			if i > 1 {
				prev = ks[i-2]
			}
		}
		c, k, _ := n.SeekBefore(bA, []byte(seek))
		if string(k) != want {
			t.Errorf("SeekBefore(%q) = %q, want %q", seek, k, want)
			continue
		}
		if k == nil {
			continue
		}
		if p, _ := c.Prev(); string(p) != prev {
			t.Errorf("Prev after SeekBefore(%q) = %q, want %q", seek, p, prev)
		}
		c, _, _ = n.SeekBefore(bA, []byte(seek))
		if n, _ := c.Next(); i < len(ks) && string(n) != next {
			t.Errorf("Next after SeekBefore(%q) = %q, want %q", seek, n, next)
		}
	}
}

func testDriverCursorWhileWriting(t *testing.T, d store.Driver) {
	update(t, d, func(tx store.Tx) error {
		for _, k := range orderKeys() {
			tx.Put(bA, []byte(k), []byte("v"))
		}
		return nil
	})
	var seen int
	update(t, d, func(tx store.Tx) error {
		c := tx.Cursor(bA)
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			seen++
			if err := tx.Delete(bA, k); err != nil {
				return err
			}
		}
		return nil
	})
	if seen != len(orderKeys()) {
		t.Errorf("deleting while walking visited %d keys, want %d", seen, len(orderKeys()))
	}
	d.View(context.Background(), func(tx store.Tx) error {
		if k, _ := tx.Cursor(bA).First(); k != nil {
			t.Errorf("key %q left", k)
		}
		return nil
	})
}

// testDriverGetAfterCursor reads keys a cursor has just walked (in either
// direction, PostgreSQL answers them from the cursor's batch), then writes
// and deletes some and reads them again in the same transaction.
func testDriverGetAfterCursor(t *testing.T, d store.Driver) {
	update(t, d, func(tx store.Tx) error {
		for _, k := range []string{"a", "b", "c", "d"} {
			if err := tx.Put(bA, []byte(k), []byte("old "+k)); err != nil {
				return err
			}
		}
		return tx.Put(bB, []byte("b"), []byte("other bucket"))
	})
	update(t, d, func(tx store.Tx) error {
		var got []string
		c := tx.Cursor(bA)
		for k, _ := c.Last(); k != nil; k, _ = c.Prev() {
			got = append(got, string(tx.Get(bA, k)))
		}
		c.First()
		got = append(got, string(tx.Get(bA, []byte("c"))), fmt.Sprint(tx.Get(bA, []byte("bb")) == nil), string(tx.Get(bB, []byte("b"))))
		if err := tx.Put(bA, []byte("c"), []byte("new c")); err != nil {
			return err
		}
		if err := tx.Delete(bA, []byte("d")); err != nil {
			return err
		}
		got = append(got, string(tx.Get(bA, []byte("c"))), fmt.Sprint(tx.Get(bA, []byte("d")) == nil))
		want := []string{"old d", "old c", "old b", "old a", "old c", "true", "other bucket", "new c", "true"}
		if diff := cmp.Diff(got, want); diff != "" {
			return fmt.Errorf("reads (-got +want):\n%s", diff)
		}
		return nil
	})
}

func testDriverBuckets(t *testing.T, d store.Driver) {
	update(t, d, func(tx store.Tx) error {
		for i, b := range []store.Bucket{bA, bB, bC, bG} {
			if err := tx.Put(b, []byte("k"), []byte{byte('0' + i)}); err != nil {
				return err
			}
		}
		return nil
	})
	for i, b := range []store.Bucket{bA, bB, bC, bG} {
		if got := get(t, d, b, "k"); string(got) != string(rune('0'+i)) {
			t.Errorf("%+v: %q", b, got)
		}
	}
	tenants := func() []string {
		var out []string
		d.View(context.Background(), func(tx store.Tx) error { out = tx.Tenants(); return nil })
		return out
	}
	if d := cmp.Diff(tenants(), []string{"T1", "T2"}); d != "" {
		t.Errorf("tenants (-got +want):\n%s", d)
	}
	update(t, d, func(tx store.Tx) error { return tx.DropBucket(bA) })
	if get(t, d, bA, "k") != nil || get(t, d, bB, "k") == nil {
		t.Error("DropBucket dropped the wrong bucket")
	}
	update(t, d, func(tx store.Tx) error { // a bucket dropped and written again in one transaction
		return errors.Join(tx.DropBucket(bC), tx.Put(bC, []byte("new"), []byte("n")))
	})
	if get(t, d, bC, "k") != nil || string(get(t, d, bC, "new")) != "n" {
		t.Error("a bucket written after its drop in the same transaction kept its old keys or lost the new one")
	}
	update(t, d, func(tx store.Tx) error { return tx.DropTenant("T1") })
	if get(t, d, bB, "k") != nil || get(t, d, bC, "new") == nil || get(t, d, bG, "k") == nil {
		t.Error("DropTenant dropped the wrong buckets")
	}
	if got := tenants(); slices.Contains(got, "T1") {
		t.Errorf("tenants after DropTenant(T1): %v", got)
	}
}

// testDriverSnapshot: a view sees one state, whatever commits meanwhile.
func testDriverSnapshot(t *testing.T, d store.Driver) {
	update(t, d, func(tx store.Tx) error { return tx.Put(bA, []byte("k"), []byte("old")) })
	done := make(chan error, 1)
	d.View(context.Background(), func(tx store.Tx) error {
		if got := tx.Get(bA, []byte("k")); string(got) != "old" {
			t.Errorf("first read %q", got)
		}
		go func() {
			done <- d.Update(context.Background(), func(tx store.Tx) error { return tx.Put(bA, []byte("k"), []byte("new")) })
		}()
		select {
		case err := <-done: // a driver with concurrent writers committed
			done <- err
		case <-timeAfter():
		}
		if got := tx.Get(bA, []byte("k")); string(got) != "old" {
			t.Errorf("second read in the same view %q, want old", got)
		}
		return nil
	})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := get(t, d, bA, "k"); string(got) != "new" {
		t.Errorf("after the update: %q", got)
	}
}

// testDriverSerializable: concurrent read-modify-write updates lose none.
func testDriverSerializable(t *testing.T, d store.Driver) {
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			errs <- d.Update(context.Background(), func(tx store.Tx) error {
				v := tx.Get(bA, []byte("count"))
				return tx.Put(bA, []byte("count"), append(slices.Clone(v), 'x'))
			})
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := get(t, d, bA, "count"); len(got) != n {
		t.Errorf("count = %d, want %d", len(got), n)
	}
}

// timeAfter is how long the snapshot test lets a concurrent update run.
func timeAfter() <-chan time.Time { return time.After(100 * time.Millisecond) }
