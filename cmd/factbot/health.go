package main

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// This file keeps serve's HTTP listeners truthful: /readyz says whether
// the bot can answer. The connection budget that keeps them up is every
// listener's, in internal/listen.

// readyTTL is how long a readiness answer is reused, so that probes in a
// burst cost the database one query.
const readyTTL = time.Second

// readyTimeout bounds the database's answer to a readiness probe.
const readyTimeout = 2 * time.Second

// readiness answers /readyz: an error while the database cannot be reached
// or a chat platform is not connected.
type readiness struct {
	// ping asks the database a cheap question.
	ping func(ctx context.Context) error
	// platforms say whether each adapter is connected.
	platforms []interface{ Ready() error }
	now       func() time.Time
	// log receives the database's error in full when it stops answering
	// (nil: not logged); /readyz only names the database.
	log *slog.Logger

	mu     sync.Mutex
	at     time.Time
	err    error
	dbDown bool
}

// downError is a dependency that does not answer. Its text names the
// dependency only: /readyz is on the public listener, and the cause (a
// PostgreSQL error names the user, database, host and port) is logged
// instead. Unwrap gives the cause.
type downError struct {
	what string
	err  error
}

func (e *downError) Error() string { return e.what + " is not answering (details in the log)" }
func (e *downError) Unwrap() error { return e.err }

// check implements /readyz's question, asking again at most every readyTTL.
func (r *readiness) check(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := r.now(); r.at.IsZero() || now.Sub(r.at) >= readyTTL {
		r.err, r.at = r.ask(ctx), now
	}
	return r.err
}

func (r *readiness) ask(ctx context.Context) error {
	var errs []error
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), readyTimeout)
	defer cancel()
	err := r.ping(ctx)
	if err != nil {
		errs = append(errs, &downError{what: "database", err: err})
	}
	if down := err != nil; down != r.dbDown && r.log != nil {
		if down {
			r.log.Error("readiness: the database does not answer", "err", err)
		} else {
			r.log.Info("readiness: the database answers again")
		}
	}
	r.dbDown = err != nil
	for _, p := range r.platforms {
		errs = append(errs, p.Ready())
	}
	return errors.Join(errs...)
}
