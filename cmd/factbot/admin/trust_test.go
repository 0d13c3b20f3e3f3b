package admin_test

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/factbot-dev/factbot/cmd/factbot/admin"
)

// rogue serves, at the admin socket of the database at dbPath, a server
// that answers every command with success and nothing done, as another
// user's socket would, and counts the bytes it hears.
func rogue(t *testing.T, dbPath string) *atomic.Int32 {
	t.Helper()
	ln, err := net.Listen("unix", admin.SocketPath(dbPath))
	if err != nil {
		t.Fatal(err)
	}
	heard := new(atomic.Int32)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b, _ := io.ReadAll(io.LimitReader(c, 1<<20))
			heard.Add(int32(len(b)))
			io.WriteString(c, `{"exit": 0}`)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return heard
}

// The client refuses a socket that is not its own user's (nor root's):
// Forward fails naming the socket, and nothing is sent to it.
func TestClientRefusesForeignSocket(t *testing.T) {
	db := filepath.Join(t.TempDir(), "f.db")
	calls := rogue(t, db)
	// This test's user made the socket; the client is told its user is
	// another one.
	defer admin.SetTrustedUser(func(uid uint32) bool { return uid == 4242 })()

	code, err := forward(db)
	if err == nil {
		t.Fatalf("Forward trusted another user's socket (exit %d)", code)
	}
	sock := admin.SocketPath(db)
	if !errors.Is(err, admin.ErrUntrustedSocket) || errors.Is(err, admin.ErrNoServer) || !strings.Contains(err.Error(), sock) {
		t.Errorf("Forward = %v; want ErrUntrustedSocket naming %s", err, sock)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the foreign socket received %d calls", n)
	}
}

// As root, a socket file given to another user is refused by the owner
// check, and one owned by a trusted user but served by an untrusted one by
// the peer's credentials.
func TestClientChecksOwnerAndPeer(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give the socket to another user")
	}
	db := filepath.Join(t.TempDir(), "f.db")
	calls := rogue(t, db)
	sock := admin.SocketPath(db)
	if err := os.Lchown(sock, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := forward(db); !errors.Is(err, admin.ErrUntrustedSocket) || !strings.Contains(err.Error(), "belongs to user 65534") {
		t.Errorf("Forward to a socket owned by user 65534 = %v; want it refused for its owner", err)
	}
	// The file's owner is trusted now, but the server runs as root (this
	// test), whom this client is told not to trust.
	defer admin.SetTrustedUser(func(uid uint32) bool { return uid == 65534 })()
	if _, err := forward(db); !errors.Is(err, admin.ErrUntrustedSocket) || !strings.Contains(err.Error(), "served by user 0") {
		t.Errorf("Forward to a socket served by an untrusted user = %v; want it refused for its server", err)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the foreign socket received %d calls", n)
	}
}

// A file at the socket's path that is not a socket is refused too; a
// missing socket is ErrNoServer.
func TestClientNoSocket(t *testing.T) {
	db := filepath.Join(t.TempDir(), "f.db")
	if _, err := forward(db); !errors.Is(err, admin.ErrNoServer) {
		t.Errorf("Forward with no socket = %v, want ErrNoServer", err)
	}
	if err := os.Symlink("/etc/passwd", admin.SocketPath(db)); err != nil {
		t.Fatal(err)
	}
	if _, err := forward(db); !errors.Is(err, admin.ErrUntrustedSocket) {
		t.Errorf("Forward with a link at the socket's path = %v, want ErrUntrustedSocket", err)
	}
}

// serve does not start its admin socket in a folder other users can write
// to, and says how to fix it.
func TestStartRefusesSharedFolder(t *testing.T) {
	for _, mode := range []os.FileMode{0o777, 0o777 | os.ModeSticky, 0o775} {
		dir := t.TempDir()
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		dbPath := filepath.Join(dir, "f.db")
		stop, err := admin.Start(ctx, dbPath, nil)
		if err == nil {
			stop()
			t.Errorf("mode %v: the admin socket started in a folder others can write to", mode)
		} else if !strings.Contains(err.Error(), "chmod go-w "+dir) || !strings.Contains(err.Error(), "FACTBOT_DB") {
			t.Errorf("mode %v: %v; want how to fix it", mode, err)
		}
		if _, err := os.Lstat(admin.SocketPath(dbPath)); err == nil {
			t.Errorf("mode %v: a socket was made", mode)
		}
	}
}

// forward hands "backup" to the socket of the database at db.
func forward(db string) (int, error) {
	return admin.Forward(ctx, db, []string{"backup", "/tmp/copy.db"}, "/", nil, io.Discard, io.Discard)
}
