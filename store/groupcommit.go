package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// maxGroup bounds the writes sharing one commit.
const maxGroup = 1000

// groupCommit commits request writes in groups: a write that arrives while
// a commit is in progress waits for it, then is committed together with
// every other write that arrived meanwhile, in one transaction and one
// fsync. A write that finds nothing in progress commits at once: unlike
// bbolt's Batch there is no timer, so a lone acknowledgement pays one
// fsync, and a burst pays one fsync per group instead of one per request.
//
// The group is gathered after the writer lock is taken, so writes that
// queue behind another transaction (SaveCheck, …) join the same group.
type groupCommit struct {
	// update runs a write transaction (DB.update).
	update func(context.Context, func(*txn) error) error
	// solo: each write its own transaction (a driver of concurrent writers).
	solo    bool
	mu      sync.Mutex
	pending []*groupOp
	running bool
}

type groupOp struct {
	fn   func(*txn) error
	done chan error
}

// errTrySolo tells a write's caller that its function failed inside a group
// (which was rolled back): it is run again alone, for its own error.
var errTrySolo = errors.New("store: run the write alone")

// do runs fn in a read-write transaction shared with concurrent writes and
// returns once that transaction is committed (fsync'd). fn may be called
// more than once; if it fails, nothing of it is written.
func (g *groupCommit) do(fn func(*txn) error) error {
	if g.solo {
		return g.update(context.Background(), fn)
	}
	op := &groupOp{fn: fn, done: make(chan error, 1)}
	g.mu.Lock()
	g.pending = append(g.pending, op)
	lead := !g.running
	g.running = true
	g.mu.Unlock()
	if lead {
		go g.run()
	}
	err := <-op.done
	if err == errTrySolo {
		err = g.update(context.Background(), fn)
	}
	return err
}

// run commits groups until no write is pending.
func (g *groupCommit) run() {
	var retry []*groupOp // the rest of a group that failed
	for {
		g.mu.Lock()
		if len(retry) == 0 && len(g.pending) == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		var ops []*groupOp
		failed := -1
		err := g.update(context.Background(), func(tx *txn) error {
			// Gather under the writer lock: everything that queued while
			// the previous commit (ours or anyone's) held it.
			// A driver may run this more than once (a conflict): the
			// group is taken the first time.
			if ops == nil {
				ops, retry = g.take(retry), nil
			}
			failed = -1
			for i, op := range ops {
				if err := safeCall(op.fn, tx); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		if ops == nil { // the transaction did not start (e.g. the file is closed)
			ops, retry = g.take(retry), nil
		}
		if failed >= 0 {
			ops[failed].done <- errTrySolo
			retry = append(ops[:failed:failed], ops[failed+1:]...)
			continue
		}
		for _, op := range ops {
			op.done <- err
		}
	}
}

// take returns retry followed by pending writes, at most maxGroup in all,
// and removes those from the pending list.
func (g *groupCommit) take(retry []*groupOp) []*groupOp {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := min(len(g.pending), max(0, maxGroup-len(retry)))
	ops := append(retry, g.pending[:n]...)
	if n == len(g.pending) {
		g.pending = nil
	} else {
		g.pending = append([]*groupOp(nil), g.pending[n:]...)
	}
	return ops
}

// safeCall runs fn, turning a panic into an error (the write is then run
// again alone, where it panics in its caller's goroutine).
func safeCall(fn func(*txn) error, tx *txn) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return fn(tx)
}
