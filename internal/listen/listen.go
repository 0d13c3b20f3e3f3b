// Package listen is the one budget of every HTTP listener factbot opens:
// factbot serve's public and metrics listeners, factbot web --addr and
// factbot mcp --addr. A Listener bounds the open connections (all
// addresses together, and from one address), sheds the slowest of those
// waiting for a request's headers when full, and its Server bounds how long
// a client may take to send a request's headers and body; a request is
// answered without waiting for a body its handler did not read.
package listen

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// Limits bound what clients can hold of a listener.
type Limits struct {
	// MaxConns bounds the open connections, half of them at most waiting
	// for a request's headers (new ones, and idle keep-alive ones);
	// MaxConnsPerIP those from one client address (more are closed at
	// once).
	MaxConns, MaxConnsPerIP int
	// Header is how long a client has to send a request's headers.
	Header time.Duration
	// Body is how long a client has to send a request's body once its
	// headers are read; once it has, the request runs as long as its
	// handler takes (a check, an event stream).
	Body time.Duration
	// Write bounds writing an answer; 0 leaves it unbounded, for
	// listeners whose answers are streams (MCP's).
	Write time.Duration
	// Idle closes a keep-alive connection idle this long.
	Idle time.Duration
	// MaxHeaderBytes caps a request's headers.
	MaxHeaderBytes int
}

// Timeouts are every listener's timeouts; MaxConns and MaxConnsPerIP come
// from the configuration (FACTBOT_MAX_CONNS, FACTBOT_MAX_CONNS_PER_IP).
var Timeouts = Limits{
	Header: 2 * time.Second, Body: 15 * time.Second, Write: 30 * time.Second, Idle: 60 * time.Second,
	MaxHeaderBytes: 64 << 10,
}

// Listener is a TCP listener under a budget: serve it with its Server.
type Listener struct {
	*budgetListener
	limits Limits
	log    *slog.Logger // set by Server
}

// Listen listens on addr (host:port) under l.
func Listen(addr string, l Limits) (*Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return New(ln, l), nil
}

// New puts ln under l.
func New(ln net.Listener, l Limits) *Listener {
	b := newBudgetListener(limitPerAddr(ln, max(l.MaxConnsPerIP, 1)), l.MaxConns, l.MaxConns/2)
	return &Listener{budgetListener: b, limits: l}
}

// Accept waits for the next connection under l's budget. A failure is
// logged as a warning: http.Server retries one that may pass (a process
// out of file descriptors, EMFILE) and tells only its error log, kept at
// debug level.
func (l *Listener) Accept() (net.Conn, error) {
	c, err := l.budgetListener.Accept()
	if err != nil && !errors.Is(err, net.ErrClosed) && l.log != nil {
		l.log.Warn("cannot accept a connection", "addr", l.Addr().String(), "err", err)
	}
	return c, err
}

// Server returns the HTTP server of h on l, with l's timeouts, telling l
// which connections serve a request and which wait for one. Serve it with
// srv.Serve(l).
func (l *Listener) Server(h http.Handler, log *slog.Logger) *http.Server {
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			l.serving(r)
			w, r = l.bounded(w, r)
			h.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: l.limits.Header,
		WriteTimeout:      l.limits.Write,
		IdleTimeout:       l.limits.Idle,
		MaxHeaderBytes:    l.limits.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	l.log = log
	l.track(srv)
	return srv
}

// bounded gives r's body l's Body time to arrive (net/http lifts the
// deadline once the body has been read to its end, so that the handler
// may run as long as it takes); and it makes an answer sent before the
// body was read close the connection rather than wait for the body:
// net/http would otherwise read up to 256 KiB of it before answering, at
// the client's pace.
func (l *Listener) bounded(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		return w, r
	}
	if l.limits.Body > 0 {
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(l.limits.Body))
	}
	b := &body{ReadCloser: r.Body, want: r.ContentLength}
	r.Body = b
	return &answer{ResponseWriter: w, body: b}, r
}

// body is a request's body, which knows when it has all arrived.
type body struct {
	io.ReadCloser
	want int64 // the Content-Length, -1 when unknown
	got  int64
	over atomic.Bool // read to its end (or failed)
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.got += int64(n)
	if err != nil || b.got == b.want {
		b.over.Store(true)
	}
	return n, err
}

// answer is the ResponseWriter of a request with a body: it closes the
// connection after an answer sent before the body was read.
type answer struct {
	http.ResponseWriter
	body  *body
	wrote bool
}

func (a *answer) WriteHeader(code int) {
	if !a.wrote && code >= 200 {
		a.wrote = true
		if !a.body.over.Load() {
			a.Header().Set("Connection", "close")
		}
	}
	a.ResponseWriter.WriteHeader(code)
}

func (a *answer) Write(p []byte) (int, error) {
	if !a.wrote {
		a.WriteHeader(http.StatusOK)
	}
	return a.ResponseWriter.Write(p)
}

// Flush sends what is written so far (http.Flusher, for handlers that
// assert it).
func (a *answer) Flush() {
	if !a.wrote {
		a.WriteHeader(http.StatusOK)
	}
	http.NewResponseController(a.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the server's ResponseWriter.
func (a *answer) Unwrap() http.ResponseWriter { return a.ResponseWriter }
