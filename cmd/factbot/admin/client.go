package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// maxAnswer bounds an answer (a check with its sources and trace can be
// large).
const maxAnswer = 256 << 20

// Client asks the admin server of a running 'factbot serve' to maintain
// its database. It implements Store.
type Client struct {
	path string
	hc   *http.Client
}

// Dial connects to the admin socket of the database at dbPath, or returns
// an error wrapping ErrNoServer if nothing answers there. A socket that is
// not this user's own (or root's), or whose server runs as another user,
// is an error wrapping ErrUntrustedSocket: the client never talks to it.
// Every later connection is checked the same way.
func Dial(dbPath string) (*Client, error) {
	path := SocketPath(dbPath)
	ctx, cancel := context.WithTimeout(context.Background(), dialTimeout)
	defer cancel()
	c, err := dialTrusted(ctx, path)
	if err != nil {
		return nil, err
	}
	c.Close()
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return dialTrusted(ctx, path)
		},
	}
	return &Client{path: path, hc: &http.Client{Transport: tr}}, nil
}

// dialTimeout bounds connecting to the socket.
const dialTimeout = 5 * time.Second

// ErrUntrustedSocket is wrapped by Dial (and Open) when the admin socket
// was not made by a factbot serve of this user's (or root's).
var ErrUntrustedSocket = errors.New("admin socket not trusted")

// trustedUser reports whether a socket file owned by uid, or a server
// running as uid, is trusted: this process's user or root. Tests replace
// it.
var trustedUser = func(uid uint32) bool { return uid == 0 || uid == uint32(os.Getuid()) }

// dialTrusted connects to the socket at path after checking who owns it,
// and checks who serves it once connected.
func dialTrusted(ctx context.Context, path string) (net.Conn, error) {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s", ErrNoServer, path)
	}
	if err != nil {
		return nil, fmt.Errorf("admin socket %s: %w", path, err)
	}
	if info.Mode().Type() != fs.ModeSocket {
		return nil, untrusted(path, "is not a socket")
	}
	if uid, ok := fileOwner(info); ok && !trustedUser(uid) {
		return nil, untrusted(path, fmt.Sprintf("belongs to user %d, not to you or root", uid))
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %v", ErrNoServer, path, err)
	}
	if !credsChecked {
		return c, nil
	}
	uid, err := peerUID(c)
	if err != nil {
		c.Close()
		return nil, untrusted(path, fmt.Sprintf("cannot say who serves it (%v)", err))
	}
	if !trustedUser(uid) {
		c.Close()
		return nil, untrusted(path, fmt.Sprintf("is served by user %d, not by you or root", uid))
	}
	return c, nil
}

// untrusted is the error for a socket the client will not talk to.
func untrusted(path, why string) error {
	return fmt.Errorf("%w: %s %s: another user may have made it to receive what you send; "+
		"stop here, check who made it (ls -l), remove it, and keep the database in a folder only its user can write",
		ErrUntrustedSocket, path, why)
}

// Close releases the client's connections.
func (c *Client) Close() error {
	c.hc.CloseIdleConnections()
	return nil
}

// BackupFile asks the server to write a consistent copy of the database to
// path (made absolute here: the server runs elsewhere), as
// store.DB.BackupFile does.
func (c *Client) BackupFile(ctx context.Context, path string) (int64, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	var resp backupResponse
	err = c.call(ctx, "/backup", backupRequest{Path: abs}, &resp)
	return resp.Bytes, err
}

// Prune asks the server to prune records older than cutoff, as
// store.DB.Prune does.
func (c *Client) Prune(ctx context.Context, cutoff time.Time) (store.PruneStats, error) {
	var st store.PruneStats
	err := c.call(ctx, "/prune", pruneRequest{Cutoff: cutoff}, &st)
	return st, err
}

// Forget asks the server to forget a user of a tenant, as
// store.DB.Forget does.
func (c *Client) Forget(ctx context.Context, tenant, user string) (store.ForgetStats, error) {
	var st store.ForgetStats
	if user == "" {
		return st, errors.New("forget: empty user")
	}
	err := c.call(ctx, "/forget", forgetRequest{Tenant: tenant, User: &user}, &st)
	return st, err
}

// ForgetTenant asks the server to forget a whole tenant, as
// store.DB.ForgetTenant does.
func (c *Client) ForgetTenant(ctx context.Context, tenant string) (store.ForgetStats, error) {
	var st store.ForgetStats
	err := c.call(ctx, "/forget", forgetRequest{Tenant: tenant}, &st)
	return st, err
}

// UserTenants asks the server for the tenants that have records, as
// store.DB.UserTenants lists them.
func (c *Client) UserTenants(ctx context.Context) ([]string, error) {
	var resp tenantsResponse
	err := c.call(ctx, "/tenants", struct{}{}, &resp)
	return resp.Tenants, err
}

// call posts req as JSON to the path and decodes the answer into resp.
func (c *Client) call(ctx context.Context, path string, req, resp any) error {
	r, err := c.post(ctx, path, req)
	if err != nil {
		return err
	}
	defer r.Body.Close()
	data, err := io.ReadAll(io.LimitReader(r.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("admin socket %s: %w", c.path, err)
	}
	return json.Unmarshal(data, resp)
}

// post posts req as JSON to the path and returns the answer of a call that
// succeeded, for the caller to read and close. An error answer is an error
// (wrapping store.ErrNotFound for a 404 with a message).
func (c *Client) post(ctx context.Context, path string, req any) (*http.Response, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://factbot"+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Content-Type", "application/json")
	r, err := c.hc.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("admin socket %s: %w", c.path, err)
	}
	if r.StatusCode == http.StatusOK {
		return r, nil
	}
	defer r.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	var e apiError
	switch {
	case json.Unmarshal(data, &e) != nil || e.Error == "":
		// An older factbot serve lacks the route.
		return nil, fmt.Errorf("factbot serve: HTTP %d for %s (is the running factbot older than this one?)", r.StatusCode, path)
	case r.StatusCode == http.StatusNotFound:
		return nil, &remoteError{msg: e.Error, is: store.ErrNotFound}
	}
	return nil, &remoteError{msg: e.Error}
}

// remoteError is the server's error message; a 404 wraps store.ErrNotFound.
type remoteError struct {
	msg string
	is  error
}

func (e *remoteError) Error() string { return "factbot serve: " + e.msg }
func (e *remoteError) Unwrap() error { return e.is }
