package bot

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limit is a per-user rate: at most N checks per Window. The zero Limit
// means no limit.
type Limit struct {
	N      int
	Window time.Duration
}

// DefaultUserLimit is FACTBOT_USER_LIMIT's default, 10 checks per 10 minutes.
var DefaultUserLimit = Limit{N: 10, Window: 10 * time.Minute}

// String formats l as "N/window", e.g. "10/10m0s".
func (l Limit) String() string { return fmt.Sprintf("%d/%s", l.N, l.Window) }

// ParseLimit parses "N/duration", e.g. "10/10m" or "100/1h"; "0" or "off"
// disables the limit.
func ParseLimit(s string) (Limit, error) {
	s = strings.TrimSpace(s)
	if s == "0" || s == "off" {
		return Limit{}, nil
	}
	ns, ws, ok := strings.Cut(s, "/")
	if !ok {
		return Limit{}, fmt.Errorf("rate limit %q: want N/duration, e.g. 10/10m", s)
	}
	n, err := strconv.Atoi(strings.TrimSpace(ns))
	if err != nil || n < 0 {
		return Limit{}, fmt.Errorf("rate limit %q: bad count", s)
	}
	ws = strings.TrimSpace(ws)
	if ws != "" && (ws[0] < '0' || ws[0] > '9') {
		ws = "1" + ws // "10/m" means per minute
	}
	w, err := time.ParseDuration(ws)
	if err != nil || w <= 0 {
		return Limit{}, fmt.Errorf("rate limit %q: bad window, e.g. 10m", s)
	}
	return Limit{N: n, Window: w}, nil
}

// limiter counts uses per key (a person, a tenant) against one Limit:
// userLimiter in the service's memory, sharedLimiter in a RateStore.
type limiter interface {
	// allow records a use at now if key is under the limit. When over, it
	// returns when the next use will be allowed.
	allow(ctx context.Context, key string, now time.Time) (bool, time.Time)
	// undo forgets the use allow recorded at now for key (the request was
	// refused by another limit).
	undo(ctx context.Context, key string, now time.Time)
}

// sharedLimiter counts in a RateStore, shared by the replicas, under its
// own name (one RateStore holds the three limits: "user", "tenant",
// "feedback").
type sharedLimiter struct {
	limit Limit
	name  string
	rs    RateStore
	log   *slog.Logger
}

func (l *sharedLimiter) key(key string) string { return l.name + "\x00" + key }

// allow fails open: when the store cannot say, the use is allowed and the
// error logged. A store hiccup must not refuse everyone; at worst a person
// gets a few more checks than the limit while it lasts.
func (l *sharedLimiter) allow(ctx context.Context, key string, now time.Time) (bool, time.Time) {
	if l.limit.N <= 0 || l.limit.Window <= 0 {
		return true, time.Time{}
	}
	ok, next, err := l.rs.Take(ctx, l.key(key), l.limit.N, l.limit.Window, now)
	if err != nil {
		l.log.Warn("shared rate limit; allowing the request", "limit", l.name, "err", err)
		return true, time.Time{}
	}
	return ok, next
}

// undo is best effort: an error is logged and the use stays counted.
func (l *sharedLimiter) undo(ctx context.Context, key string, now time.Time) {
	if l.limit.N <= 0 || l.limit.Window <= 0 {
		return
	}
	if err := l.rs.Give(ctx, l.key(key), now); err != nil {
		l.log.Warn("shared rate limit: give back a use", "limit", l.name, "err", err)
	}
}

// userLimiter is a sliding-window limiter per key (a person, a tenant) in
// the service's memory.
type userLimiter struct {
	limit Limit
	mu    sync.Mutex
	seen  map[string][]time.Time
}

func newUserLimiter(l Limit) *userLimiter {
	return &userLimiter{limit: l, seen: map[string][]time.Time{}}
}

// allow records a use at now if the user is under the limit. When over, it
// returns when the next use will be allowed.
func (u *userLimiter) allow(_ context.Context, key string, now time.Time) (bool, time.Time) {
	if u.limit.N <= 0 || u.limit.Window <= 0 {
		return true, time.Time{}
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	ts := u.seen[key]
	cut := now.Add(-u.limit.Window)
	i := 0
	for i < len(ts) && !ts[i].After(cut) {
		i++
	}
	ts = ts[i:]
	if len(ts) >= u.limit.N {
		u.seen[key] = ts
		return false, ts[0].Add(u.limit.Window)
	}
	u.seen[key] = append(ts, now)
	if len(u.seen) > 10000 { // forget idle users
		for k, v := range u.seen {
			if len(v) == 0 || !v[len(v)-1].After(cut) {
				delete(u.seen, k)
			}
		}
	}
	return true, time.Time{}
}

// undo forgets the use allow recorded at now for key (the request was
// refused by another limit).
func (u *userLimiter) undo(_ context.Context, key string, now time.Time) {
	if u.limit.N <= 0 || u.limit.Window <= 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	ts := u.seen[key]
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i].Equal(now) {
			u.seen[key] = append(ts[:i:i], ts[i+1:]...)
			return
		}
	}
}
