package search

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// cannedServer starts a server that answers every request with status, the
// header and body, counting the requests in hits when it is not nil. The
// test's cleanup closes it.
func cannedServer(t testing.TB, hits *atomic.Int32, status int, header map[string]string, body string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits != nil {
			hits.Add(1)
		}
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// htmlType is the header of a web page.
var htmlType = map[string]string{"Content-Type": "text/html"}

// jsonType is the header of a JSON answer.
var jsonType = map[string]string{"Content-Type": "application/json"}

// providerErrorCase is an error answer of a search API and the
// *ProviderError it must become.
type providerErrorCase struct {
	name      string
	status    int
	header    map[string]string
	body      string
	wantKind  error // nil: no particular kind
	wantRetry time.Duration
	wantMsg   string
}

// testProviderErrors runs, for each case, a search by the provider that
// newProvider makes for a server giving the case's answer, and checks the
// error it returns.
func testProviderErrors(t *testing.T, newProvider func(url string) Provider, cases []providerErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := cannedServer(t, nil, tc.status, tc.header, tc.body)
			_, err := newProvider(srv.URL).Search(context.Background(), Query{Text: "q", Max: 5})
			var pe *ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ProviderError", err)
			}
			if tc.wantKind != nil && !errors.Is(err, tc.wantKind) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.wantKind)
			}
			if pe.Status != tc.status || pe.RetryAfter != tc.wantRetry {
				t.Errorf("status, retry = %d, %v; want %d, %v", pe.Status, pe.RetryAfter, tc.status, tc.wantRetry)
			}
			if err.Error() != tc.wantMsg {
				t.Errorf("message:\n got %q\nwant %q", err.Error(), tc.wantMsg)
			}
		})
	}
}
