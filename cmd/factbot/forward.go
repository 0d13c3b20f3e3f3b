package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/factbot-dev/factbot/cmd/factbot/admin"
	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/store"
)

// A bbolt file is held by one process at a time. The long-running commands
// that hold it (serve, web, mcp) serve its admin socket (serveAdmin), and
// every command that opens the database (command.db) is handed over to
// them there, whole: its arguments, working folder and standard input go
// to the holder, which runs the same command on its open database, with
// its own configuration, and streams the output and exit status back
// (cmd/factbot/admin). So every command, and any added later, works
// beside a running bot, which stays the file's one writer.

// forward runs the command c (args, its name first) in the factbot that
// serves the database's admin socket, when one does; ok is false when the
// command is to run here: it needs no database, the database is
// PostgreSQL (shared by every process), nothing serves the socket, or this
// process is the holder running a command handed to it.
func forward(ctx context.Context, a *app, c command, args []string) (code int, ok bool) {
	if !c.db || a.held != nil || isHelp(args[1:]) {
		return 0, false
	}
	cfg, err := a.config()
	if err != nil || isPostgres(cfg) {
		return 0, false
	}
	dir := a.dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	code, err = admin.Forward(ctx, cfg.DB, args, dir, a.stdin, a.stdout, a.stderr)
	switch {
	case errors.Is(err, admin.ErrNoServer):
		return 0, false
	case err != nil:
		return exitStatus(a.stderr, args[0], err), true
	}
	return code, true
}

// isHelp reports whether args ask for a command's help, which needs no
// database.
func isHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// serveAdmin serves the admin socket of the bbolt file db, when this
// process holds one (serve, web, mcp), running there the commands handed
// over; the returned function stops it. A socket that cannot be started is
// logged: the other commands then need this one stopped.
func serveAdmin(ctx context.Context, a *app, cfg *config.Config, db backend, log *slog.Logger) (stop func()) {
	if _, ok := db.(*store.DB); !ok {
		return func() {} // PostgreSQL, or a database handed to a command here
	}
	run := func(ctx context.Context, args []string, dir string, stdin io.Reader, stdout, stderr io.Writer) int {
		return run(ctx, &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: a.getenv, dir: dir, held: db}, args)
	}
	srv, err := admin.Start(ctx, cfg.DB, run, log)
	if err != nil {
		log.Warn(fmt.Sprintf("admin socket not started: other commands need factbot %s stopped", a.command), "err", err)
		return func() {}
	}
	return func() { srv.Close() }
}

// path is p in the command's working folder.
func (a *app) path(p string) string {
	if a.dir == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(a.dir, p)
}
