package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/factbot-dev/factbot/bot/words"
)

// VerifyLink opens link, a URL made by Links, through this server in
// process, as a browser would, and returns nil when the page answers 200:
// the token is valid, in scope, and lets its holder see what it names. The
// error says what the page would answer instead, so that a link that would
// not open is never handed out.
func (s *Server) VerifyLink(ctx context.Context, link string) error {
	i := strings.Index(link, "/web/")
	if i < 0 {
		return fmt.Errorf("verify link %q: not a web view link", link)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link[i:], nil)
	if err != nil {
		return fmt.Errorf("verify link: %w", err)
	}
	rec := &statusRecorder{header: http.Header{}}
	s.ServeHTTP(rec, req)
	if rec.status != http.StatusOK {
		msg := http.StatusText(rec.status)
		if id, ok := errorWords[rec.status]; ok {
			msg = words.English.MustWord(id + "Text")
		}
		return fmt.Errorf("the link would answer %d: %s", rec.status, msg)
	}
	return nil
}

// statusRecorder is the http.ResponseWriter of VerifyLink: it keeps the
// status and drops the page.
type statusRecorder struct {
	header http.Header
	status int
}

func (r *statusRecorder) Header() http.Header { return r.header }

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return len(b), nil
}
