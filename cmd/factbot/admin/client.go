package admin

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"time"
)

// Forward hands the command args (its name first) to the factbot serving
// the admin socket of the database at dbPath, with the caller's working
// folder dir and its standard input, copies the command's output to stdout
// and stderr as it comes, and returns its exit status. It wraps ErrNoServer
// when nothing serves the socket (the caller then opens the database
// itself), and ErrUntrustedSocket when the socket is not to be trusted.
// Cancelling ctx (an interrupt) cancels the command there.
func Forward(ctx context.Context, dbPath string, args []string, dir string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	path := SocketPath(dbPath)
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	c, err := dialTrusted(dctx, path)
	cancel()
	if err != nil {
		return 0, err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	req, err := json.Marshal(request{Args: args, Dir: dir})
	if err != nil {
		return 0, err
	}
	if _, err := c.Write(append(req, '\n')); err != nil {
		return 0, fmt.Errorf("admin socket %s: %w", path, err)
	}
	go func() { // the input, as the command reads it; then the end of it
		if stdin != nil {
			io.Copy(c, stdin)
		}
		if uc, ok := c.(*net.UnixConn); ok {
			uc.CloseWrite()
		}
	}()
	for {
		var hdr [5]byte
		if _, err := io.ReadFull(c, hdr[:]); err != nil {
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			return 0, fmt.Errorf("admin socket %s: the serving factbot stopped before the command ended: %w", path, err)
		}
		n := binary.BigEndian.Uint32(hdr[1:])
		if hdr[0] > framePing || n > maxFrame {
			return 0, fmt.Errorf("admin socket %s: the factbot serving it does not speak this version's command channel (an older factbot? restart it with this one)", path)
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(c, buf); err != nil {
			return 0, fmt.Errorf("admin socket %s: %w", path, err)
		}
		switch hdr[0] {
		case frameExit:
			if len(buf) != 1 {
				return 0, fmt.Errorf("admin socket %s: a bad exit frame", path)
			}
			return int(buf[0]), nil
		case frameStdout:
			stdout.Write(buf)
		case frameStderr:
			stderr.Write(buf)
		}
	}
}

// dialTimeout bounds connecting to the socket.
const dialTimeout = 5 * time.Second

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
