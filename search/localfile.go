package search

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// This file reads the local files the corpus and the knowledge store are
// given: only regular files, inside their folder, bounded in size as read.

// errTooLarge is returned by readBounded for a file over its bound.
var errTooLarge = errors.New("file too large")

// openRegularIn opens the file at rel inside root for reading. Links are
// followed only while they stay inside root (os.Root refuses the others),
// the file is opened without blocking (a FIFO with no writer cannot hang
// the open), and anything but a regular file (a device, a FIFO, a socket)
// is refused before a byte is read. The caller closes the file.
func openRegularIn(root *os.Root, rel string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := checkRegular(f, rel)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// checkRegular returns the opened file's information, or an error if it
// is not a regular file.
func checkRegular(f *os.File, name string) (fs.FileInfo, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%v)", name, info.Mode().Type())
	}
	return info, nil
}

// readBounded reads r to its end, or fails with errTooLarge past max
// bytes: the bound holds whatever size the file claims (a file of /proc
// says 0).
func readBounded(r io.Reader, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%w (over %d bytes)", errTooLarge, max)
	}
	return data, nil
}

// readOwnFile reads a file this process wrote (an index): not through a
// link, only a regular file owned by this process's user, at most max
// bytes.
func readOwnFile(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock|oNofollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := checkRegular(f, path)
	if err != nil {
		return nil, err
	}
	if !ownedByMe(info) {
		return nil, fmt.Errorf("%s belongs to another user", path)
	}
	return readBounded(f, max)
}

// writeFileAtomic replaces the file at path with data, readable by its
// owner only: written to a new file in the same folder and renamed over
// path, so a reader never sees half a file and a link at path is replaced,
// never written through.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp") // mode 0600
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, nothing is there
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
