package admin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// maxBody bounds a request body.
const maxBody = 64 << 10

// Server serves the admin API of one database on its socket.
type Server struct {
	path      string
	http      *http.Server
	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

// Options configures Start. Zero fields take defaults.
type Options struct {
	// Logger logs each operation (default: discard).
	Logger *slog.Logger
	// Now returns the time for older_than (default time.Now).
	Now func() time.Time
}

// Start listens on the admin socket of the database at dbPath (see
// SocketPath) and serves st's maintenance on it until ctx ends or Close is
// called. A stale socket file left by a crashed process is replaced; a
// socket another process answers on is an error, and so is a folder other
// users can write to (checkFolder): there, another user could put their
// own socket in its place. factbot serve starts it
// once the database is open:
//
//	srv, err := admin.Start(ctx, dbPath, db, admin.Options{Logger: log})
//	…
//	defer srv.Close()
func Start(ctx context.Context, dbPath string, st Store, opts Options) (*Server, error) {
	path := SocketPath(dbPath)
	if err := checkFolder(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("admin socket %s not started: %w", path, err)
	}
	ln, err := listen(path)
	if err != nil {
		return nil, fmt.Errorf("admin socket: %w", err)
	}
	s := &Server{path: path, closed: make(chan struct{})}
	s.http = &http.Server{
		Handler:           handler(st, opts),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	go s.http.Serve(sameUser{ln}) // returns once Close shuts it down
	go func() {
		select {
		case <-ctx.Done():
			s.Close()
		case <-s.closed:
		}
	}()
	return s, nil
}

// Close stops the server, waiting for operations in progress, and removes
// the socket.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		defer close(s.closed)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		s.closeErr = s.http.Shutdown(ctx)
		os.Remove(s.path)
	})
	return s.closeErr
}

// checkFolder returns an error, saying how to fix it, when users other
// than this one (or root) could create or replace files in dir: a folder
// another user owns, or one its group or everyone can write to (sticky or
// not: another user could take the socket's name first).
func checkFolder(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if uid, ok := fileOwner(info); ok && !trustedUser(uid) {
		return fmt.Errorf("the folder %s belongs to user %d, who could replace the socket; "+
			"set FACTBOT_DB to a file in a folder of the bot's own user", dir, uid)
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("the folder %s can be written by other users (mode %v), who could put their own socket in its place; "+
			"run chmod go-w %s, or set FACTBOT_DB to a file in a folder only the bot's user can write", dir, perm, dir)
	}
	return nil
}

// listen creates the socket at path, readable and writable by the owner
// only, replacing a stale one.
func listen(path string) (net.Listener, error) {
	if _, err := os.Lstat(path); err == nil {
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("%s is in use by another process", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, err
		}
	}
	// Create the socket in a private directory and move it into place, so
	// it is never reachable with wider permissions.
	dir, err := os.MkdirTemp(filepath.Dir(path), ".factbot-admin-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", tmp)
	if err != nil {
		return nil, err
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	if err := os.Chmod(tmp, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// sameUser accepts only connections from the server's own user, where the
// system says who connects.
type sameUser struct{ net.Listener }

func (l sameUser) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if peerAllowed(c) {
			return c, nil
		}
		c.Close()
	}
}

// apiError is an error answer.
type apiError struct {
	Error string `json:"error"`
}

type backupRequest struct {
	Path string `json:"path"`
}

type backupResponse struct {
	Bytes int64 `json:"bytes"`
}

type pruneRequest struct {
	OlderThan string    `json:"older_than,omitempty"`
	Cutoff    time.Time `json:"cutoff,omitzero"`
}

type forgetRequest struct {
	Tenant string  `json:"tenant"`
	User   *string `json:"user,omitempty"`
}

type tenantsResponse struct {
	Tenants []string `json:"tenants"`
}

func handler(st Store, opts Options) http.Handler {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	mux := http.NewServeMux()
	mux.HandleFunc("POST /backup", func(w http.ResponseWriter, r *http.Request) {
		var req backupRequest
		if !readJSON(w, r, &req) {
			return
		}
		if !filepath.IsAbs(req.Path) {
			writeError(w, http.StatusBadRequest, fmt.Errorf("backup: path %q is not absolute", req.Path))
			return
		}
		n, err := st.BackupFile(r.Context(), req.Path)
		log.Info("admin backup", "path", req.Path, "bytes", n, "err", err)
		reply(w, backupResponse{Bytes: n}, err)
	})
	mux.HandleFunc("POST /prune", func(w http.ResponseWriter, r *http.Request) {
		var req pruneRequest
		if !readJSON(w, r, &req) {
			return
		}
		cutoff := req.Cutoff
		if req.OlderThan != "" {
			d, err := parseAge(req.OlderThan)
			if err != nil {
				writeError(w, http.StatusBadRequest, fmt.Errorf("prune: %w", err))
				return
			}
			cutoff = opts.Now().Add(-d)
		}
		if cutoff.IsZero() {
			writeError(w, http.StatusBadRequest, errors.New("prune: older_than or cutoff is required"))
			return
		}
		s, err := st.Prune(r.Context(), cutoff)
		log.Info("admin prune", "cutoff", cutoff, "stats", s, "err", err)
		reply(w, s, err)
	})
	mux.HandleFunc("POST /forget", func(w http.ResponseWriter, r *http.Request) {
		var req forgetRequest
		if !readJSON(w, r, &req) {
			return
		}
		if req.Tenant == "" {
			writeError(w, http.StatusBadRequest, errors.New("forget: tenant is required"))
			return
		}
		var s store.ForgetStats
		var err error
		switch {
		case req.User == nil:
			s, err = st.ForgetTenant(r.Context(), req.Tenant)
		case *req.User == "":
			writeError(w, http.StatusBadRequest, errors.New("forget: user is empty (leave it out to forget the whole tenant)"))
			return
		default:
			s, err = st.Forget(r.Context(), req.Tenant, *req.User)
		}
		log.Info("admin forget", "tenant", req.Tenant, "whole_tenant", req.User == nil, "stats", s, "err", err)
		reply(w, s, err)
	})
	mux.HandleFunc("POST /tenants", func(w http.ResponseWriter, r *http.Request) {
		var req struct{}
		if !readJSON(w, r, &req) {
			return
		}
		ts, err := st.UserTenants(r.Context())
		reply(w, tenantsResponse{Tenants: ts}, err)
	})
	if d, ok := st.(Data); ok {
		dataRoutes(mux, d)
	}
	return mux
}

func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	return readJSONUpTo(w, r, v, maxBody)
}

// readJSONUpTo decodes a body of at most limit bytes into v, or answers
// 400.
func readJSONUpTo(w http.ResponseWriter, r *http.Request, v any, limit int64) bool {
	dec := json.NewDecoder(io.LimitReader(r.Body, limit))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Errorf("bad request body: %w", err))
		return false
	}
	return true
}

func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func writeError(w http.ResponseWriter, code int, err error) {
	writeJSON(w, code, apiError{Error: err.Error()})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}
