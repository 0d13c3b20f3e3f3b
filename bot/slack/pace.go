package slack

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Pacing. Slack limits each Web API method on its own terms
// (https://docs.slack.dev/apis/web-api/rate-limits): chat.postMessage
// about one message a second per channel, chat.postEphemeral by its tier
// per workspace (https://docs.slack.dev/reference/methods/chat.postEphemeral).
// Each pace is a lane: the calls waiting for it take their turns in the
// order they came (a FIFO), and only the first of them holds a turn of the
// lane's token bucket (a rate.Limiter), so that no reservation is held by
// a call that will not make it:
//
//   - a call whose turn would come after its context's deadline fails at
//     once (ErrNoTurn) and takes nothing;
//   - a call that gives up while waiting leaves the line, and the turn it
//     held, if any, is given back whole (it is the limiter's latest
//     reservation: rate.Reservation.CancelAt restores it entirely);
//
// so a channel never stalls while a call is ready: the next in line goes
// at the lane's pace.
//
// With Config.SharedPace (the PostgreSQL store) the lane's pace is also
// taken from the database (bot.RateStore.Take, a sliding window of Burst
// uses in Burst/Limit), so that replicas sharing a channel share its pace.

// ErrNoTurn is returned by a paced call whose turn would come only after
// its deadline: nothing was sent, and no turn taken.
var ErrNoTurn = errors.New("slack: no turn of the channel's pace before the call's deadline")

// DefaultEphemeral is Config.Ephemeral's default: chat.postEphemeral's
// tier (Tier 4, 100+ calls a minute per workspace).
const DefaultEphemeral = rate.Limit(100.0 / 60)

// lane is one pace: a token bucket and the line of calls waiting for it.
type lane struct {
	key string // the shared pace's key
	lim *rate.Limiter

	mu      sync.Mutex
	waiting []chan struct{} // the line; each is closed when its call is first
}

// every is how long n turns of l take at its pace.
func (l *lane) every(n int) time.Duration {
	r := l.lim.Limit()
	if r == rate.Inf || r <= 0 {
		return 0
	}
	return time.Duration(float64(n) / float64(r) * float64(time.Second))
}

// join puts a call in l's line and returns its place: closed at once when
// it is first. ahead is how many calls wait before it.
func (l *lane) join() (me chan struct{}, ahead int) {
	me = make(chan struct{})
	l.mu.Lock()
	defer l.mu.Unlock()
	ahead = len(l.waiting)
	l.waiting = append(l.waiting, me)
	if ahead == 0 {
		close(me)
	}
	return me, ahead
}

// leave takes me out of l's line; when me was first, the next call is.
func (l *lane) leave(me chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, c := range l.waiting {
		if c != me {
			continue
		}
		l.waiting = append(l.waiting[:i], l.waiting[i+1:]...)
		if i == 0 && len(l.waiting) > 0 {
			close(l.waiting[0])
		}
		return
	}
}

func (l *lane) idle() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.waiting) == 0
}

// Lanes: the channel's messages, and the workspace's ephemeral notes.
func channelLane(team, channel string) string { return "post\x00" + team + "\x00" + channel }
func ephemeralLane(team string) string        { return "ephemeral\x00" + team }

// lane returns the lane named key, paced at limit.
func (a *Adapter) lane(key string, limit rate.Limit) *lane {
	a.mu.Lock()
	defer a.mu.Unlock()
	l, ok := a.lanes[key]
	if ok {
		return l
	}
	if len(a.lanes) >= 10000 { // forget the idle lanes
		for k, x := range a.lanes {
			if x.idle() {
				delete(a.lanes, k)
			}
		}
	}
	l = &lane{key: "slack\x00" + key, lim: rate.NewLimiter(limit, 1)}
	a.lanes[key] = l
	return l
}

// wait waits for a turn of lane key, paced at limit (see Pacing above).
func (a *Adapter) wait(ctx context.Context, key string, limit rate.Limit) error {
	if limit == rate.Inf {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	l := a.lane(key, limit)
	me, ahead := l.join()
	defer l.leave(me)
	if ahead > 0 && !inTime(ctx, l.every(ahead)) {
		return ErrNoTurn
	}
	select {
	case <-me:
	case <-ctx.Done():
		return ctx.Err()
	}
	now := a.cfg.Now()
	res := l.lim.ReserveN(now, 1)
	d := res.DelayFrom(now)
	if !inTime(ctx, d) {
		res.CancelAt(now)
		return ErrNoTurn
	}
	if err := a.cfg.Sleep(ctx, d); err != nil {
		res.CancelAt(now)
		return err
	}
	return a.sharedTurn(ctx, l)
}

// sharedTurn takes l's turn in the shared pace too, if there is one,
// waiting while other replicas have taken the lane's turns. A store that
// cannot say lets the call go (logged): the local pace still holds.
func (a *Adapter) sharedTurn(ctx context.Context, l *lane) error {
	if a.cfg.SharedPace == nil {
		return nil
	}
	n := l.lim.Burst()
	window := l.every(n)
	for range maxSharedWaits {
		now := a.cfg.Now()
		ok, next, err := a.cfg.SharedPace.Take(ctx, l.key, n, window, now)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			a.log.Warn("slack: shared pace; going at this replica's pace", "err", err)
			return nil
		}
		if ok {
			return nil
		}
		d := max(next.Sub(now), 0)
		if !inTime(ctx, d) {
			return ErrNoTurn
		}
		if err := a.cfg.Sleep(ctx, d); err != nil {
			return err
		}
	}
	return fmt.Errorf("slack: shared pace: no turn after %d waits: %w", maxSharedWaits, ErrNoTurn)
}

// maxSharedWaits bounds the waits for one turn of a shared pace.
const maxSharedWaits = 100

// inTime reports whether a wait of d ends before ctx's deadline, if any.
func inTime(ctx context.Context, d time.Duration) bool {
	dl, ok := ctx.Deadline()
	return !ok || d <= time.Until(dl)
}
