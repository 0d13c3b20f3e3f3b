package bot_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// rateMemory is the in-memory store with a RateStore, as a store shared
// by replicas has: it counts uses per key in a sliding window, and
// records the calls.
type rateMemory struct {
	*storetest.Memory
	mu    sync.Mutex
	uses  map[string][]time.Time
	calls []string
	err   error // when set, Take and Give fail with it
}

func newRateMemory() *rateMemory {
	return &rateMemory{Memory: storetest.NewMemory(), uses: map[string][]time.Time{}}
}

func (m *rateMemory) Take(ctx context.Context, key string, n int, window time.Duration, now time.Time) (bool, time.Time, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, "take "+strings.SplitN(key, "\x00", 2)[0])
	if m.err != nil {
		return false, time.Time{}, m.err
	}
	var in []time.Time
	for _, t := range m.uses[key] {
		if t.After(now.Add(-window)) {
			in = append(in, t)
		}
	}
	m.uses[key] = in
	if len(in) >= n {
		return false, in[0].Add(window), nil
	}
	m.uses[key] = append(in, now)
	return true, time.Time{}, nil
}

func (m *rateMemory) Give(ctx context.Context, key string, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, "give "+strings.SplitN(key, "\x00", 2)[0])
	if m.err != nil {
		return m.err
	}
	ts := m.uses[key]
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i].Equal(now) {
			m.uses[key] = append(ts[:i:i], ts[i+1:]...)
			break
		}
	}
	return nil
}

func (m *rateMemory) Calls() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.calls...)
}

var _ bot.RateStore = (*rateMemory)(nil)

// On a Store that is a RateStore, the core counts its limits there: two
// services (replicas) on one such store limit a person, and a tenant,
// together.
func TestLimitsInRateStore(t *testing.T) {
	// submit is one request, on replica 0 or 1.
	type submit struct {
		on int
		r  *store.Request
	}
	tests := []struct {
		name        string
		opts        bot.Options
		reqs        []submit
		want        []bot.Status
		wantNotice  string
		wantNotices int
	}{
		{"per person", bot.Options{UserLimit: bot.Limit{N: 2, Window: 10 * time.Minute}, NoTenantLimit: true},
			[]submit{
				{0, asks("a", "T1", "U1", "")}, {1, asks("b", "T1", "U1", "")},
				{0, asks("c", "T1", "U1", "")}, {1, asks("d", "T1", "U1", "")},
				{1, asks("e", "T1", "U2", "")},
			},
			[]bot.Status{bot.Accepted, bot.Accepted, bot.Refused, bot.Refused, bot.Accepted},
			"limit of checks (2 per 10 minutes). Try again after 12:10 UTC", 2},
		{"per tenant; a refused request does not count against its asker",
			bot.Options{UserLimit: bot.Limit{N: 1, Window: time.Hour}, TenantLimit: bot.Limit{N: 2, Window: time.Hour}},
			[]submit{
				{0, asks("a", "G1", "7", "7")}, {1, asks("b", "G1", "8", "8")},
				{0, asks("c", "G1", "9", "9")}, {1, asks("d", "G1", "9", "9")},
				{1, asks("e", "G2", "9", "9")}, // 9 still has their own check
			},
			[]bot.Status{bot.Accepted, bot.Accepted, bot.Refused, bot.Refused, bot.Accepted},
			"limit of checks (2 per hour, for everyone together). Try again after 13:00 UTC", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newRateMemory()
			tt.opts.Now = func() time.Time { return limitNow }
			var replicas []*bot.Service
			for _, owner := range []string{"A", "B"} {
				opts := tt.opts
				opts.Owner = owner
				replicas = append(replicas, newService(t, st, &bottest.Checker{}, &bottest.Platform{}, opts))
			}
			var got []bot.Status
			var notices []string
			for _, s := range tt.reqs {
				g, n := statuses(t, replicas[s.on], s.r)
				got, notices = append(got, g...), append(notices, n...)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
			if len(notices) != tt.wantNotices {
				t.Errorf("notices = %q, want %d", notices, tt.wantNotices)
			}
			for _, n := range notices {
				if !strings.Contains(n, tt.wantNotice) {
					t.Errorf("notice %q, want %q", n, tt.wantNotice)
				}
			}
		})
	}
}

// A request the tenant limit refuses gives its person's use back to the
// RateStore.
func TestRateStoreGivesBack(t *testing.T) {
	st := newRateMemory()
	s := newService(t, st, &bottest.Checker{}, &bottest.Platform{}, bot.Options{
		UserLimit: bot.Limit{N: 5, Window: time.Hour}, TenantLimit: bot.Limit{N: 1, Window: time.Hour},
		NoFeedbackLimit: true, Now: func() time.Time { return limitNow }})
	statuses(t, s, asks("a", "T1", "U1", ""), asks("b", "T1", "U2", ""))
	want := []string{"take user", "take tenant", "take user", "take tenant", "give user"}
	if diff := cmp.Diff(want, st.Calls()); diff != "" {
		t.Errorf("RateStore calls (-want +got):\n%s", diff)
	}
}

// When the RateStore fails, the limits fail open: a store hiccup must not
// refuse everyone.
func TestRateStoreErrorFailsOpen(t *testing.T) {
	st := newRateMemory()
	st.err = errors.New("connection reset")
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	s := newService(t, st, &bottest.Checker{}, p, bot.Options{
		UserLimit: bot.Limit{N: 1, Window: time.Hour}, TenantLimit: bot.Limit{N: 1, Window: time.Hour},
		FeedbackLimit: bot.Limit{N: 1, Window: time.Hour}, Now: func() time.Time { return limitNow }})
	got, _ := statuses(t, s, asks("a", "T1", "U1", ""), asks("b", "T1", "U1", ""))
	if diff := cmp.Diff([]bot.Status{bot.Accepted, bot.Accepted}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	id := waitFinal(t, p).Msg.CheckID
	for i := range 2 {
		if _, err := s.Feedback(context.Background(), "T1", "C1", id, bot.Person{Platform: "test", ID: "42"}, store.Feedback{User: "42", Claim: -1}); err != nil {
			t.Errorf("feedback %d: %v", i, err)
		}
	}
}

// The feedback limit is counted in the RateStore too, across replicas.
func TestFeedbackLimitInRateStore(t *testing.T) {
	st := newRateMemory()
	opts := bot.Options{FeedbackLimit: bot.Limit{N: 2, Window: time.Hour}, Now: func() time.Time { return limitNow }}
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	a := newService(t, st, &bottest.Checker{}, p, opts)
	b := newService(t, st, &bottest.Checker{}, &bottest.Platform{}, opts)
	a.Submit(context.Background(), req("a", "Claim one"))
	id := waitFinal(t, p).Msg.CheckID
	person := bot.Person{Platform: "test", ID: "42"}
	var errs []error
	for _, s := range []*bot.Service{a, b, a} {
		_, err := s.Feedback(context.Background(), "T1", "C1", id, person, store.Feedback{User: "42", Claim: -1})
		errs = append(errs, err)
	}
	if errs[0] != nil || errs[1] != nil || !errors.Is(errs[2], bot.ErrFeedbackLimit) {
		t.Errorf("feedback on A, B, A: %v; want nil, nil, the feedback limit", errs)
	}
}
