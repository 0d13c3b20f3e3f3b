package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// BenchmarkLeases: replicas taking requests in turn, in the database of
// the other benchmarks. Each iteration accepts a request, claims it for
// one replica, renews its lease, and has a second replica try to claim it
// (refused: the lease is held); it reports the latency percentiles of the
// claim, the renewal and the refused claim.
func BenchmarkLeases(b *testing.B) {
	db, _ := benchFixture(b)
	ctx := context.Background()
	var claim, renew, refused []time.Duration
	timed := func(ds *[]time.Duration, fn func() error) error {
		t := time.Now()
		err := fn()
		*ds = append(*ds, time.Since(t))
		return err
	}
	b.ResetTimer()
	for i := range b.N {
		key := fmt.Sprintf("slack:event:lease-%d", i)
		if _, err := db.AcceptRequest(ctx, &store.Request{Key: key, Tenant: "T1", Platform: "slack", Kind: "mention", Text: "x"}); err != nil {
			b.Fatal(err)
		}
		claimBy := func(owner string, want bool) func() error {
			return func() error {
				r, err := db.ClaimRequest(ctx, "T1", key, owner, time.Minute)
				if err == nil && (r != nil) != want {
					err = fmt.Errorf("%s claimed %s: %v, want %v", owner, key, r != nil, want)
				}
				return err
			}
		}
		err := timed(&claim, claimBy("replica-1", true))
		if err == nil {
			err = timed(&renew, func() error { return db.RenewLease(ctx, "T1", key, "replica-1", time.Minute) })
		}
		if err == nil {
			err = timed(&refused, claimBy("replica-2", false))
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	for _, m := range []struct {
		name string
		ds   []time.Duration
	}{{"claim", claim}, {"renew", renew}, {"refused", refused}} {
		b.ReportMetric(float64(percentile(m.ds, 50).Microseconds())/1000, m.name+"-p50-ms")
		b.ReportMetric(float64(percentile(m.ds, 99).Microseconds())/1000, m.name+"-p99-ms")
	}
}
