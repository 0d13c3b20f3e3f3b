package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// ErrNoBackup is returned by BackupFile of a database that is not a bbolt
// file (PostgreSQL is backed up with pg_dump).
var ErrNoBackup = errors.New("backup: the database is not a bbolt file; back PostgreSQL up with pg_dump, e.g. pg_dump -Fc -f factbot.dump \"$FACTBOT_DB\"")

// BackupFile writes a consistent copy of the whole database to path from a
// read transaction, so it may run while the bot writes, and returns the
// bytes written. The copy goes through a temporary file in the same
// directory that is synced and renamed into place. It refuses to
// overwrite an existing file.
func (db *DB) BackupFile(ctx context.Context, path string) (int64, error) {
	bd, ok := db.drv.(*boltDriver)
	if !ok {
		return 0, ErrNoBackup
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if _, err := os.Lstat(path); err == nil {
		return 0, fmt.Errorf("backup: %s already exists; choose a new file name", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".factbot-backup-*")
	if err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after the rename
	var n int64
	err = bd.db.View(func(tx *bolt.Tx) (err error) {
		n, err = tx.WriteTo(f)
		return err
	})
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o600)
	}
	if err == nil {
		// Link fails if path appeared meanwhile, unlike Rename.
		err = os.Link(tmp, path)
	}
	if err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	return n, nil
}
