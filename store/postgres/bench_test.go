package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/pgtest"
	"github.com/factbot-dev/factbot/store"
)

// The benchmarks run on the PostgreSQL of FACTBOT_TEST_POSTGRES (skipped
// without it), on loopback or a Unix socket:
//
//	FACTBOT_TEST_POSTGRES=postgres://… go test -run '^$' -bench . -benchtime 1x ./store/postgres
//
// Goals: an accepted request's p99 at 1,000 requests spread over one
// second ≤ 10 ms, a cache hit ≤ 2 ms, a history page at 100,000 checks
// ≤ 20 ms, a claim's earlier checks at 100,000 checks ≤ 20 ms.

const benchChecks = 100_000

var (
	benchOnce    sync.Once
	benchDB      *DB
	benchClaims  []string
	benchErr     error
	benchCleanup func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchCleanup != nil {
		benchCleanup()
	}
	os.Exit(code)
}

var benchWords = func() []string {
	var w []string
	for i := range 2000 {
		w = append(w, fmt.Sprintf("w%dx", i))
	}
	return w
}()

// benchFixture builds, once per test binary run, a database with 100,000
// checks of tenant T1 (and 10,000 of T2) shaped as store's benchmarks
// shape them: one to three claims each, 50 channels, 500 users, words
// from a 2,000-word vocabulary, a vector for every claim (claim matching),
// and a cached verdict for every claim.
func benchFixture(b *testing.B) (*DB, []string) {
	b.Helper()
	dsn := pgtest.ServerDSN(b)
	benchOnce.Do(func() {
		benchErr = buildFixture(dsn)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDB, benchClaims
}

func buildFixture(dsn string) error {
	ctx := context.Background()
	name, drop, err := pgtest.Create(ctx, dsn, "factbot_bench_")
	if err != nil {
		return err
	}
	benchCleanup = func() {
		if benchDB != nil {
			benchDB.Close()
		}
		if err := drop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	now := at.Add(benchChecks * time.Minute)
	cfg, err := pgxConfig(dsn, name)
	if err != nil {
		return err
	}
	benchDB, err = OpenConfig(ctx, cfg, store.Options{Now: func() time.Time { return now }})
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	label := func() factcheck.Label {
		switch n := rng.IntN(10); {
		case n < 4:
			return factcheck.Supported
		case n < 8:
			return factcheck.Contradicted
		case n < 9:
			return factcheck.Contested
		}
		return factcheck.Unverifiable
	}
	sentence := func() string {
		s := "The"
		for range 8 {
			s += " " + benchWords[rng.IntN(len(benchWords))]
		}
		return s + "."
	}
	const batch = 2000
	for _, tn := range []struct {
		tenant string
		n      int
	}{{"T1", benchChecks}, {"T2", benchChecks / 10}} {
		for i := 0; i < tn.n; i += batch {
			var rs store.Records
			for j := i; j < i+batch && j < tn.n; j++ {
				created := at.Add(time.Duration(j) * time.Minute)
				c := &store.Check{
					ID: store.NewCheckID(created, func(string) bool { return false }), Tenant: tn.tenant, Platform: "slack",
					Channel: fmt.Sprintf("C%d", rng.IntN(50)), User: fmt.Sprintf("U%d", rng.IntN(500)),
					Text: sentence(), CreatedAt: created, Visibility: store.VisibilityPublic,
					Report: &factcheck.Report{CheckedAt: created},
				}
				for range 1 + rng.IntN(3) {
					v := verdict(sentence(), label(), created)
					v.Embedding = &factcheck.Embedding{Model: benchEmbedModel, Vector: unitVector(rng)}
					if tn.tenant == "T1" && j == tn.n/2 {
						benchTarget, benchTargetVector = c.ID, v.Embedding.Vector
					}
					c.Report.Claims = append(c.Report.Claims, v)
					if tn.tenant == "T1" {
						benchClaims = append(benchClaims, v.Claim)
					}
					rec, err := json.Marshal(&store.CachedVerdict{At: created, Verdict: v})
					if err != nil {
						return err
					}
					rs.Cache = append(rs.Cache, store.CacheEntry{Kind: store.RefVerdict, Key: store.CacheKey(v.Claim), At: created, Value: rec})
				}
				rs.Checks = append(rs.Checks, c)
			}
			if err := benchDB.Restore(ctx, tn.tenant, rs); err != nil {
				return err
			}
		}
	}
	_, err = benchDB.pool.Exec(ctx, "VACUUM ANALYZE")
	return err
}

// pgxConfig is the pool configuration of database name on dsn's server.
func pgxConfig(dsn, name string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	cfg.ConnConfig.Database = name
	cfg.MaxConns = DefaultMaxConns
	return cfg, nil
}

// percentile returns the p-th percentile of ds (sorted in place).
func percentile(ds []time.Duration, p float64) time.Duration {
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(float64(len(ds))*p/100))]
}

func reportLatencies(b *testing.B, ds []time.Duration) {
	b.ReportMetric(float64(percentile(ds, 50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(ds, 99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(ds[len(ds)-1].Microseconds())/1000, "max-ms")
}

// BenchmarkAcceptRequest: 1,000 chat events arrive spread over one second
// (one a millisecond, each acknowledged on its own goroutine, as the
// adapters do), into a database holding 110,000 checks; it reports the
// latency percentiles of AcceptRequest. Goal: p99 ≤ 10 ms.
func BenchmarkAcceptRequest(b *testing.B) {
	db, _ := benchFixture(b)
	ctx := context.Background()
	var all []time.Duration
	b.ResetTimer()
	for n := range b.N {
		lat := make([]time.Duration, 1000)
		errs := make(chan error, len(lat))
		var wg sync.WaitGroup
		start := time.Now()
		for i := range lat {
			time.Sleep(time.Until(start.Add(time.Duration(i) * time.Millisecond)))
			wg.Go(func() {
				t := time.Now()
				_, err := db.AcceptRequest(ctx, &store.Request{Key: fmt.Sprintf("slack:event:%d-%d", n, i), Tenant: "T1", Platform: "slack",
					Kind: "mention", Channel: "C1", User: "U1", Text: "Is the Eiffel Tower 330 m tall?"})
				lat[i] = time.Since(t)
				if err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
		all = append(all, lat...)
	}
	reportLatencies(b, all)
}

// BenchmarkAcceptOneByOne: accepts one after the other, none at once:
// the latency of one accept's insert and its round trip.
func BenchmarkAcceptOneByOne(b *testing.B) {
	db, _ := benchFixture(b)
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		t := time.Now()
		_, err := db.AcceptRequest(ctx, &store.Request{Key: fmt.Sprintf("slack:event:one-%d", i), Tenant: "T1", Platform: "slack",
			Kind: "mention", Channel: "C1", User: "U1", Text: "Is the Eiffel Tower 330 m tall?"})
		lat = append(lat, time.Since(t))
		if err != nil {
			b.Fatal(err)
		}
	}
	reportLatencies(b, lat)
}

// BenchmarkCacheHit: a verdict cache hit among 200,000 cached verdicts.
// Goal ≤ 2 ms.
func BenchmarkCacheHit(b *testing.B) {
	db, claims := benchFixture(b)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t := time.Now()
		_, ok, err := db.Verdict(ctx, "T1", claims[rng.IntN(len(claims))], 365*24*time.Hour*100, nil)
		lat = append(lat, time.Since(t))
		if err != nil || !ok {
			b.Fatalf("Verdict: %v, %v", ok, err)
		}
	}
	reportLatencies(b, lat)
}

func benchHistory(b *testing.B, q store.HistoryQuery, want int) {
	db, _ := benchFixture(b)
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t := time.Now()
		h, err := db.History(ctx, "T1", q)
		lat = append(lat, time.Since(t))
		if err != nil || len(h) < want {
			b.Fatalf("History(%+v) = %d lines, %v", q, len(h), err)
		}
	}
	reportLatencies(b, lat)
}

// History pages at 100,000 checks. Goal ≤ 20 ms.
func BenchmarkHistoryLatest(b *testing.B) { benchHistory(b, store.HistoryQuery{Limit: 20}, 20) }
func BenchmarkHistoryUser(b *testing.B) {
	benchHistory(b, store.HistoryQuery{Limit: 20, User: "U42"}, 20)
}
func BenchmarkHistoryChannel(b *testing.B) {
	benchHistory(b, store.HistoryQuery{Limit: 20, Channel: "C7"}, 20)
}
func BenchmarkHistoryVerdict(b *testing.B) {
	benchHistory(b, store.HistoryQuery{Limit: 20, Verdict: factcheck.Contested}, 20)
}
func BenchmarkHistoryTenantWide(b *testing.B) {
	benchHistory(b, store.HistoryQuery{Limit: 20, Audience: &store.Audience{User: "U1", Channel: "C1", TenantWide: true}}, 20)
}
func BenchmarkHistoryWords(b *testing.B) {
	benchHistory(b, store.HistoryQuery{Limit: 20, Search: "w42x w43x"}, 1)
}
func BenchmarkHistoryWordsCommon(b *testing.B) {
	benchHistory(b, store.HistoryQuery{Limit: 20, Search: "w4 w5"}, 20)
}
func BenchmarkHistoryWordsOneLetter(b *testing.B) {
	benchHistory(b, store.HistoryQuery{Limit: 20, Search: "w"}, 20)
}
