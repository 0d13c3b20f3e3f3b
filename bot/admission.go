package bot

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/store"
)

// MetaPerson is the Request.Meta key naming who asked, across every tenant
// the person can ask in: the per-person limits count by it. Adapters set it
// where a user id is wider than a tenant (a Discord user id is global, so a
// person has one limit whatever the servers they share with the bot); when
// it is empty the person is the tenant's user (Tenant and User).
const MetaPerson = "person"

// Defaults of the limits beyond DefaultUserLimit.
var (
	// DefaultTenantLimit bounds the checks of one tenant (a Slack workspace,
	// a Discord server): FACTBOT_TENANT_LIMIT's default, 100 per hour.
	DefaultTenantLimit = Limit{N: 100, Window: time.Hour}
	// DefaultFeedbackLimit bounds one person's "Wrong verdict?" reports:
	// 10 per hour.
	DefaultFeedbackLimit = Limit{N: 10, Window: time.Hour}
)

// DefaultMaxQueue is FACTBOT_MAX_QUEUE's default: the requests waiting for
// a worker before new ones are refused.
const DefaultMaxQueue = 100

// Person names who acts, for the per-person limits: ID is unique on
// Platform across every tenant the person can act in (see MetaPerson). An
// empty ID means the tenant's user. Locale is the person's locale on the
// platform (a BCP 47 tag, as MetaLocale), for the words of the answer; it
// is not part of who the person is.
type Person struct {
	Platform string
	ID       string
	Locale   string
}

// personOf is who asked r.
func personOf(r *store.Request) Person {
	return Person{Platform: r.Platform, ID: r.Meta[MetaPerson]}
}

// key is the limiters' key of p, who is user in tenant.
func (p Person) key(tenant, user string) string {
	if p.ID != "" {
		return p.Platform + "\x00" + p.ID
	}
	return p.Platform + "\x00" + tenant + "\x00" + user
}

// limits are the service's rate limits: in its Store when the Store is a
// RateStore (shared by the replicas), else in memory.
type limits struct {
	user, tenant, feedback limiter
}

func newLimits(st Store, o Options) *limits {
	if rs, ok := st.(RateStore); ok {
		shared := func(name string, l Limit) limiter {
			return &sharedLimiter{limit: l, name: name, rs: rs, log: o.Logger}
		}
		return &limits{user: shared("user", o.UserLimit), tenant: shared("tenant", o.TenantLimit),
			feedback: shared("feedback", o.FeedbackLimit)}
	}
	return &limits{user: newUserLimiter(o.UserLimit), tenant: newUserLimiter(o.TenantLimit),
		feedback: newUserLimiter(o.FeedbackLimit)}
}

// admit counts a request of person in tenant against the per-person and
// per-tenant limits and returns the refusal to show when one is reached,
// and its reason ("" when the request may go on). A refused request counts
// against neither.
func (s *Service) admit(ctx context.Context, r *store.Request, now time.Time) (notice, reason string) {
	lang := RequestLang(r, "", r.Text)
	pk := personOf(r).key(r.Tenant, r.User)
	ok, next := s.limits.user.allow(ctx, pk, now)
	if !ok {
		return lang.limitRefusal(words.UserLimit, s.opts.UserLimit, next), reasonUser
	}
	tk := r.Platform + "\x00" + r.Tenant
	if ok, next := s.limits.tenant.allow(ctx, tk, now); !ok {
		s.limits.user.undo(ctx, pk, now)
		return lang.limitRefusal(words.TenantLimit, s.opts.TenantLimit, next), reasonTenant
	}
	s.mu.Lock()
	waiting := len(s.queue)
	s.mu.Unlock()
	if s.opts.MaxQueue > 0 && waiting >= s.opts.MaxQueue {
		s.limits.user.undo(ctx, pk, now)
		s.limits.tenant.undo(ctx, tk, now)
		return s.busy(lang, waiting), reasonBusy
	}
	return "", ""
}

// busy is the refusal of a full queue, waiting long: with the time the
// checks so far took, about how long the queue takes to clear.
func (s *Service) busy(lang Lang, waiting int) string {
	data := map[string]any{"Waiting": waiting}
	avg := s.checkTime()
	if avg <= 0 {
		return lang.Text(words.Busy, data)
	}
	workers := s.opts.Workers
	drain := time.Duration(float64(avg) * float64(waiting+workers) / float64(workers))
	return lang.Count(words.BusyWait, max(1, int(math.Ceil(drain.Minutes()))), data)
}

// observeCheck counts d, one check's wall time, into the average that
// busy tells (a moving average of the latest checks).
func (s *Service) observeCheck(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.avgCheck == 0 {
		s.avgCheck = d
		return
	}
	s.avgCheck += (d - s.avgCheck) / 8
}

func (s *Service) checkTime() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.avgCheck
}

// admitFeedback counts one feedback of person (user in tenant); false
// means the person reached the feedback limit.
func (s *Service) admitFeedback(ctx context.Context, p Person, tenant, user string, now time.Time) bool {
	ok, _ := s.limits.feedback.allow(ctx, p.key(tenant, user), now)
	return ok
}

// limitRefusal is refusal m (words.UserLimit, words.TenantLimit) of limit l in
// language lang: its count, its window and next, when one is allowed again.
func (lang Lang) limitRefusal(m *i18n.Message, l Limit, next time.Time) string {
	return lang.Text(m, map[string]any{"Count": l.N, "Window": lang.window(l.Window), "Time": next.UTC().Format("15:04")})
}

// window is d in words: "hour", "10 minutes"; a window of seconds is
// written as Go writes it ("90s").
func (lang Lang) window(d time.Duration) string {
	switch {
	case d > 0 && d%time.Hour == 0:
		return lang.Count(words.WindowHours, int(d/time.Hour), nil)
	case d > 0 && d%time.Minute == 0:
		return lang.Count(words.WindowMinutes, int(d/time.Minute), nil)
	}
	return d.String()
}

// ErrFeedbackLimit is wrapped by Feedback's error when the person reached
// the feedback limit.
var ErrFeedbackLimit = errors.New("bot: feedback limit reached")
