package download

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// server serves /file, /big and /away (a redirect to to), and counts the
// requests carrying an Authorization header.
func server(t *testing.T, to string) (*httptest.Server, *atomic.Int32) {
	var authed atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			authed.Add(1)
		}
		switch r.URL.Path {
		case "/file":
			w.Write([]byte("data"))
		case "/big":
			w.Write([]byte(strings.Repeat("x", 100)))
		case "/away":
			http.Redirect(w, r, to, http.StatusFound)
		case "/here":
			http.Redirect(w, r, "/file", http.StatusFound)
		}
	}))
	t.Cleanup(s.Close)
	return s, &authed
}

func origin(t *testing.T, s *httptest.Server) string {
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	return Origin(u)
}

func TestGet(t *testing.T) {
	other, otherAuthed := server(t, "")
	home, homeAuthed := server(t, other.URL+"/file")
	h := http.Header{"Authorization": {"Bearer secret"}}
	get := func(path string, max int64) ([]byte, error) {
		return Get(t.Context(), http.DefaultClient, Request{URL: home.URL + path, Origins: []string{origin(t, home)}, Header: h, Max: max})
	}
	if b, err := get("/file", 10); err != nil || string(b) != "data" {
		t.Errorf("/file: %q, %v", b, err)
	}
	if b, err := get("/here", 10); err != nil || string(b) != "data" {
		t.Errorf("a redirect on the same origin: %q, %v", b, err)
	}
	if _, err := get("/big", 10); !errors.Is(err, ErrTooLarge) {
		t.Errorf("/big: %v, want ErrTooLarge", err)
	}
	if _, err := get("/away", 10); err == nil || !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("a redirect to another origin: %v, want refused", err)
	}
	_, err := Get(t.Context(), http.DefaultClient, Request{URL: other.URL + "/file", Origins: []string{origin(t, home)}, Header: h, Max: 10})
	if err == nil {
		t.Error("a URL on another origin was fetched")
	}
	if n := otherAuthed.Load(); n != 0 {
		t.Errorf("the other origin got the token %d times", n)
	}
	if n := homeAuthed.Load(); n == 0 {
		t.Error("the allowed origin never got the token")
	}
}
