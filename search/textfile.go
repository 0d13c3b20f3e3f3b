package search

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// textFile is a temporary file of texts written one after another and
// read back by where they are: the corpus keeps its files' extracted texts
// there rather than in memory. It is made in a folder (os.TempDir when
// empty) and removed at once where the system allows an open file to be
// removed (so that nothing is left of it, even after a crash), else when
// it is closed.
type textFile struct {
	f    *os.File
	name string // the file's name, while it is still to be removed
	size int64
}

// newTextFile makes an empty textFile in dir.
func newTextFile(dir string) (*textFile, error) {
	f, err := os.CreateTemp(dir, "factbot-texts-*")
	if err != nil {
		return nil, fmt.Errorf("the texts' file: %w", err)
	}
	t := &textFile{f: f, name: f.Name()}
	if os.Remove(f.Name()) == nil {
		t.name = ""
	}
	return t, nil
}

// add writes s at the end of the file and returns where it is.
func (t *textFile) add(s string) (at int64, err error) {
	n, err := t.f.WriteString(s)
	at, t.size = t.size, t.size+int64(n)
	if err != nil {
		return 0, fmt.Errorf("writing the texts' file: %w", err)
	}
	return at, nil
}

// read returns the n bytes at at, read into the string itself (no copy
// of a text as large as a corpus file is made besides).
func (t *textFile) read(at, n int64) (string, error) {
	var b strings.Builder
	b.Grow(int(n))
	if _, err := io.Copy(&b, io.NewSectionReader(t.f, at, n)); err != nil {
		return "", fmt.Errorf("reading the texts' file: %w", err)
	}
	if int64(b.Len()) != n {
		return "", fmt.Errorf("reading the texts' file: %w", io.ErrUnexpectedEOF)
	}
	return b.String(), nil
}

// close closes the file and removes it if it is still there.
func (t *textFile) close() error {
	err := t.f.Close()
	if t.name != "" {
		err = errors.Join(err, os.Remove(t.name))
		t.name = ""
	}
	if err != nil && !errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("closing the texts' file: %w", err)
	}
	return nil
}
