package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/web/webtest"
)

// benchChecks is the size of the benchmark database.
const benchChecks = 100_000

var bench struct {
	once   sync.Once
	err    error
	db     *store.DB
	dir    string
	ids    []string
	sample *store.Check
}

// benchFixture builds, once per test binary run, a bbolt database with
// 100,000 checks of tenant T1 (webtest.Fill: one to three claims each, 50
// channels, 500 users) and the sample check with its pages as read.
func benchFixture(b *testing.B) (*store.DB, []string, *store.Check) {
	b.Helper()
	bench.once.Do(func() {
		start := time.Now()
		if bench.dir, bench.err = os.MkdirTemp("", "factbot-web-bench-"); bench.err != nil {
			return
		}
		if bench.db, bench.err = store.Open(filepath.Join(bench.dir, "factbot.db"), store.Options{Now: testNow}); bench.err != nil {
			return
		}
		ctx := context.Background()
		if bench.ids, bench.err = webtest.Fill(ctx, bench.db, "T1", benchChecks, t0); bench.err != nil {
			return
		}
		bench.sample, bench.err = webtest.Seed(ctx, bench.db, "T1", "C1", "U1", t0)
		fmt.Fprintf(os.Stderr, "web bench fixture: %d checks in %v\n", benchChecks+1, time.Since(start).Round(time.Millisecond))
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.db, bench.ids, bench.sample
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bench.db != nil {
		bench.db.Close()
		os.RemoveAll(bench.dir)
	}
	os.Exit(code)
}

// serveBench serves target b.N times and fails on a status other than 200.
func serveBench(b *testing.B, srv http.Handler, targets func(i int) string) {
	b.Helper()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, targets(i), nil))
		if w.Code != 200 {
			b.Fatalf("GET %s: %d", targets(i), w.Code)
		}
	}
}

func benchServer(db *store.DB) (*Server, *Links) {
	srv := New(Options{Store: db, Secret: testSecret, Now: testNow, Rate: 1e9, Burst: 1e9})
	return srv, NewLinks("https://factbot.example", testSecret, 0, 0, testNow)
}

// BenchmarkCheckPage opens the sample check (three claims, five pages as
// read, traces) among 100,000.
func BenchmarkCheckPage(b *testing.B) {
	db, _, sample := benchFixture(b)
	srv, links := benchServer(db)
	link := local(links.CheckURL("T1", "U1", sample.ID))
	serveBench(b, srv, func(int) string { return link })
}

// BenchmarkCheckPageFiller opens filler checks spread over the database,
// as an operator.
func BenchmarkCheckPageFiller(b *testing.B) {
	db, ids, _ := benchFixture(b)
	admin := New(Options{Store: db, AdminToken: testAdmin, Secret: testSecret, Now: testNow, Rate: 1e9, Burst: 1e9})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		id := ids[(i*7919)%len(ids)]
		r := httptest.NewRequest(http.MethodGet, CheckPath("T1", id), nil)
		r.Header.Set("Authorization", "Bearer "+testAdmin)
		w := httptest.NewRecorder()
		admin.ServeHTTP(w, r)
		if w.Code != 200 {
			b.Fatalf("check %s: %d", id, w.Code)
		}
	}
}

// BenchmarkHistoryPage opens history pages of 25 checks through a history
// link asked in C1 (public): the newest, filtered ones, one deep in the
// past, and a private channel's, of which the link may see only its
// viewer's own checks (the whole channel is read to find them).
func BenchmarkHistoryPage(b *testing.B) {
	db, ids, _ := benchFixture(b)
	srv, links := benchServer(db)
	link := local(links.HistoryURL("T1", "U1", "C1"))
	for _, bb := range []struct{ name, query string }{
		{"newest", ""},
		{"verdict", "&verdict=contested"},
		{"channel and verdict", "&channel=C7&verdict=supported"},
		{"person", "&user=U42"},
		{"private channel seen from another", "&channel=C45"},
		{"words", "&q=coffee+moon"},
		{"date range", "&since=2026-10-01&until=2026-10-15"},
		{"page 2000", "&before=" + ids[len(ids)/2]},
	} {
		b.Run(bb.name, func(b *testing.B) {
			serveBench(b, srv, func(int) string { return link + bb.query })
		})
	}
}
