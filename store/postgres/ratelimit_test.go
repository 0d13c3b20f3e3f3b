package postgres

import (
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// take is one call in a rate-limit scenario: Take (or Give, when give) of
// key at t0+at.
type take struct {
	key      string
	at       time.Duration
	give     bool
	wantOK   bool
	wantNext time.Duration // t0+wantNext when refused
}

// TestTakeGive: Take and Give count a sliding window per key as bot's
// in-memory limiter does (n uses in (now-window, now]).
func TestTakeGive(t *testing.T) {
	const n, window = 2, 10 * time.Minute
	tests := []struct {
		name  string
		steps []take
	}{
		{"n uses, then refused until the oldest leaves the window", []take{
			{key: "a", at: 0, wantOK: true},
			{key: "a", at: time.Minute, wantOK: true},
			{key: "a", at: 2 * time.Minute, wantNext: 10 * time.Minute},
			{key: "a", at: 10*time.Minute - time.Nanosecond, wantNext: 10 * time.Minute},
			{key: "a", at: 10 * time.Minute, wantOK: true}, // the use at 0 is out: (now-window, now]
			{key: "a", at: 10*time.Minute + time.Second, wantNext: 11 * time.Minute},
		}},
		{"keys are counted apart", []take{
			{key: "a", at: 0, wantOK: true},
			{key: "a", at: 0, wantOK: true},
			{key: "b", at: 0, wantOK: true},
			{key: "a\x00b", at: 0, wantOK: true}, // a NUL in a key is kept
			{key: "a\x00c", at: 0, wantOK: true},
			{key: "a", at: 0, wantNext: 10 * time.Minute},
		}},
		{"Give forgets the use at now", []take{
			{key: "a", at: 0, wantOK: true},
			{key: "a", at: time.Minute, wantOK: true},
			{key: "a", at: time.Minute, give: true},
			{key: "a", at: 2 * time.Minute, wantOK: true},
			{key: "a", at: 3 * time.Minute, wantNext: 10 * time.Minute},
			{key: "a", at: 5 * time.Minute, give: true}, // nothing at 5m: nothing forgotten
			{key: "a", at: 5 * time.Minute, wantNext: 10 * time.Minute},
			{key: "b", at: 0, give: true}, // an unknown key
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, _ := newDB(t)
			for i, s := range tt.steps {
				now := t0.Add(s.at)
				if s.give {
					mustf(t, db.Give(ctx, s.key, now), "step %d: give %q at %v", i, s.key, s.at)
					continue
				}
				ok, next, err := db.Take(ctx, s.key, n, window, now)
				mustf(t, err, "step %d: take %q at %v", i, s.key, s.at)
				var want time.Time
				if !s.wantOK {
					want = t0.Add(s.wantNext)
				}
				if ok != s.wantOK || !next.Equal(want) {
					t.Errorf("step %d: Take(%q) at %v = %v, %v; want %v, %v", i, s.key, s.at, ok, next, s.wantOK, want)
				}
			}
		})
	}
}

// A limit with no count or no window allows everything and records
// nothing.
func TestTakeNoLimit(t *testing.T) {
	db, _ := newDB(t)
	for _, l := range []struct {
		n int
		w time.Duration
	}{{0, time.Hour}, {2, 0}} {
		for range 3 {
			if ok, _, err := db.Take(ctx, "a", l.n, l.w, t0); !ok || err != nil {
				t.Errorf("Take with n=%d window=%v = %v, %v; want allowed", l.n, l.w, ok, err)
			}
		}
	}
	if got := rateEvents(t, db); got != 0 {
		t.Errorf("%d uses recorded, want none", got)
	}
}

// Concurrent takes of one key, as from several replicas, allow exactly n.
func TestTakeConcurrent(t *testing.T) {
	db, _ := newDB(t)
	const n, tries = 3, 12
	var wg sync.WaitGroup
	results := make(chan bool, tries)
	for range tries {
		wg.Go(func() {
			ok, _, err := db.Take(ctx, "busy", n, time.Hour, t0)
			if err != nil {
				t.Error(err)
			}
			results <- ok
		})
	}
	wg.Wait()
	close(results)
	allowed := 0
	for ok := range results {
		if ok {
			allowed++
		}
	}
	if allowed != n {
		t.Errorf("%d of %d concurrent takes allowed, want %d", allowed, tries, n)
	}
}

// Prune deletes the uses that left their window, whatever the key.
func TestPruneRateEvents(t *testing.T) {
	db, clk := newDB(t)
	for _, k := range []string{"short", "long"} {
		w := time.Minute
		if k == "long" {
			w = time.Hour
		}
		_, _, err := db.Take(ctx, k, 5, w, t0)
		mustf(t, err, "take %s", k)
	}
	clk.Add(2 * time.Minute)
	_, err := db.Prune(ctx, time.Time{})
	mustf(t, err, "prune")
	rows, err := db.pool.Query(ctx, "SELECT key FROM rate_events ORDER BY key")
	mustf(t, err, "query")
	var keys []string
	for rows.Next() {
		var k string
		mustf(t, rows.Scan(&k), "scan")
		keys = append(keys, k)
	}
	mustf(t, rows.Err(), "rows")
	if diff := cmp.Diff([]string{"long"}, keys); diff != "" {
		t.Errorf("uses left after prune (-want +got):\n%s", diff)
	}
}

func rateEvents(t *testing.T, db *DB) int {
	t.Helper()
	var n int
	mustf(t, db.pool.QueryRow(ctx, "SELECT count(*) FROM rate_events").Scan(&n), "count")
	return n
}
