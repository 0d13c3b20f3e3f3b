package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// compactTxSize bounds the writes of one transaction of CompactFile.
const compactTxSize = 64 << 20

// CompactFile rewrites the bbolt file at path into a new file that holds
// only its live records, and renames it over the old one (atomically, in
// the same directory, with the old file's mode). The free pages, where
// deleted and replaced records linger, are gone: after 'factbot
// rotate-key', no token sealed with the retired key stays in the file. It
// works on the file alone, with bbolt's Compact, and holds the file's lock
// meanwhile; a file in use by another process is ErrLocked. It returns the
// sizes before and after.
func CompactFile(path string) (before, after int64, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, 0, fmt.Errorf("compact %s: %w", path, err)
	}
	src, err := openBoltDriver(path, DefaultTimeout)
	if err != nil {
		return 0, 0, err
	}
	defer src.Close() // after the rename: no one writes the old file meanwhile
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".compact-*")
	if err != nil {
		return 0, 0, fmt.Errorf("compact %s: %w", path, err)
	}
	tmpPath := tmp.Name()
	tmp.Close()
	defer os.Remove(tmpPath) // after a failure; a no-op once renamed
	if err := compactInto(src.db, tmpPath, fi.Mode().Perm()); err != nil {
		return 0, 0, fmt.Errorf("compact %s: %w", path, err)
	}
	if err := os.Rename(tmpPath, path); err != nil {
		return 0, 0, fmt.Errorf("compact %s: %w", path, err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // the rename survives a crash
		d.Close()
	}
	nfi, err := os.Stat(path)
	if err != nil {
		return 0, 0, err
	}
	return fi.Size(), nfi.Size(), nil
}

// compactInto writes src's live records into a new bbolt file at dst,
// synced to disk.
func compactInto(src *bolt.DB, dst string, mode os.FileMode) error {
	if err := os.Chmod(dst, mode); err != nil {
		return err
	}
	out, err := bolt.Open(dst, mode, &bolt.Options{Timeout: DefaultTimeout, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return err
	}
	err = bolt.Compact(out, src, compactTxSize)
	if err == nil {
		err = out.Sync()
	}
	return errors.Join(err, out.Close())
}
