// Package admin lets the factbot command use a database that 'factbot
// serve' holds open: bbolt allows one process per file, so serve runs a
// small server on a unix socket next to the database (SocketPath), and
// the commands (backup, prune and forget; and check, history, show,
// export and web through Data) ask it instead of opening the file (Dial,
// or Open for both cases). Serve stays the file's one writer.
//
// The protocol is JSON over HTTP on the socket:
//
//	POST /backup {"path": "/abs/file"}              → {"bytes": n}
//	POST /prune  {"older_than": "720h"} or {"cutoff": "2026-…Z"} → store.PruneStats
//	POST /forget {"tenant": "T", "user": "U"}       → store.ForgetStats
//	POST /forget {"tenant": "T"}                    → store.ForgetStats of ForgetTenant
//
// Errors answer 4xx or 5xx with {"error": "…"}. The socket is created with
// mode 0600 and, on Linux, connections from other users are refused.
package admin

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// Store is the maintenance a database offers; *store.DB implements it, and
// so does *Client, by asking the server that holds the database.
type Store interface {
	BackupFile(ctx context.Context, path string) (int64, error)
	Prune(ctx context.Context, cutoff time.Time) (store.PruneStats, error)
	Forget(ctx context.Context, tenant, user string) (store.ForgetStats, error)
	ForgetTenant(ctx context.Context, tenant string) (store.ForgetStats, error)
	// UserTenants lists the tenants that have records (forget --user
	// without --tenant forgets the user in each).
	UserTenants(ctx context.Context) ([]string, error)
}

var (
	_ Store = (*store.DB)(nil)
	_ Store = (*Client)(nil)
)

// SocketPath is the admin socket of the database at dbPath.
func SocketPath(dbPath string) string { return dbPath + ".admin.sock" }

// ErrNoServer is wrapped by Dial when nothing serves the database's admin
// socket.
var ErrNoServer = errors.New("no factbot serve admin socket")

// Open returns what maintains and reads the database at dbPath: a client
// of the admin socket when 'factbot serve' answers there (at once, without
// waiting for the file's lock), an error when a socket there is not to
// be trusted (ErrUntrustedSocket), else the database opened by open, or, when
// open fails with store.ErrLocked because serve holds the file but had not
// answered yet, a client after all. close releases either. A CLI command
// uses it in one line:
//
//	st, closeStore, err := admin.Open(dbPath, func() (*store.DB, error) { return openExistingStore(a) })
func Open(dbPath string, open func() (*store.DB, error)) (st Backend, close func() error, err error) {
	c, err := Dial(dbPath)
	if err == nil {
		return c, c.Close, nil
	}
	if !errors.Is(err, ErrNoServer) {
		return nil, nil, err // a socket not to be trusted, or one that cannot be asked about
	}
	db, err := open()
	if err == nil {
		return db, db.Close, nil
	}
	if !errors.Is(err, store.ErrLocked) {
		return nil, nil, err
	}
	c, derr := Dial(dbPath)
	if derr != nil {
		return nil, nil, fmt.Errorf("%w (and %v)", err, derr)
	}
	return c, c.Close, nil
}

// parseAge parses a Go duration ("720h") or a number of days ("30d").
func parseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(d, 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("older_than %q: want a positive duration such as 30d or 720h", s)
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("older_than %q: want a positive duration such as 30d or 720h", s)
	}
	return d, nil
}
