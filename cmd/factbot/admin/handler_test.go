package admin

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// fakeStore records the calls the handler makes.
type fakeStore struct{ calls []string }

func (f *fakeStore) BackupFile(_ context.Context, path string) (int64, error) {
	f.calls = append(f.calls, "backup "+path)
	return 1, nil
}

func (f *fakeStore) Prune(_ context.Context, cutoff time.Time) (store.PruneStats, error) {
	f.calls = append(f.calls, "prune "+cutoff.UTC().Format(time.RFC3339))
	return store.PruneStats{Checks: 1}, nil
}

func (f *fakeStore) Forget(_ context.Context, tenant, user string) (store.ForgetStats, error) {
	f.calls = append(f.calls, "forget "+tenant+" "+user)
	return store.ForgetStats{Checks: 1}, nil
}

func (f *fakeStore) ForgetTenant(_ context.Context, tenant string) (store.ForgetStats, error) {
	f.calls = append(f.calls, "forget tenant "+tenant)
	return store.ForgetStats{Checks: 2}, nil
}

func (f *fakeStore) UserTenants(context.Context) ([]string, error) {
	f.calls = append(f.calls, "tenants")
	return []string{"T1"}, nil
}

// TestHandler: each request body of the protocol calls what it says, and
// bad ones call nothing.
func TestHandler(t *testing.T) {
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		path, body string
		code       int
		call       string
	}{
		{"/prune", `{"older_than":"30d"}`, 200, "prune 2026-10-31T00:00:00Z"},
		{"/prune", `{"older_than":"36h"}`, 200, "prune 2026-11-28T12:00:00Z"},
		{"/prune", `{"cutoff":"2026-01-02T03:04:05Z"}`, 200, "prune 2026-01-02T03:04:05Z"},
		{"/prune", `{"older_than":"-3d"}`, 400, ""},
		{"/prune", `{}`, 400, ""},
		{"/forget", `{"tenant":"T1","user":"U1"}`, 200, "forget T1 U1"},
		{"/forget", `{"tenant":"T1"}`, 200, "forget tenant T1"},
		{"/forget", `{"tenant":"T1","user":""}`, 400, ""},
		{"/forget", `{"user":"U1"}`, 400, ""},
		{"/backup", `{"path":"/tmp/x.db"}`, 200, "backup /tmp/x.db"},
		{"/backup", `{"path":"x.db"}`, 400, ""},
		{"/backup", `{"path":"/tmp/x.db","extra":1}`, 400, ""},
		{"/tenants", `{}`, 200, "tenants"},
		{"/tenants", `{"tenant":"T1"}`, 400, ""},
	}
	for _, tt := range tests {
		f := &fakeStore{}
		h := handler(f, Options{Now: func() time.Time { return now }, Logger: nil})
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, tt.path, strings.NewReader(tt.body)))
		var call string
		if len(f.calls) > 0 {
			call = f.calls[0]
		}
		if rec.Code != tt.code || call != tt.call {
			t.Errorf("POST %s %s: %d, call %q; want %d, %q (body %s)", tt.path, tt.body, rec.Code, call, tt.code, tt.call, rec.Body)
		}
	}
}
