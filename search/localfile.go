package search

import (
	"bufio"
	"bytes"
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
	// A regular file is read into one buffer of its size: no copies while
	// the buffer grows.
	var buf bytes.Buffer
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() <= max {
			buf.Grow(int(st.Size()) + bytes.MinRead)
		}
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, max+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > max {
		return nil, fmt.Errorf("%w (over %d bytes)", errTooLarge, max)
	}
	return buf.Bytes(), nil
}

// openOwnFile opens a file this process wrote (an index) for reading:
// not through a link, only a regular file owned by this process's user.
func openOwnFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock|oNofollow, 0)
	if err != nil {
		return nil, err
	}
	info, err := checkRegular(f, path)
	if err == nil && !ownedByMe(info) {
		err = fmt.Errorf("%s belongs to another user", path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// writeFileAtomic replaces the file at path with what write writes,
// readable by its owner only: written to a new file in the same folder
// (through a buffer, as a stream) and renamed over path, so a reader
// never sees half a file and a link at path is replaced, never written
// through.
func writeFileAtomic(path string, write func(w io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp") // mode 0600
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, nothing is there
	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		tmp.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
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
