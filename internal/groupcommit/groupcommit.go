// Package groupcommit commits writes in groups: a write that arrives while a
// commit is in progress waits for it, then is committed together with every
// other write that arrived meanwhile, in one transaction and one fsync. A
// write that finds nothing in progress commits at once: unlike bbolt's Batch
// there is no timer, so a lone write pays one fsync, and a burst pays one
// fsync per group instead of one per write. The store group-commits its
// request writes with it (store/requests.go).
package groupcommit

import (
	"errors"
	"fmt"
	"sync"
)

// MaxGroup bounds the writes sharing one commit.
const MaxGroup = 1000

// Committer commits writes, each a function of a transaction T, in groups.
// The group is gathered inside the transaction (after its writer lock is
// taken), so writes that queue behind another transaction join the same
// group. It is safe for concurrent use.
type Committer[T any] struct {
	update  func(func(T) error) error
	solo    bool
	mu      sync.Mutex
	pending []*op[T]
	running bool
}

type op[T any] struct {
	fn   func(T) error
	done chan error
}

// New returns a Committer over update, which runs a function in a write
// transaction and commits it (and may run it again, on a conflict). With
// solo, each write is its own transaction (for a driver of concurrent
// writers, where grouping would queue every write behind one).
func New[T any](update func(func(T) error) error, solo bool) *Committer[T] {
	return &Committer[T]{update: update, solo: solo}
}

// Solo reports whether each write is its own transaction.
func (c *Committer[T]) Solo() bool { return c.solo }

// Pending returns how many writes wait for a group.
func (c *Committer[T]) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

// errTrySolo tells a write's caller that its function failed inside a group
// (which was rolled back): it is run again alone, for its own error.
var errTrySolo = errors.New("groupcommit: run the write alone")

// Do runs fn in a write transaction shared with concurrent writes and
// returns once that transaction is committed. fn may be called more than
// once; if it fails, nothing of it is written.
func (c *Committer[T]) Do(fn func(T) error) error {
	if c.solo {
		return c.update(fn)
	}
	o := &op[T]{fn: fn, done: make(chan error, 1)}
	c.mu.Lock()
	c.pending = append(c.pending, o)
	lead := !c.running
	c.running = true
	c.mu.Unlock()
	if lead {
		go c.run()
	}
	err := <-o.done
	if err == errTrySolo {
		err = c.update(fn)
	}
	return err
}

// run commits groups until no write is pending.
func (c *Committer[T]) run() {
	var retry []*op[T] // the rest of a group that failed
	for {
		c.mu.Lock()
		if len(retry) == 0 && len(c.pending) == 0 {
			c.running = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		var ops []*op[T]
		failed := -1
		err := c.update(func(tx T) error {
			// The group is taken the first time: update may run this
			// again (a conflict).
			if ops == nil {
				ops, retry = c.take(retry), nil
			}
			failed = -1
			for i, o := range ops {
				if err := safeCall(o.fn, tx); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		if ops == nil { // the transaction did not start (e.g. the file is closed)
			ops, retry = c.take(retry), nil
		}
		if failed >= 0 {
			ops[failed].done <- errTrySolo
			retry = append(ops[:failed:failed], ops[failed+1:]...)
			continue
		}
		for _, o := range ops {
			o.done <- err
		}
	}
}

// take returns retry followed by pending writes, at most MaxGroup in all,
// and removes those from the pending list.
func (c *Committer[T]) take(retry []*op[T]) []*op[T] {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := min(len(c.pending), max(0, MaxGroup-len(retry)))
	ops := append(retry, c.pending[:n]...)
	c.pending = append([]*op[T](nil), c.pending[n:]...)
	return ops
}

// safeCall runs fn, turning a panic into an error (the write is then run
// again alone, where it panics in its caller's goroutine).
func safeCall[T any](fn func(T) error, tx T) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return fn(tx)
}
