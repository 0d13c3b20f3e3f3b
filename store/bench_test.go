package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/factbot-dev/factbot/factcheck"
)

// benchChecks is the fixture's number of checks of tenant T1: 100,000,
// or FACTBOT_BENCH_CHECKS (1000000 took 45 minutes to build on a shared
// 2-core machine; below 100,000, BenchmarkHistoryWordsPrefixes finds less
// than a page).
var benchChecks = func() int {
	if n, err := strconv.Atoi(os.Getenv("FACTBOT_BENCH_CHECKS")); err == nil && n > 0 {
		return n
	}
	return 100_000
}()

var (
	benchOnce sync.Once
	benchDB   *DB
	benchIDs  []string
	benchErr  error
	benchDir  string
)

var benchWords = func() []string {
	var w []string
	for i := range 2000 {
		w = append(w, fmt.Sprintf("w%dx", i))
	}
	return w
}()

// benchFixture builds, once per test binary run, a database with 100,000
// checks of tenant T1 (and 10,000 of T2), each with one to three claims
// (verdicts 40% supported, 40% contradicted, 10% contested, 10%
// unverifiable), 50 channels, 500 users, words from a 2,000-word
// vocabulary, a vector of 128 components for every claim (claim
// matching), and a cached verdict for every claim. Checks are written
// 10,000 per transaction.
func benchFixture(b *testing.B) (*DB, []string) {
	b.Helper()
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "factbot-bench-")
		if benchErr != nil {
			return
		}
		start := time.Now()
		at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		benchDB, benchErr = Open(filepath.Join(benchDir, "factbot.db"), Options{Now: func() time.Time { return at.Add(time.Duration(benchChecks) * time.Minute) }})
		if benchErr != nil {
			return
		}
		// The fixture is written without an fsync per transaction, and
		// synced once at the end.
		bolt := benchDB.drv.(*boltDriver).db
		bolt.NoSync = true
		defer func() {
			bolt.NoSync = false
			if benchErr == nil {
				benchErr = bolt.Sync()
			}
		}()
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
		const batch = 10_000
		for tenant, n := range map[string]int{"T1": benchChecks, "T2": benchChecks / 10} {
			for i := 0; i < n && benchErr == nil; i += batch {
				benchErr = benchDB.update(ctx, func(tx *txn) error {
					tb := &tenantTx{tx, tenant}
					for j := i; j < i+batch && j < n; j++ {
						t := at.Add(time.Duration(j) * time.Minute)
						claims := map[string]factcheck.Label{}
						text := ""
						for range 1 + rng.IntN(3) {
							s := sentence()
							claims[s] = label()
							text += s + " "
						}
						c := check(tenant, fmt.Sprintf("C%d", rng.IntN(50)), fmt.Sprintf("U%d", rng.IntN(500)), text, t, claims)
						for _, v := range c.Report.Claims {
							v.Embedding = &factcheck.Embedding{Model: benchEmbedModel, Vector: benchVector(rng)}
						}
						if err := saveCheck(tx, c, t); err != nil {
							return err
						}
						if tenant == "T1" {
							benchIDs = append(benchIDs, c.ID)
						}
						for _, v := range c.Report.Claims {
							e, err := encode(&CachedVerdict{At: t, Verdict: v})
							if err != nil {
								return err
							}
							if err := tb.Bucket(bVerdicts).Put(cacheKey(v.Claim), e); err != nil {
								return err
							}
						}
					}
					return nil
				})
			}
		}
		fmt.Fprintf(os.Stderr, "bench fixture: %d checks in %v\n", benchChecks*11/10, time.Since(start).Round(time.Millisecond))
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDB, benchIDs
}

func benchCleanup() {
	if benchDB != nil {
		benchDB.Close()
	}
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
}

func BenchmarkCacheLookup(b *testing.B) {
	db, ids := benchFixture(b)
	// Claims of random stored checks.
	var claims []string
	for i := range 1000 {
		c, err := db.Check(ctx, "T1", ids[(i*7919)%len(ids)])
		if err != nil {
			b.Fatal(err)
		}
		claims = append(claims, c.Report.Claims[0].Claim)
	}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, ok, err := db.Verdict(ctx, "T1", claims[i%len(claims)], 1000*24*time.Hour, nil); err != nil || !ok {
			b.Fatalf("miss: %v", err)
		}
		i++
	}
}

func BenchmarkCacheMiss(b *testing.B) {
	db, _ := benchFixture(b)
	for b.Loop() {
		if _, ok, _ := db.Verdict(ctx, "T1", "The moon is made of cheese.", 0, nil); ok {
			b.Fatal("hit")
		}
	}
}

func benchHistory(b *testing.B, q HistoryQuery, want int) {
	db, _ := benchFixture(b)
	for b.Loop() {
		h, err := db.History(ctx, "T1", q)
		if err != nil || len(h) != want {
			b.Fatalf("History(%+v) = %d results, %v", q, len(h), err)
		}
	}
}

func BenchmarkHistoryLatest(b *testing.B) { benchHistory(b, HistoryQuery{Limit: 20}, 20) }
func BenchmarkHistoryVerdict(b *testing.B) {
	benchHistory(b, HistoryQuery{Limit: 20, Verdict: factcheck.Unverifiable}, 20)
}
func BenchmarkHistoryUser(b *testing.B) { benchHistory(b, HistoryQuery{Limit: 20, User: "U42"}, 20) }

// Each vocabulary word is in about 0.8% of checks: a page of 20 walks
// about 2,500 checks' text.
func BenchmarkHistoryWords(b *testing.B) {
	benchHistory(b, HistoryQuery{Limit: 20, Search: "w42x"}, 20)
}

// Prefixes: "w42" is the start of 11 vocabulary words (about 8,800 index
// entries); "w" of every word (1.7 million), which History leaves to a scan.
func BenchmarkHistoryWordsPrefix(b *testing.B) {
	benchHistory(b, HistoryQuery{Limit: 20, Search: "w42"}, 20)
}
func BenchmarkHistoryWordsOneLetter(b *testing.B) {
	benchHistory(b, HistoryQuery{Limit: 20, Search: "w"}, 20)
}

// Three prefixes of about 8,800 entries each that meet in about 50 checks.
func BenchmarkHistoryWordsPrefixes(b *testing.B) {
	benchHistory(b, HistoryQuery{Limit: 20, Search: "w42 w43 w44"}, 20)
}

// Three words that rarely meet: without the word index the walk covered
// all 100,000 checks.
func BenchmarkHistoryWordsRare(b *testing.B) {
	db, _ := benchFixture(b)
	for b.Loop() {
		if _, err := db.History(ctx, "T1", HistoryQuery{Limit: 20, Search: "w42x w1999x w7x"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHistoryWordsRareAtScale is BenchmarkHistoryWordsRare in a
// tenant of FACTBOT_BENCH_RARE checks (skipped without it; e.g. 1000000),
// written straight into the driver in key order, with what a word search
// reads: summaries, search texts and the word index (each check has the
// words of one to three sentences of eight, as in benchFixture, each word
// in about 0.8% of the checks).
func BenchmarkHistoryWordsRareAtScale(b *testing.B) {
	n, _ := strconv.Atoi(os.Getenv("FACTBOT_BENCH_RARE"))
	if n <= 0 {
		b.Skip("set FACTBOT_BENCH_RARE to the number of checks")
	}
	start := time.Now()
	db, err := Open(filepath.Join(b.TempDir(), "factbot.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.drv.(*boltDriver).db.NoSync = true
	vocab := slices.Sorted(slices.Values(append([]string{"the"}, benchWords...)))
	rng := rand.New(rand.NewPCG(3, 4))
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	ids := make([]string, n)
	var entries []uint64 // word's place in vocab << 32 | check's in ids
	for i := 0; i < n && err == nil; i += 100_000 {
		err = db.updateTenant(ctx, "T1", func(tb *tenantTx) error {
			for j := i; j < min(n, i+100_000); j++ {
				words := []int{slices.Index(vocab, "the")}
				for range 8 * (1 + rng.IntN(3)) {
					words = append(words, rng.IntN(len(vocab)))
				}
				slices.Sort(words)
				words = slices.Compact(words)
				text := " "
				for _, w := range words {
					text += vocab[w] + " "
					entries = append(entries, uint64(w)<<32|uint64(j))
				}
				ids[j] = fmt.Sprintf("%s-%06x", at.Add(time.Duration(j)*time.Second).Format(idTimeLayout), j)
				s := &CheckSummary{ID: ids[j], User: "U1", Text: text, CreatedAt: at, Verdicts: []factcheck.Label{factcheck.Supported}}
				if err := tb.Bucket(bSums).putRecord([]byte(ids[j]), s); err != nil {
					return err
				}
				if err := tb.Bucket(bText).Put([]byte(ids[j]), []byte(text)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	slices.Sort(entries)
	for i := 0; i < len(entries) && err == nil; i += 1_000_000 {
		err = db.updateTenant(ctx, "T1", func(tb *tenantTx) error {
			for _, e := range entries[i:min(len(entries), i+1_000_000)] {
				if err := tb.Bucket(bWords).Put(wordKey(vocab[e>>32], packID(ids[uint32(e)])), nil); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "rare-word fixture: %d checks, %d index entries in %v\n", n, len(entries), time.Since(start).Round(time.Millisecond))
	b.ResetTimer()
	for b.Loop() {
		if _, err := db.History(ctx, "T1", HistoryQuery{Limit: 20, Search: "w42x w1999x w7x"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRebuildWords builds the word index of the 110,000 checks, as
// opening a version 5 file does, and rolls it back.
func BenchmarkRebuildWords(b *testing.B) {
	db, _ := benchFixture(b)
	errRollback := errors.New("rollback")
	b.ReportAllocs()
	for b.Loop() {
		err := db.update(ctx, func(tx *txn) error {
			for _, t := range tx.Tenants() {
				if err := rebuildWords(&tenantTx{tx, t}); err != nil {
					return err
				}
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			b.Fatal(err)
		}
	}
}

func BenchmarkShow(b *testing.B) {
	db, ids := benchFixture(b)
	i := 0
	for b.Loop() {
		if _, err := db.Check(ctx, "T1", ids[(i*7919)%len(ids)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkSize reports the file's bytes per stored check (checks of both
// tenants, their indexes, their claims' vectors, and a cached verdict per
// claim), and the pages of the vectors alone.
func BenchmarkSize(b *testing.B) {
	db, _ := benchFixture(b)
	fi, err := os.Stat(db.Path())
	if err != nil {
		b.Fatal(err)
	}
	var used, vectors int64
	db.drv.(*boltDriver).db.View(func(tx *bolt.Tx) error {
		used = tx.Size()
		for _, tenant := range []string{"T1", "T2"} {
			if bk := tx.Bucket(boltTenants).Bucket([]byte(tenant)).Bucket(bVectors); bk != nil {
				st := bk.Stats()
				vectors += int64(st.BranchAlloc + st.LeafAlloc)
			}
		}
		return nil
	})
	for b.Loop() {
	}
	n := float64(benchChecks * 11 / 10)
	b.ReportMetric(float64(fi.Size())/n, "file-bytes/check")
	b.ReportMetric(float64(used)/n, "used-bytes/check")
	b.ReportMetric(float64(vectors)/n, "vectors-bytes/check")
	b.ReportMetric(float64(fi.Size())/(1<<20), "file-MiB")
}
