package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
)

func runBackup(ctx context.Context, a *app, args []string) error {
	fs, _ := newStoreFlags(a, "backup", "factbot backup FILE\n\nWrites a consistent copy of FACTBOT_DB to FILE (which must not exist) from one read transaction.")
	pos, err := parseStoreFlags(a, fs, args, 1)
	if err != nil {
		return err
	}
	cfg, err := a.config()
	if err != nil {
		return err
	}
	if isPostgres(cfg) {
		return &usererr.Config{Var: "FACTBOT_DB", Msg: "is a PostgreSQL database; factbot backup copies a bbolt file",
			Hint: "back PostgreSQL up with its own tools: pg_dump -Fc -f factbot.dump \"$FACTBOT_DB\"", Err: store.ErrNoBackup}
	}
	src, _ := filepath.Abs(cfg.DB)
	dst, _ := filepath.Abs(a.path(pos[0]))
	if src == dst {
		return usagef("%s is the database itself; choose another file", pos[0])
	}
	db, err := openData(ctx, a, true)
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := db.BackupFile(ctx, dst)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "Backed up %s to %s (%d bytes).\n", cfg.DB, pos[0], n)
	return nil
}
