package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/internal/pgtest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/postgres"
)

// The PostgreSQL store is shared by replicas: it counts the limits.
var _ bot.RateStore = (*postgres.DB)(nil)

// newPostgres creates a database (see pgtest), dropped when the test
// ends, and returns its pool configuration.
func newPostgres(t *testing.T) *pgxpool.Config {
	t.Helper()
	return pgtest.Config(t)
}

// TestReplicasShareLimits: two services (replicas), each with its own
// connection pool to one PostgreSQL database, limit one person, and one
// tenant, together: the request over the limit is refused on either.
func TestReplicasShareLimits(t *testing.T) {
	type submit struct {
		on int // replica
		r  *store.Request
	}
	tests := []struct {
		name       string
		opts       bot.Options
		reqs       []submit
		want       []bot.Status
		wantNotice string
	}{
		{"per person", bot.Options{UserLimit: bot.Limit{N: 2, Window: 10 * time.Minute}, NoTenantLimit: true},
			[]submit{
				{0, asks("a", "T1", "U1", "")}, {1, asks("b", "T1", "U1", "")},
				{0, asks("c", "T1", "U1", "")}, {1, asks("d", "T1", "U1", "")},
				{1, asks("e", "T1", "U2", "")}, // someone else
			},
			[]bot.Status{bot.Accepted, bot.Accepted, bot.Refused, bot.Refused, bot.Accepted},
			"You have reached your limit of checks (2 per 10 minutes). Try again after 12:10 UTC"},
		{"per tenant", bot.Options{UserLimit: bot.Limit{N: 1, Window: time.Hour}, TenantLimit: bot.Limit{N: 2, Window: time.Hour}},
			[]submit{
				{0, asks("a", "G1", "7", "7")}, {1, asks("b", "G1", "8", "8")},
				{0, asks("c", "G1", "9", "9")}, {1, asks("d", "G1", "9", "9")},
				{1, asks("e", "G2", "9", "9")}, // refused by the tenant limit, 9 still has their own check
			},
			[]bot.Status{bot.Accepted, bot.Accepted, bot.Refused, bot.Refused, bot.Accepted},
			"limit of checks (2 per hour, for everyone together). Try again after 13:00 UTC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := newPostgres(t)
			tt.opts.Now = func() time.Time { return limitNow }
			var replicas []*bot.Service
			for _, owner := range []string{"A", "B"} {
				db, err := postgres.OpenConfig(context.Background(), cfg.Copy(), store.Options{})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { db.Close() })
				opts := tt.opts
				opts.Owner = owner
				replicas = append(replicas, newService(t, db, &bottest.Checker{}, &bottest.Platform{}, opts))
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
			if len(notices) != 2 {
				t.Errorf("notices = %q, want 2", notices)
			}
			for _, n := range notices {
				if !strings.Contains(n, tt.wantNotice) {
					t.Errorf("notice %q, want %q", n, tt.wantNotice)
				}
			}
		})
	}
}
