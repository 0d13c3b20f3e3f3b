package web

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/web/webtest"
)

const (
	testSecret = "test-secret-0123456789"
	testAdmin  = "admin-token-0123456789abcdef"
)

// t0 is the tests' clock: checks are made at t0, pages opened at t0+1h.
var t0 = time.Date(2026, 11, 30, 9, 30, 0, 0, time.UTC)

func testNow() time.Time { return t0.Add(time.Hour) }

// fixture is a database with the sample check of tenant T1 (channel C1,
// user U1), a private check of U1, and a check of tenant T2, served by the
// web view.
type fixture struct {
	db              *store.DB
	srv             *Server
	links           *Links
	sample, private *store.Check
	other           *store.Check
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "factbot.db"), store.Options{Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &fixture{db: db}
	if f.sample, err = webtest.Seed(ctx, db, "T1", "C1", "U1", t0); err != nil {
		t.Fatal(err)
	}
	f.private = &store.Check{Tenant: "T1", Channel: "D1", User: "U1", Text: "A private question", CreatedAt: t0.Add(time.Minute), Private: true}
	f.other = &store.Check{Tenant: "T2", Channel: "C9", User: "U9", Text: "Another team asks", CreatedAt: t0.Add(2 * time.Minute)}
	for _, c := range []*store.Check{f.private, f.other} {
		if err := db.SaveCheck(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	f.srv = New(Options{Store: db, Secret: testSecret, AdminToken: testAdmin, Now: testNow, Burst: 1000})
	f.links = NewLinks("https://factbot.example", testSecret, 0, 0, testNow)
	return f
}

// get serves one GET of target (a path with query) with optional headers.
func (f *fixture) get(t *testing.T, target string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	f.srv.ServeHTTP(w, r)
	return w
}

// local strips the public URL from a link.
func local(link string) string { return link[len("https://factbot.example"):] }

func newRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }

func readAll(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hrefs returns the last path segment of every link in body under prefix.
func hrefs(body, prefix string) []string {
	var out []string
	for _, part := range strings.Split(body, `href="`+prefix)[1:] {
		id, _, _ := strings.Cut(part, "?")
		id, _, _ = strings.Cut(id, `"`)
		out = append(out, id)
	}
	return out
}

func htmlUnescape(s string) string { return html.UnescapeString(s) }

func storeQuery() store.HistoryQuery { return store.HistoryQuery{Limit: store.MaxLimit} }
