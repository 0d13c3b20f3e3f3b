package search

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// openIn counts the files this process has open in dir (its rankers'
// files, removed or not), from /proc/self/fd; the test is skipped where
// there is none.
func openIn(t *testing.T, dir string) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil || runtime.GOOS != "linux" {
		t.Skip("no /proc/self/fd to count open files")
	}
	n := 0
	for _, fd := range fds {
		if link, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(link, dir+string(filepath.Separator)) {
			n++
		}
	}
	return n
}

// A claim's ranker file is open while the claim is held or searched, and
// closed, with nothing left in its folder, once the last holder has
// released it and the last search of it is done; a claim loaded without
// Hold keeps its file until another claim is loaded.
func TestKnowledgeStoreRankerFileClosed(t *testing.T) {
	k, err := NewKnowledgeStore(filepath.Join("..", "eval", "testdata", "averitec_store"))
	if err != nil {
		t.Fatal(err)
	}
	k.tmp = t.TempDir()
	ctx := context.Background()
	var release, release2 func()
	var searching *claimDocs
	var steps []spillStep
	step := func(what string, open int, do func()) { steps = append(steps, spillStep{what, open, do}) }
	step("hold claim 0", 1, func() {
		if release, err = k.Hold("0"); err != nil {
			t.Fatal(err)
		}
	})
	step("hold it again", 1, func() {
		if release2, err = k.Hold("0"); err != nil {
			t.Fatal(err)
		}
	})
	step("a search", 1, func() {
		if _, err := k.Search(ctx, Query{Text: "library vote", Claim: "0"}); err != nil {
			t.Fatal(err)
		}
	})
	step("a search under way", 1, func() {
		if searching, err = k.docs("0"); err != nil {
			t.Fatal(err)
		}
	})
	step("one holder releases", 1, func() { release() })
	step("released twice", 1, func() { release() })
	step("the last holder releases", 1, func() { release2() })
	step("the search is done", 0, func() { searching.done() })
	step("claim 1 searched without Hold", 1, func() {
		if _, err := k.Search(ctx, Query{Text: "river", Claim: "1"}); err != nil {
			t.Fatal(err)
		}
	})
	step("claim 0 read without Hold", 1, func() {
		if _, err := k.ReadPage(ctx, PageRequest{URL: "https://council.example/minutes", Claim: "0"}); err != nil {
			t.Fatal(err)
		}
	})
	step("claim 0 held, from the last loaded", 1, func() {
		if release, err = k.Hold("0"); err != nil {
			t.Fatal(err)
		}
	})
	step("claim 1 held beside it", 2, func() {
		if release2, err = k.Hold("1"); err != nil {
			t.Fatal(err)
		}
	})
	step("both released", 0, func() { release(); release2() })
	runSpillSteps(t, k.tmp, steps)
}

// spillStep is a step of a test of the rankers' files, and how many are
// open after it.
type spillStep struct {
	what string
	open int
	do   func()
}

// runSpillSteps runs steps in turn, checking after each how many files
// are open in tmp, and at the end that nothing is left there.
func runSpillSteps(t *testing.T, tmp string, steps []spillStep) {
	t.Helper()
	for _, s := range steps {
		s.do()
		if got := openIn(t, tmp); got != s.open {
			t.Fatalf("after %s: %d temporary files open, want %d", s.what, got, s.open)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in the temporary files' folder: %v", left)
	}
}

// The corpus's ranker file and its file of texts are replaced when the
// folder changes: the earlier ones are closed once no search uses them,
// and nothing is left in their folder. No file's text stays in memory.
func TestCorpusRankerFileClosed(t *testing.T) {
	docs := t.TempDir()
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(docs, name), []byte("The harbour shipped grain in 1950.\nFishing boats left at dawn.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt")
	c, err := OpenCorpus(docs, CorpusOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c.tmp = t.TempDir()
	c.Refresh = time.Nanosecond // every search looks at the folder again
	ctx := context.Background()
	search := func() {
		if res, err := c.Search(ctx, Query{Text: "harbour grain"}); err != nil || len(res) == 0 {
			t.Fatalf("Search = %v, %v", res, err)
		}
	}
	var searching *claimDocs
	runSpillSteps(t, c.tmp, []spillStep{
		{"a file added and a search", 2, func() { write("b.txt"); search() }},
		{"a search under way", 2, func() {
			if searching, err = c.current(); err != nil {
				t.Fatal(err)
			}
		}},
		{"another file added and a search", 4, func() { write("c.txt"); search() }},
		{"the search under way done", 2, func() { searching.done() }},
		{"the folder unchanged", 2, search},
		{"a file removed", 2, func() { os.Remove(filepath.Join(docs, "a.txt")); search() }},
	})
	for path, f := range c.files {
		if f.Text != "" || f.src != c.docs.texts {
			t.Errorf("%s: its text in memory (%d bytes) or not in the current file of texts", path, len(f.Text))
		}
		p, err := (&CorpusReader{Corpus: c}).Read(ctx, fileURL(path).String())
		if err != nil || p.Text != "The harbour shipped grain in 1950.\nFishing boats left at dawn." {
			t.Errorf("Read(%s) = %+v, %v", path, p, err)
		}
	}
	// A ranker's file that cannot be made: the searches say so.
	c.tmp = filepath.Join(t.TempDir(), "missing")
	write("d.txt")
	if _, err := c.Search(ctx, Query{Text: "harbour grain"}); err == nil || !strings.Contains(err.Error(), "ranker's file") {
		t.Errorf("Search: %v; want the ranker's file's error", err)
	}
	c.tmp = t.TempDir() // and once it can, they find again
	search()
	if n := openIn(t, c.tmp); n != 2 {
		t.Errorf("%d temporary files open after the corpus found again, want 2", n)
	}
}

// A ranker's file that cannot be made is an error of Hold, of a search
// and of the corpus's searches, not a panic.
func TestRankerFileCannotBeMade(t *testing.T) {
	k, err := NewKnowledgeStore(filepath.Join("..", "eval", "testdata", "averitec_store"))
	if err != nil {
		t.Fatal(err)
	}
	k.tmp = filepath.Join(t.TempDir(), "missing")
	if _, err := k.Hold("0"); err == nil || !strings.Contains(err.Error(), "ranker's file") {
		t.Errorf("Hold: %v; want the ranker's file's error", err)
	}
	if _, err := k.Search(context.Background(), Query{Text: "library", Claim: "0"}); err == nil || !strings.Contains(err.Error(), "ranker's file") {
		t.Errorf("Search: %v; want the ranker's file's error", err)
	}
}
