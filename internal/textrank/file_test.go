package textrank

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// zipfTexts are n texts of words drawn from a vocabulary of 3,000 (Zipf),
// the same for the same n.
func zipfTexts(n int) []string {
	rng := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(rng, 1.1, 2, 3000)
	texts := make([]string, n)
	for i := range texts {
		var b strings.Builder
		for range 5 + rng.IntN(60) {
			fmt.Fprintf(&b, "w%d ", z.Uint64())
		}
		texts[i] = b.String()
	}
	return texts
}

// A FileRanker scores as a Ranker of the same texts, to the last bit,
// whether a text's terms were written to its file (more than one chunk
// of them) or are still in memory, for queries of common, rare, missing
// and repeated words.
func TestFileRankerSameScores(t *testing.T) {
	texts := zipfTexts(12000)
	rk := NewRanker(texts)
	fr, err := NewFileRanker(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	for _, s := range texts {
		if err := fr.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	if fr.written < 2*fileRankerChunk || len(fr.rk.terms) == 0 {
		t.Fatalf("%d bytes written and %d kept: the test wants both, over two chunks written", fr.written, len(fr.rk.terms))
	}
	if fr.Len() != len(texts) {
		t.Fatalf("Len = %d, want %d", fr.Len(), len(texts))
	}
	for _, q := range []Query{NewQuery("w2 w3"), NewQuery("w2900 w17 w450"), NewQuery("nowhere"), {"w5", "w5", "w40"}, NewQuery("w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18")} {
		want := make([]float64, len(texts))
		for i := range texts {
			want[i] = rk.Score(q, i)
		}
		got := make([]float64, len(texts))
		for i := range got {
			got[i] = -1 // every score is set, zeros included
		}
		if err := fr.Scores(q, got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Scores(%q) (-Ranker +FileRanker):\n%s", q, diff)
		}
	}
}

// Close closes the ranker's file, and nothing of it is left in its
// folder; a closed ranker's Add and Scores are errors.
func TestFileRankerClose(t *testing.T) {
	dir := t.TempDir()
	fr, err := NewFileRanker(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range zipfTexts(3000) {
		if err := fr.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := fr.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := fr.f.Stat(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("the file after Close: %v; want it closed", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left in the folder after Close: %v", left)
	}
	if err := fr.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if err := fr.Add("more text"); err == nil {
		t.Error("Add after Close: no error")
	}
	if err := fr.Scores(NewQuery("w2"), make([]float64, 3000)); err == nil {
		t.Error("Scores after Close: no error")
	}
}

// A file that cannot be written or read is an error, not a panic nor a
// wrong score; so is a folder where no file can be made.
func TestFileRankerFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := NewFileRanker(filepath.Join(dir, "missing")); err == nil {
		t.Error("NewFileRanker in a missing folder: no error")
	}
	fr, err := NewFileRanker(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	// The ranker's file swapped for one opened for reading only: writes fail.
	ro, err := os.Create(filepath.Join(dir, "ro"))
	if err != nil {
		t.Fatal(err)
	}
	ro.Close()
	if ro, err = os.Open(filepath.Join(dir, "ro")); err != nil {
		t.Fatal(err)
	}
	fr.f.Close()
	fr.f = ro
	var addErr error
	for _, s := range zipfTexts(6000) {
		if addErr = fr.Add(s); addErr != nil {
			break
		}
	}
	if addErr == nil || !strings.Contains(addErr.Error(), "writing the ranker's file") {
		t.Errorf("Add on a file that cannot be written: %v; want the write's error", addErr)
	}
	// Terms said to be written that the file has not got: reads fail.
	fr.written = 1 << 20
	fr.rk.end[len(fr.rk.end)-1] = fr.written + len(fr.rk.terms)
	if err := fr.Scores(NewQuery("w2 w3"), make([]float64, fr.Len())); err == nil || !strings.Contains(err.Error(), "reading the ranker's file") {
		t.Errorf("Scores on a short file: %v; want the read's error", err)
	}
}
