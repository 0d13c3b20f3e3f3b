// Package admin is the command channel of a bbolt database that a
// long-running factbot (serve, web, mcp) holds open: bbolt allows one
// process per file, so that process listens on a unix socket next to the
// database (SocketPath), and every other factbot command that needs the
// database hands it its argument list and standard input instead (Forward).
// The holder runs the same command on its open database and streams the
// command's output and exit status back. Nothing here knows a command: a
// command added later works the same way.
//
// The protocol, on one connection per command:
//
//	client → server: {"args": […], "dir": "/cwd"}\n, then standard input until the client closes its side
//	server → client: frames of one kind byte (1 stdout, 2 stderr, 3 ping, 0 exit), a 4-byte big-endian
//	                 length and that many bytes; the exit frame's one byte is the exit status, and ends the
//	                 stream; a ping (empty, every second) finds a client gone, and the command is cancelled
//
// The socket is created with mode 0600 in a folder only its user can
// write; on Linux, connections from other users are refused, and a client
// talks only to a socket of its own user (or root).
package admin

import (
	"context"
	"errors"
	"io"
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

// request is what a client sends first.
type request struct {
	Args []string `json:"args"`
	Dir  string   `json:"dir"`
}

// Frame kinds, server to client.
const (
	frameExit   byte = 0
	frameStdout byte = 1
	frameStderr byte = 2
	framePing   byte = 3
)

// pingEvery is how often a running command's client is pinged.
const pingEvery = time.Second

// Bounds.
const (
	maxRequest = 1 << 20 // the request line
	maxFrame   = 1 << 20 // one frame's payload
)
