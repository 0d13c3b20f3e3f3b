package admin

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Server serves the command channel of one database on its socket.
type Server struct {
	path     string
	ln       net.Listener
	run      Runner
	log      *slog.Logger
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	closeErr error
	once     sync.Once
}

// Start listens on the admin socket of the database at dbPath (see
// SocketPath) and runs each command it is handed with run, until ctx ends
// or Close is called. A stale socket file left by a crashed process is
// replaced; a socket another process answers on is an error, and so is a
// folder other users can write to (checkFolder): there, another user could
// put their own socket in its place. log (nil: discard) logs each command.
func Start(ctx context.Context, dbPath string, run Runner, log *slog.Logger) (*Server, error) {
	path := SocketPath(dbPath)
	if err := checkFolder(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("admin socket %s not started: %w", path, err)
	}
	ln, err := listen(path)
	if err != nil {
		return nil, fmt.Errorf("admin socket: %w", err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{path: path, ln: sameUser{ln}, run: run, log: log}
	s.ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	go s.accept()
	context.AfterFunc(ctx, func() { s.Close() })
	return s, nil
}

// Close stops the server: the commands running are cancelled and waited
// for, and the socket is removed.
func (s *Server) Close() error {
	s.once.Do(func() {
		s.closeErr = s.ln.Close()
		s.cancel()
		s.wg.Wait()
		os.Remove(s.path)
	})
	return s.closeErr
}

func (s *Server) accept() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return // closed
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer c.Close()
			s.serve(c)
		}()
	}
}

// serve runs the one command of connection c.
func (s *Server) serve(c net.Conn) {
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	r := bufio.NewReader(io.LimitReader(c, maxRequest))
	line, err := r.ReadBytes('\n')
	var req request
	if err == nil {
		err = json.Unmarshal(line, &req)
	}
	out := &frames{c: c, failed: cancel}
	if err != nil || len(req.Args) == 0 {
		fmt.Fprintf(out.stream(frameStderr), "factbot: the admin socket's request is not understood: %v\n", err)
		out.write(frameExit, []byte{2})
		return
	}
	// What the client sent past the request line, then the rest of its input.
	stdin := io.MultiReader(io.LimitReader(r, int64(r.Buffered())), c)
	go func() { // a client gone (an interrupt) is seen at the next ping: the command is cancelled
		t := time.NewTicker(pingEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				out.write(framePing, nil)
			}
		}
	}()
	start := time.Now()
	code := s.run(ctx, req.Args, req.Dir, stdin, out.stream(frameStdout), out.stream(frameStderr))
	s.log.Info("admin command", "command", req.Args[0], "exit", code, "took", time.Since(start).Round(time.Millisecond))
	out.write(frameExit, []byte{byte(code)})
}

// frames writes the framed output of one command; a write that fails (the
// client went away) cancels the command.
type frames struct {
	mu     sync.Mutex
	c      net.Conn
	err    error
	failed context.CancelFunc
}

func (f *frames) write(kind byte, p []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for first := true; f.err == nil && (first || len(p) > 0); first = false {
		n := min(len(p), maxFrame)
		var hdr [5]byte
		hdr[0] = kind
		binary.BigEndian.PutUint32(hdr[1:], uint32(n))
		if _, f.err = f.c.Write(append(hdr[:], p[:n]...)); f.err != nil {
			f.failed()
		}
		p = p[n:]
	}
	return f.err
}

// stream is the writer of one output stream.
func (f *frames) stream(kind byte) io.Writer { return streamWriter{f, kind} }

type streamWriter struct {
	f    *frames
	kind byte
}

func (w streamWriter) Write(p []byte) (int, error) {
	if err := w.f.write(w.kind, p); err != nil {
		return 0, err
	}
	return len(p), nil
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
