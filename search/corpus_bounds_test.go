package search

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// openCorpusWithin opens the corpus, failing the test if that takes longer
// than a generous deadline (a FIFO once hung it for good).
func openCorpusWithin(t *testing.T, dir string, opts CorpusOptions) *Corpus {
	t.Helper()
	type opened struct {
		c   *Corpus
		err error
	}
	done := make(chan opened, 1)
	go func() {
		c, err := OpenCorpus(dir, opts)
		done <- opened{c, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		return o.c
	case <-time.After(20 * time.Second):
		t.Fatal("OpenCorpus hung")
	}
	return nil
}

// listDir is the names in dir, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// The corpus reads only regular files inside its folder, each bounded as
// read: a link to the process's environment, to /dev/zero or to a folder
// outside, a FIFO and a file over the size cap are left out, and opening
// the corpus neither hangs nor reads without end.
func TestCorpusReadsOnlyItsFolder(t *testing.T) {
	const secret = "sekrit-4b1d-token"
	t.Setenv("FACTBOT_CORPUS_TEST_SECRET", secret) // in /proc/self/environ
	dir, outside := t.TempDir(), t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "policy.md"), "# Travel policy\n\nStaff may book economy class for flights under six hours.\n")
	write(filepath.Join(outside, "secret.md"), "The outside secret is "+secret+".\n")
	link("/proc/self/environ", "env.txt")
	link("/dev/zero", "zero.txt")
	link(filepath.Join(outside, "secret.md"), "secret.md")
	link(outside, "linked")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A link inside the folder to a file over the cap: the cap holds for
	// the file read, not the link's own size.
	if err := os.Mkdir(filepath.Join(dir, ".data"), 0o755); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(dir, ".data", "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	big.WriteString("enormous ledger of " + secret + " ")
	big.Truncate(corpusMaxFile + 8<<20) // sparse
	big.Close()
	link(".data/big.txt", "big.txt")
	// A link inside the folder to a FIFO there: opened without blocking,
	// then refused.
	if err := syscall.Mkfifo(filepath.Join(dir, ".data", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	link(".data/fifo", "fifo-link.txt")
	// A link that stays inside is followed.
	link("policy.md", "policy-link.md")

	index := filepath.Join(t.TempDir(), "index.json")
	c := openCorpusWithin(t, dir, CorpusOptions{Index: index})

	var got []string
	for p := range c.files {
		got = append(got, filepath.Base(p))
	}
	slices.Sort(got)
	if want := []string{"policy-link.md", "policy.md"}; !slices.Equal(got, want) {
		t.Errorf("indexed %v, want %v", got, want)
	}
	for _, q := range []string{secret, "FACTBOT_CORPUS_TEST_SECRET", "enormous ledger", "outside secret"} {
		if res, err := c.Search(context.Background(), Query{Text: q, Max: 10}); err != nil || len(res) != 0 {
			t.Errorf("Search(%q) = %+v, %v; want nothing", q, res, err)
		}
	}
	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secret) || strings.Contains(string(data), "FACTBOT_CORPUS_TEST_SECRET") {
		t.Error("the index holds text from outside the folder")
	}
	if res, err := c.Search(context.Background(), Query{Text: "economy class flights", Max: 5}); err != nil || len(res) == 0 {
		t.Errorf("the folder's own file is not found: %+v, %v", res, err)
	}
}

// The index is kept outside the folder, mode 0600, and replaces a link at
// its path rather than writing through it; the folder is never written to.
func TestCorpusIndexOutsideFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "private.md"), []byte("# Salaries\n\nThe director earns 120000 euros.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := listDir(t, dir)
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	index := filepath.Join(cache, "index.json")
	if err := os.Symlink(victim, index); err != nil {
		t.Fatal(err)
	}
	c := openCorpusWithin(t, dir, CorpusOptions{Index: index})
	if err := c.IndexErr(); err != nil {
		t.Fatalf("index not saved: %v", err)
	}
	if got := listDir(t, dir); !slices.Equal(got, before) {
		t.Errorf("the folder holds %v after indexing, want %v as before", got, before)
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep me" {
		t.Errorf("the index was written through a link: the link's target holds %q", data)
	}
	info, err := os.Lstat(index)
	if err != nil {
		t.Fatal(err)
	}
	if !info.Mode().IsRegular() || info.Mode().Perm() != 0o600 {
		t.Errorf("index mode %v, want a regular file with mode 0600", info.Mode())
	}
	if got := listDir(t, cache); !slices.Equal(got, []string{"index.json"}) {
		t.Errorf("the index's folder holds %v; want the index alone (no temporary file left)", got)
	}

	// An index asked for inside the folder is kept in memory instead.
	c = openCorpusWithin(t, dir, CorpusOptions{Index: filepath.Join(dir, ".factbot-index.json")})
	if got := listDir(t, dir); !slices.Equal(got, before) {
		t.Errorf("an index inside the folder was written: %v", got)
	}
	if res, _ := c.Search(context.Background(), Query{Text: "director salary euros", Max: 5}); len(res) == 0 {
		t.Error("the in-memory corpus finds nothing")
	}
}

// A read-only folder, or an index that cannot be written, never stops the
// corpus from opening: the index is kept in memory.
func TestCorpusReadOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# Notes\n\nThe river Thames flows through London.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c := openCorpusWithin(t, dir, CorpusOptions{Index: filepath.Join(blocker, "index.json")}) // under a file: cannot be written
	if c.IndexErr() == nil {
		t.Error("IndexErr = nil for an index that cannot be written")
	}
	if res, err := c.Search(context.Background(), Query{Text: "Thames London", Max: 5}); err != nil || len(res) == 0 {
		t.Errorf("Search = %+v, %v; want the notes", res, err)
	}
	if got := listDir(t, dir); !slices.Equal(got, []string{"notes.md"}) {
		t.Errorf("the folder holds %v", got)
	}
}

// An index file another user owns is not trusted: the folder is read
// again.
func TestCorpusIgnoresForeignIndex(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give the index to another user")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# Notes\n\nThe river Thames flows through London.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(filepath.Join(dir, "notes.md"))
	forged := map[string]*corpusFile{filepath.Join(dir, "notes.md"): {ModTime: info.ModTime(), Size: info.Size(), Title: "Forged", Text: "The river Thames is poisoned with forged text."}}
	data, _ := json.Marshal(forged)
	index := filepath.Join(t.TempDir(), "index.json")
	if err := os.WriteFile(index, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(index, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	c := openCorpusWithin(t, dir, CorpusOptions{Index: index})
	if res, _ := c.Search(context.Background(), Query{Text: "forged poisoned", Max: 5}); len(res) != 0 {
		t.Errorf("another user's index was read: %+v", res)
	}
}

// readBounded stops at its bound on a file that never ends.
func TestReadBounded(t *testing.T) {
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if _, err := readBounded(f, 1<<20); !errors.Is(err, errTooLarge) {
		t.Errorf("readBounded(/dev/zero) = %v, want errTooLarge", err)
	}
	if data, err := readBounded(strings.NewReader("short"), 5); err != nil || string(data) != "short" {
		t.Errorf("readBounded(5 bytes, 5) = %q, %v", data, err)
	}
}
