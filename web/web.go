// Package web serves factbot's read-only web view: one check as a page
// (claims, verdicts, the evidence map drawn as SVG, the sources as read,
// the trace), the history a chat user may see, and exports of it.
//
// There are no accounts. Pages open through links signed with the
// server's secret (see Signer and Links) that name the tenant, the viewer,
// what they open and until when; operators open everything with the admin
// token as a Bearer credential. A request without a valid link gets 403
// and no data.
//
// Every page is made by html/template from the store's records; text from
// models, users and web pages is only ever shown as text. The pages need no
// JavaScript and load nothing but their own stylesheet.
package web

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

// Store is what the web view reads; *store.DB implements it.
type Store interface {
	Check(ctx context.Context, tenant, id string) (*store.Check, error)
	History(ctx context.Context, tenant string, q store.HistoryQuery) ([]store.CheckSummary, error)
	PageSnapshot(ctx context.Context, sha256 string) (*search.Page, error)
	UserTenants(ctx context.Context) ([]string, error)
}

var _ Store = (*store.DB)(nil)

// Default per-token request rate.
const (
	DefaultRate  = 5 // requests per second, sustained
	DefaultBurst = 30
)

// Options configures New.
type Options struct {
	Store Store
	// Secret signs and verifies links (FACTBOT_WEB_SECRET).
	Secret string
	// AdminToken, if set, opens every page as a Bearer token
	// (FACTBOT_WEB_ADMIN_TOKEN).
	AdminToken string
	// Rate and Burst bound each token's requests (defaults DefaultRate,
	// DefaultBurst).
	Rate  rate.Limit
	Burst int
	// PublicURL is where people reach the view (FACTBOT_PUBLIC_URL): the
	// absolute url of each check page's ClaimReview markup. Empty takes
	// the request's own scheme and host.
	PublicURL string
	// Organization publishes the verdicts: the ClaimReviews' author
	// (FACTBOT_ORGANIZATION; empty is DefaultOrganization).
	Organization string
	// Now is the clock (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
}

// Server is the web view's http.Handler, to be mounted at /web/.
type Server struct {
	st     Store
	signer *Signer
	// noSecret is set when no secret was given: then no link is valid
	// (anyone could sign with an empty key).
	noSecret bool
	admin    [32]byte // SHA-256 of the admin token; zero when none
	now      func() time.Time
	log      *slog.Logger
	mux      *http.ServeMux
	site     ReviewSite

	rate    rate.Limit
	burst   int
	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

// New returns the web view's handler.
func New(o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Rate <= 0 {
		o.Rate = DefaultRate
	}
	if o.Burst <= 0 {
		o.Burst = DefaultBurst
	}
	s := &Server{st: o.Store, signer: NewSigner(o.Secret, o.Now), noSecret: o.Secret == "", now: o.Now, log: o.Logger,
		rate: o.Rate, burst: o.Burst, buckets: map[string]*rate.Limiter{}, site: ReviewSite{PublicURL: o.PublicURL, Organization: o.Organization}}
	if o.AdminToken != "" {
		s.admin = sha256.Sum256([]byte(o.AdminToken))
	}
	m := http.NewServeMux()
	m.Handle("GET /web/static/", http.StripPrefix("/web/static/", staticHandler()))
	m.HandleFunc("GET /web/{$}", s.guard(s.allHistory))
	m.HandleFunc("GET /web/history/{tenant}", s.guard(s.history))
	m.HandleFunc("GET /web/check/{tenant}/{id}", s.guard(s.check))
	m.HandleFunc("GET /web/export", s.guard(s.exportAll))
	m.HandleFunc("GET /web/export/{tenant}", s.guard(s.export))
	m.HandleFunc("GET /web/", func(w http.ResponseWriter, r *http.Request) { s.fail(w, r, http.StatusNotFound) })
	s.mux = m
	return s
}

//go:embed static
var staticFS embed.FS

//go:embed templates/*.html
var templateFS embed.FS

func staticHandler() http.Handler {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err)
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "" || strings.HasSuffix(r.URL.Path, "/") { // no listings
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	})
}

// csp is the Content-Security-Policy of every response: nothing but the
// view's own stylesheet and images.
const csp = "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// ServeHTTP sets the security headers on every response and routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, r)
}

// access is who a request acts as: an operator, or the holder of a link.
type access struct {
	admin  bool
	claims *Claims // nil for operators
	token  string  // the link token, carried on links between pages
}

// audience is who the holder is for the visibility rule: nil (everything)
// for operators; for a history link its viewer asking in its channel; for
// a check link its viewer in the check's channel, where the link was
// posted.
func (a *access) audience(checkChannel string) *store.Audience {
	switch {
	case a.admin:
		return nil
	case a.claims.Scope == ScopeHistory:
		return audience(a.claims.Viewer, a.claims.Channel)
	}
	return audience(a.claims.Viewer, checkChannel)
}

// guard authenticates a request (admin token or signed link), rate limits
// it per token, and calls h; otherwise 403 (429 over the rate).
func (s *Server) guard(h func(w http.ResponseWriter, r *http.Request, a *access)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, ok := s.authenticate(r)
		if !ok {
			s.fail(w, r, http.StatusForbidden)
			return
		}
		key := "admin"
		if !a.admin {
			key = a.token
		}
		if !s.allow(key) {
			w.Header().Set("Retry-After", "1")
			s.fail(w, r, http.StatusTooManyRequests)
			return
		}
		h(w, r, a)
	}
}

func (s *Server) authenticate(r *http.Request) (*access, bool) {
	if auth := r.Header.Get("Authorization"); auth != "" {
		tok, ok := strings.CutPrefix(auth, "Bearer ")
		if !ok || s.admin == ([32]byte{}) {
			return nil, false
		}
		// Compare digests in constant time: neither the token's bytes nor
		// its length leak through timing.
		sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
		return &access{admin: true}, subtle.ConstantTimeCompare(sum[:], s.admin[:]) == 1
	}
	tok := r.URL.Query().Get("t")
	if tok == "" || s.noSecret {
		return nil, false
	}
	c, err := s.signer.Verify(tok)
	if err != nil {
		return nil, false
	}
	return &access{claims: c, token: tok}, true
}

// maxBuckets bounds the rate limiter's memory: past it the buckets start
// afresh (links are few; this only matters under a flood of valid ones).
const maxBuckets = 10000

func (s *Server) allow(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.buckets[key]
	if !ok {
		if len(s.buckets) >= maxBuckets {
			clear(s.buckets)
		}
		l = rate.NewLimiter(s.rate, s.burst)
		s.buckets[key] = l
	}
	return l.AllowN(s.now(), 1)
}

// fail answers with an error page that says nothing of what was asked,
// in the browser's language.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	id, ok := errorWords[status]
	if !ok {
		id = "WebFailed"
	}
	l := pageLang(r, nil)
	p := errorPage{Status: status, Title: l.MustWord(id), Message: l.MustWord(id + "Text"), HTMLLang: l.Tag().String(), Dir: l.Dir()}
	if err := pages().ExecuteTemplate(w, "error.html", p); err != nil {
		s.log.Error("web: render error page", "err", err)
	}
}

// errorWords name the title of each status's error page (words.Lang.Word);
// its message is the word with "Text" after it.
var errorWords = map[int]string{
	http.StatusForbidden:       "WebForbidden",
	http.StatusNotFound:        "WebNotFound",
	http.StatusTooManyRequests: "WebTooMany",
	http.StatusBadRequest:      "WebBadRequest",
}

// storeError answers for an error reading the store.
func (s *Server) storeError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, store.ErrNotFound) {
		s.fail(w, r, http.StatusNotFound)
		return
	}
	if r.Context().Err() == nil {
		s.log.Error("web: read store", "path", r.URL.Path, "err", err)
	}
	s.fail(w, r, http.StatusInternalServerError)
}
