package groupcommit

import (
	"errors"
	"fmt"
	"maps"
	"runtime"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var errClosed = errors.New("closed")

// fakeDB is a store of one writer: update holds its lock, runs fn on a copy
// of the data and keeps the copy if fn succeeds (one commit).
type fakeDB struct {
	lock    sync.Mutex
	data    map[string]int
	commits int
	closed  bool
}

func (d *fakeDB) update(fn func(map[string]int) error) error {
	d.lock.Lock()
	defer d.lock.Unlock()
	if d.closed {
		return errClosed
	}
	tx := maps.Clone(d.data)
	if err := fn(tx); err != nil {
		return err
	}
	d.data = tx
	d.commits++
	return nil
}

func set(k string, v int) func(map[string]int) error {
	return func(tx map[string]int) error { tx[k] = v; return nil }
}

// fail writes, then fails: nothing of it may be kept.
func fail(k string) func(map[string]int) error {
	return func(tx map[string]int) error { tx[k] = -1; return fmt.Errorf("write %s failed", k) }
}

// sets returns n writes of distinct keys.
func sets(n int) []func(map[string]int) error {
	var out []func(map[string]int) error
	for i := range n {
		out = append(out, set(fmt.Sprint(i), i))
	}
	return out
}

// TestDo queues every write behind the held writer lock, so that they form
// groups, then lets them commit: each write gets its own answer, and a
// failing one does not undo the others.
func TestDo(t *testing.T) {
	tests := []struct {
		name        string
		solo        bool
		closed      bool
		writes      []func(map[string]int) error
		wantErrs    []string
		wantKeys    int
		wantCommits int
	}{
		{name: "one group", writes: sets(10), wantErrs: make([]string, 10), wantKeys: 10, wantCommits: 1},
		{name: "solo", solo: true, writes: sets(3), wantErrs: make([]string, 3), wantKeys: 3, wantCommits: 3},
		{name: "over MaxGroup", writes: sets(MaxGroup + 5), wantErrs: make([]string, MaxGroup+5), wantKeys: MaxGroup + 5, wantCommits: 2},
		{
			name:     "a failure",
			writes:   []func(map[string]int) error{set("a", 1), fail("b"), set("c", 3)},
			wantErrs: []string{"", "write b failed", ""}, wantKeys: 2, wantCommits: 1,
		},
		{name: "closed", closed: true, writes: sets(2), wantErrs: []string{"closed", "closed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &fakeDB{data: map[string]int{}, closed: tt.closed}
			c := New(d.update, tt.solo)
			errs := make([]string, len(tt.writes))
			var wg sync.WaitGroup
			d.lock.Lock()
			for i, fn := range tt.writes {
				wg.Go(func() {
					if err := c.Do(fn); err != nil {
						errs[i] = err.Error()
					}
				})
			}
			for !tt.solo && c.Pending() < len(tt.writes) { // hang guard: the test timeout
				runtime.Gosched()
			}
			d.lock.Unlock()
			wg.Wait()
			if diff := cmp.Diff(tt.wantErrs, errs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if len(d.data) != tt.wantKeys || d.data["b"] == -1 {
				t.Errorf("data = %v, want %d keys and no failed write", d.data, tt.wantKeys)
			}
			if d.commits != tt.wantCommits {
				t.Errorf("%d commits, want %d", d.commits, tt.wantCommits)
			}
		})
	}
}

// TestDoPanic: a write that panics in a group is run again alone, where it
// panics in its caller's goroutine; the others are committed.
func TestDoPanic(t *testing.T) {
	d := &fakeDB{data: map[string]int{}}
	c := New(d.update, false)
	var wg sync.WaitGroup
	var recovered any
	d.lock.Lock()
	wg.Go(func() {
		defer func() { recovered = recover() }()
		c.Do(func(map[string]int) error { panic("boom") })
	})
	wg.Go(func() { c.Do(set("a", 1)) })
	for c.Pending() < 2 {
		runtime.Gosched()
	}
	d.lock.Unlock()
	wg.Wait()
	if recovered != "boom" {
		t.Errorf("recovered %v, want boom", recovered)
	}
	if diff := cmp.Diff(map[string]int{"a": 1}, d.data); diff != "" {
		t.Errorf("data (-want +got):\n%s", diff)
	}
}
