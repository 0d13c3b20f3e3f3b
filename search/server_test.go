package search

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
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
