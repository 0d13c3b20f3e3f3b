package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"time"

	"github.com/factbot-dev/factbot/cmd/factbot/admin"
	"github.com/factbot-dev/factbot/cmd/factbot/config"
)

// A bbolt file is held by one process at a time: the commands that hold it
// (serve, web, mcp) serve its admin socket (serveAdmin), and every command
// that opens the database (command.db) is handed to them there, whole, and
// run on their open database with their configuration (cmd/factbot/admin).
//
// forward runs the command c (args, its name first) in the factbot that
// serves the database's admin socket, when one does; ok is false when the
// command is to run here: it needs no database (help neither), the
// database is PostgreSQL (shared by every process), nothing serves the
// socket, or this process is the holder running a command handed to it.
func forward(ctx context.Context, a *app, c command, args []string) (code int, ok bool) {
	help := slices.ContainsFunc(args[1:], func(a string) bool { return a == "-h" || a == "-help" || a == "--help" })
	if !c.db || a.held != nil || help {
		return 0, false
	}
	cfg, err := a.config()
	if err != nil || isPostgres(cfg) {
		return 0, false
	}
	dir, _ := filepath.Abs(a.path("."))
	code, err = admin.Forward(ctx, cfg.DB, args, dir, a.stdin, a.stdout, a.stderr)
	switch {
	case errors.Is(err, admin.ErrNoServer):
		return 0, false
	case err != nil:
		return exitStatus(a.stderr, args[0], err), true
	}
	return code, true
}

// serveAdmin serves the admin socket of the bbolt file db, when this
// process holds one (serve, web, mcp), running there the commands handed
// over; the returned function stops it. A socket that cannot be started is
// logged: the other commands then need this one stopped.
func serveAdmin(ctx context.Context, a *app, cfg *config.Config, db backend, log *slog.Logger) (stop func()) {
	if _, ok := db.(*boltFile); !ok {
		return func() {} // PostgreSQL, or a database handed to a command here
	}
	run := func(ctx context.Context, args []string, dir string, stdin io.Reader, stdout, stderr io.Writer) int {
		start := time.Now()
		code := run(ctx, &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: a.getenv, dir: dir, held: db}, args)
		log.Info("admin command", "command", args[0], "exit", code, "took", time.Since(start).Round(time.Millisecond))
		return code
	}
	stop, err := admin.Start(ctx, cfg.DB, run)
	if err != nil {
		log.Warn(fmt.Sprintf("admin socket not started: other commands need factbot %s stopped", a.command), "err", err)
		return func() {}
	}
	return stop
}

// path is p in the command's working folder.
func (a *app) path(p string) string {
	if a.dir == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(a.dir, p)
}
