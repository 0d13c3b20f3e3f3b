// Package admin is the command channel of a bbolt database that a
// long-running factbot (serve, web, mcp) holds open: bbolt allows one
// process per file, so that process serves a unix socket next to the
// database (Start), and every other factbot command that needs the
// database hands it its arguments, working folder and standard input
// instead (Forward). The holder runs the same command on its open database
// and streams its output and exit status back. Nothing here knows a
// command: one added later works the same way.
//
// On one connection per command, the client sends a JSON line
// {"args": […], "dir": "/cwd"}, then its standard input until it closes
// its side; the server sends JSON values {"stdout": base64},
// {"stderr": base64} as the command writes, {} every second (a ping: a
// client gone is found, and the command cancelled), and last
// {"exit": status}.
//
// The socket has mode 0600, in a folder only its user can write; on Linux,
// connections from other users are refused, and a client talks only to a
// socket of its own user (or root).
package admin

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// SocketPath is the admin socket of the database at dbPath.
func SocketPath(dbPath string) string { return dbPath + ".admin.sock" }

// ErrNoServer is wrapped by Forward when nothing serves the database's
// admin socket: the command then opens the database itself.
var ErrNoServer = errors.New("no factbot serving the database's admin socket")

// ErrUntrustedSocket is wrapped by Forward when the admin socket was not
// made by a factbot of this user's (or root's): nothing is sent to it.
var ErrUntrustedSocket = errors.New("admin socket not trusted")

// Runner runs one factbot command, args (its name first), in the process
// that holds the database: dir is the caller's working folder (relative
// paths in args are the caller's), stdin its input; it returns the exit
// status.
type Runner func(ctx context.Context, args []string, dir string, stdin io.Reader, stdout, stderr io.Writer) int

// message is what goes over the socket: the client's request (Args, Dir),
// then the server's output, pings (empty) and exit status.
type message struct {
	Args   []string `json:"args,omitempty"`
	Dir    string   `json:"dir,omitempty"`
	Stdout []byte   `json:"stdout,omitempty"`
	Stderr []byte   `json:"stderr,omitempty"`
	Exit   *int     `json:"exit,omitempty"`
}

// trustedUser reports whether a file owned by uid, or a peer running as
// uid, is trusted: this process's user or root. Tests replace it.
var trustedUser = func(uid uint32) bool { return uid == 0 || uid == uint32(os.Getuid()) }

// Forward hands the command args (its name first) to the factbot serving
// the admin socket of the database at dbPath, with the caller's working
// folder dir and its standard input, copies the command's output to stdout
// and stderr as it comes, and returns its exit status. It wraps ErrNoServer
// when nothing serves the socket, and ErrUntrustedSocket when the socket
// is not to be trusted. Cancelling ctx (an interrupt) cancels the command.
func Forward(ctx context.Context, dbPath string, args []string, dir string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	path := SocketPath(dbPath)
	c, err := dialTrusted(ctx, path)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()
	go func() { // the request, the input as the command reads it, then the end of it
		if json.NewEncoder(c).Encode(message{Args: args, Dir: dir}) == nil && stdin != nil {
			io.Copy(c, stdin)
		}
		c.CloseWrite()
	}()
	// A request that cannot be sent shows in what is read: the server's
	// answer (one that refused it unread), or its end.
	dec := json.NewDecoder(c)
	for {
		var m message
		switch err := dec.Decode(&m); {
		case ctx.Err() != nil:
			return 0, ctx.Err()
		case errors.As(err, new(*json.SyntaxError)):
			return 0, fmt.Errorf("admin socket %s: the factbot serving it does not speak this version's command channel (an older factbot? restart it with this one)", path)
		case err != nil:
			return 0, fmt.Errorf("admin socket %s: the serving factbot stopped before the command ended: %w", path, err)
		}
		stdout.Write(m.Stdout)
		stderr.Write(m.Stderr)
		if m.Exit != nil {
			return *m.Exit, nil
		}
	}
}

// dialTrusted connects to the socket at path after checking who owns it,
// and checks who serves it once connected.
func dialTrusted(ctx context.Context, path string) (*net.UnixConn, error) {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%w at %s", ErrNoServer, path)
	case err != nil:
		return nil, fmt.Errorf("admin socket %s: %w", path, err)
	case info.Mode().Type() != fs.ModeSocket:
		return nil, untrusted(path, "is not a socket")
	}
	if uid := fileOwner(info); !trustedUser(uid) {
		return nil, untrusted(path, "belongs to user %d, not to you or root", uid)
	}
	c, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, "unix", path)
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %v", ErrNoServer, path, err)
	}
	uid, err := peerUID(c)
	if err == nil && trustedUser(uid) {
		return c.(*net.UnixConn), nil
	}
	c.Close()
	if err != nil {
		return nil, untrusted(path, "cannot say who serves it (%v)", err)
	}
	return nil, untrusted(path, "is served by user %d, not by you or root", uid)
}

// untrusted is the error for a socket the client will not talk to.
func untrusted(path, format string, args ...any) error {
	return fmt.Errorf("%w: %s %s: another user may have made it to receive what you send; "+
		"stop here, check who made it (ls -l), remove it, and keep the database in a folder only its user can write",
		ErrUntrustedSocket, path, fmt.Sprintf(format, args...))
}

// Start serves the admin socket of the database at dbPath, running each
// command it is handed with run (cancelled when ctx ends), until stop,
// which cancels the commands running, waits for them and removes the
// socket.
func Start(ctx context.Context, dbPath string, run Runner) (stop func(), err error) {
	path := SocketPath(dbPath)
	ln, err := listen(path)
	if err != nil {
		return nil, fmt.Errorf("admin socket %s not started: %w", path, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return // closed
			}
			wg.Go(func() { serve(ctx, c, run) })
		}
	})
	return func() {
		ln.Close()
		cancel()
		wg.Wait()
		os.Remove(path)
	}, nil
}

// serve runs the one command of connection c, when its peer is trusted,
// and closes c.
func serve(ctx context.Context, c net.Conn, run Runner) {
	defer c.Close()
	if uid, err := peerUID(c); err != nil || !trustedUser(uid) {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	enc := json.NewEncoder(c)
	send := func(m message) error { // one that cannot be sent (the client went away) cancels the command
		mu.Lock()
		defer mu.Unlock()
		err := enc.Encode(m)
		if err != nil {
			cancel()
		}
		return err
	}
	r := bufio.NewReaderSize(c, 1<<20) // the request line (a longer one is not understood), then the input
	line, err := r.ReadSlice('\n')
	var req message
	if err == nil {
		err = json.Unmarshal(line, &req)
	}
	if err != nil || len(req.Args) == 0 {
		send(message{Stderr: fmt.Appendf(nil, "factbot: the admin socket's request is not understood: %v\n", err), Exit: new(2)})
		return
	}
	go func() { // the pings, until the connection is closed
		for range time.Tick(time.Second) {
			if send(message{}) != nil {
				return
			}
		}
	}()
	stdout := writer(func(p []byte) error { return send(message{Stdout: p}) })
	stderr := writer(func(p []byte) error { return send(message{Stderr: p}) })
	code := run(ctx, req.Args, req.Dir, r, stdout, stderr)
	send(message{Exit: &code})
}

// writer is an output stream of a command, sent as messages.
type writer func(p []byte) error

func (w writer) Write(p []byte) (int, error) {
	if err := w(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// listen creates the socket at path, refusing a folder other users can
// write to (checkFolder) and a socket another process answers on. The
// socket is made with mode 0600 in a private folder, then moved into place
// (over a stale one a crashed process left): it is never reachable with
// wider permissions.
func listen(path string) (net.Listener, error) {
	if err := checkFolder(filepath.Dir(path)); err != nil {
		return nil, err
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return nil, fmt.Errorf("%s is in use by another process", path)
	}
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
	if err = os.Chmod(tmp, 0o600); err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
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
	if uid := fileOwner(info); !trustedUser(uid) {
		return fmt.Errorf("the folder %s belongs to user %d, who could replace the socket; "+
			"set FACTBOT_DB to a file in a folder of the bot's own user", dir, uid)
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("the folder %s can be written by other users (mode %v), who could put their own socket in its place; "+
			"run chmod go-w %s, or set FACTBOT_DB to a file in a folder only the bot's user can write", dir, perm, dir)
	}
	return nil
}
