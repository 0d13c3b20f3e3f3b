package textrank

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
)

// FileRanker is a Ranker whose texts' terms (what grows with the
// collection: about three bytes a term of a text) are kept in a
// temporary file rather than in memory, for collections as large as a
// knowledge store's claim or a team corpus. What stays in memory is each
// text's length and where its terms end in the file, and the
// vocabulary with each term's document frequency. Scores reads the file
// back in order, a buffer at a time (from the page cache, once it has
// been read or written: it is not the process's memory), and gives the
// same scores as a Ranker of the same texts, to the last bit.
//
// The file is made in the folder given to NewFileRanker (os.TempDir when
// empty), removed at once where the system allows an open file to be
// removed (so that nothing is left of it, even after a crash), else when
// the FileRanker is closed. Close must be called when the ranker is no
// longer used.
type FileRanker struct {
	rk      Ranker // terms holds what is not yet written to f
	f       *os.File
	name    string // the file's name, while it is still to be removed
	written int    // bytes of terms written to f

	mu     sync.RWMutex // Close waits for every Scores under way
	closed bool
}

// fileRankerChunk is how many bytes of terms are gathered before they are
// written out, and how many are read back at a time.
const fileRankerChunk = 256 << 10

// NewFileRanker makes an empty FileRanker, its file in dir (os.TempDir
// when empty).
func NewFileRanker(dir string) (*FileRanker, error) {
	f, err := os.CreateTemp(dir, "factbot-rank-*")
	if err != nil {
		return nil, fmt.Errorf("textrank: the ranker's file: %w", err)
	}
	fr := &FileRanker{f: f, name: f.Name()}
	if os.Remove(f.Name()) == nil {
		fr.name = ""
	}
	return fr, nil
}

// Add indexes one more text, the next number (Len before the call). A
// FileRanker is built by one goroutine; once built it is safe for
// concurrent scoring. An error is the file's: it cannot be written.
func (fr *FileRanker) Add(text string) error {
	if fr.closed {
		return errors.New("textrank: the ranker is closed")
	}
	fr.rk.add(text, fr.written)
	if len(fr.rk.terms) < fileRankerChunk {
		return nil
	}
	n, err := fr.f.Write(fr.rk.terms)
	if err != nil {
		return fmt.Errorf("textrank: writing the ranker's file: %w", err)
	}
	fr.written += n
	fr.rk.terms = fr.rk.terms[:0]
	return nil
}

// Len is how many texts fr holds.
func (fr *FileRanker) Len() int { return fr.rk.Len() }

// Scores sets out[i] (out as long as Len) to text i's BM25 score for q,
// 0 when it holds none of q's tokens, reading the texts' terms back in
// order. An error is the file's: it cannot be read, or fr is closed.
func (fr *FileRanker) Scores(q Query, out []float64) error {
	fr.mu.RLock()
	defer fr.mu.RUnlock()
	if fr.closed {
		return errors.New("textrank: the ranker is closed")
	}
	clear(out)
	qt, ok := fr.rk.prepare(q)
	if !ok {
		return nil
	}
	r := bufio.NewReaderSize(io.MultiReader(io.NewSectionReader(fr.f, 0, int64(fr.written)), bytes.NewReader(fr.rk.terms)), fileRankerChunk)
	var buf []byte
	prev := 0
	for i, end := range fr.rk.end {
		buf = slices.Grow(buf[:0], end-prev)[:end-prev]
		prev = end
		if _, err := io.ReadFull(r, buf); err != nil {
			return fmt.Errorf("textrank: reading the ranker's file: %w", err)
		}
		qt.count(buf)
		out[i], _ = fr.rk.sum(qt, i)
	}
	return nil
}

// Close closes the ranker's file and removes it if it is still there.
func (fr *FileRanker) Close() error {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.closed {
		return nil
	}
	fr.closed = true
	err := fr.f.Close()
	if fr.name != "" {
		err = errors.Join(err, os.Remove(fr.name))
	}
	fr.rk = Ranker{}
	if err != nil {
		return fmt.Errorf("textrank: closing the ranker's file: %w", err)
	}
	return nil
}
