package postgres

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// The chat core's rate limits (bot.RateStore) live in rate_events, one row
// per use of a key, so that every replica counts the same uses. Take runs
// in one transaction holding an advisory lock on the key, so concurrent
// takes of one key, from any replica, take turns and each sees the
// others' uses; takes of other keys go on in parallel. The window slides
// as bot's in-memory limiter does: a use at t counts while t > now-window.

// Take records a use of key at now if fewer than n uses of key fall in
// (now-window, now], and otherwise returns false and when the next use
// will be allowed: the oldest use in the window, plus window. A limit
// with n <= 0 or window <= 0 allows everything and records nothing.
func (db *DB) Take(ctx context.Context, key string, n int, window time.Duration, now time.Time) (bool, time.Time, error) {
	if n <= 0 || window <= 0 {
		return true, time.Time{}, ctx.Err()
	}
	k, at := pgText(key), ns(now)
	var ok bool
	var next time.Time
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", k); err != nil {
			return err
		}
		// The key's uses that left the window are deleted; the rest are
		// counted (the statement does not see its own deletions, hence
		// the second condition).
		var count int
		var oldest *int64
		err := tx.QueryRow(ctx, `WITH gone AS (DELETE FROM rate_events WHERE key = $1 AND at_ns <= $2)
SELECT count(*), min(at_ns) FROM rate_events WHERE key = $1 AND at_ns > $2`, k, ns(now.Add(-window))).Scan(&count, &oldest)
		if err != nil {
			return err
		}
		if count >= n {
			ok, next = false, time.Unix(0, *oldest).Add(window)
			return nil
		}
		ok, next = true, time.Time{}
		_, err = tx.Exec(ctx, "INSERT INTO rate_events (key, at_ns, until_ns) VALUES ($1, $2, $3)", k, at, ns(now.Add(window)))
		return err
	})
	if err != nil {
		return false, time.Time{}, fmt.Errorf("rate limit %q: %w", key, ctxErr(ctx, err))
	}
	return ok, next, nil
}

// Give forgets one use of key that Take recorded at now (the newest, if
// there are several); nothing recorded at now is no error.
func (db *DB) Give(ctx context.Context, key string, now time.Time) error {
	_, err := db.pool.Exec(ctx, `DELETE FROM rate_events WHERE id =
	(SELECT id FROM rate_events WHERE key = $1 AND at_ns = $2 ORDER BY id DESC LIMIT 1)`, pgText(key), ns(now))
	if err != nil {
		return fmt.Errorf("rate limit %q: give back: %w", key, ctxErr(ctx, err))
	}
	return nil
}

// pruneRateEvents deletes the uses that have left their window by now:
// Take forgets them only for the key it counts, and a key may never come
// back.
func (db *DB) pruneRateEvents(ctx context.Context, now time.Time) error {
	_, err := db.pool.Exec(ctx, "DELETE FROM rate_events WHERE until_ns <= $1", ns(now))
	return err
}

// pgText returns s as a text column holds it: valid UTF-8, NUL escaped.
func pgText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.NewReplacer(esc, escEsc, "\x00", escNUL).Replace(s)
}

// ns returns t in unix nanoseconds, clamped to what an int64 holds.
func ns(t time.Time) int64 {
	switch {
	case t.IsZero() || t.Year() < 1678:
		return math.MinInt64
	case t.Year() > 2261:
		return math.MaxInt64
	}
	return t.UnixNano()
}
