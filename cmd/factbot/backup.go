package main

import (
	"context"
	"fmt"
	"path/filepath"
)

func init() {
	register("backup", command{
		summary: "copy the database consistently, even while the bot runs: factbot backup FILE",
		run:     runBackup,
	})
}

func runBackup(ctx context.Context, a *app, args []string) int {
	fs, _ := newStoreFlags(a, "backup", "factbot backup FILE\n\nWrites a consistent copy of FACTBOT_DB to FILE (which must not exist) from one read transaction.")
	pos, code, ok := parseStoreFlags(a, fs, args, 1)
	if !ok {
		return code
	}
	src, _ := filepath.Abs(dbPath(a))
	dst, _ := filepath.Abs(pos[0])
	if src == dst {
		fmt.Fprintf(a.stderr, "factbot backup: %s is the database itself; choose another file\n", pos[0])
		return exitUsage
	}
	db, err := openExistingStore(a)
	if err != nil {
		return storeFailed(a, err)
	}
	defer db.Close()
	n, err := db.BackupFile(ctx, pos[0])
	if err != nil {
		return storeFailed(a, err)
	}
	fmt.Fprintf(a.stdout, "Backed up %s to %s (%d bytes).\n", dbPath(a), pos[0], n)
	return exitOK
}
