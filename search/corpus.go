package search

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Corpus is a folder of a team's own documents (HTML, PDF, Markdown and
// text files) searched like the web (FACTBOT_CORPUS, and "corpus" in
// FACTBOT_SEARCH). The text of each file is extracted once into an index
// and kept current: at most every Refresh the folder is walked again, and
// files added, changed (size or modification time) or removed are indexed
// or dropped. Search ranks passages as the knowledge store does
// (internal/textrank: Unicode sentences and tokens, BM25); a document's
// URL is its file:// URL, which the corpus reader (CorpusReader) serves.
//
// Only regular files inside the folder are read: a link is followed only
// while it stays inside, a device, FIFO or socket is never opened for
// reading, and a file is read up to corpusMaxFile bytes, however large it
// says it is. The folder is never written to: the index is kept in a file
// elsewhere (CorpusOptions.Index), mode 0600, or only in memory.
type Corpus struct {
	dir   string
	index string // the index file; "" for memory only
	tmp   string // where the temporary files (the ranker's, the texts') are made; "" for os.TempDir
	// Refresh is how often the folder is checked for changes (default
	// one minute).
	Refresh time.Duration

	mu       sync.Mutex
	files    map[string]*corpusFile // by absolute path
	docs     *claimDocs             // one reference (claimDocs.use)
	docsErr  error                  // why the passages were last not rebuilt
	incoming *textFile              // texts read or extracted since the last rebuild
	checked  time.Time
	indexErr error // why the index was last not saved
}

// corpusMaxFile bounds a file that is indexed.
const corpusMaxFile = 32 << 20

// corpusMaxIndex bounds the index file that is read back.
const corpusMaxIndex = 1 << 30

// corpusFile is one indexed file, as kept in the index. Its text is kept
// in memory (Text) only while it is read or written: else it is in a
// temporary file of texts (src), n bytes at at.
type corpusFile struct {
	ModTime   time.Time `json:"mod_time"`
	Size      int64     `json:"size"`
	Title     string    `json:"title"`
	Published string    `json:"published,omitempty"`
	Text      string    `json:"text"`

	src   *textFile
	at, n int64
}

// text returns f's text, read back from its file of texts.
func (f *corpusFile) text() (string, error) {
	if f.src == nil {
		return f.Text, nil
	}
	return f.src.read(f.at, f.n)
}

// park moves f's text out of memory into c.incoming (c.mu held, or the
// corpus not yet shared). A file of texts that cannot be made or written
// leaves the text in memory: the rebuild that follows says why.
func (c *Corpus) park(f *corpusFile) {
	if f.src != nil {
		return
	}
	if c.incoming == nil {
		t, err := newTextFile(c.tmp)
		if err != nil {
			return
		}
		c.incoming = t
	}
	at, err := c.incoming.add(f.Text)
	if err != nil {
		return
	}
	f.src, f.at, f.n, f.Text = c.incoming, at, int64(len(f.Text)), ""
}

// CorpusOptions configures OpenCorpus.
type CorpusOptions struct {
	// Index is the file the index is kept in between runs, outside the
	// folder (factbot serve keeps it beside its database, the other
	// commands in the user's cache folder: DefaultCorpusIndex). Empty:
	// the index is kept in memory only and every file is read again at
	// the next start. An index that cannot be written is kept in memory
	// too (IndexErr says why).
	Index string
}

// DefaultCorpusIndex is the index file of the corpus in dir in the user's
// cache folder (…/factbot/corpus-<hash of the folder>.json), or "" when
// there is no cache folder.
func DefaultCorpusIndex(dir string) string {
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(cache, "factbot", "corpus-"+hex.EncodeToString(sum[:8])+".json")
}

// OpenCorpus opens the corpus in dir: its index is read and brought up to
// date. Only a dir that is not a folder is an error: one that cannot be
// read, or an index that cannot be written, leaves a corpus that finds
// what it could read.
func OpenCorpus(dir string, opts CorpusOptions) (*Corpus, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("corpus: %s is not a folder", dir)
	}
	c := &Corpus{dir: abs, index: opts.Index, files: map[string]*corpusFile{}}
	if c.index != "" {
		if idx, err := filepath.Abs(c.index); err == nil && !insideDir(abs, idx) {
			c.index = idx
		} else {
			c.index = "" // never inside the folder
		}
	}
	if c.index != "" {
		if err := c.load(); err != nil {
			c.files = map[string]*corpusFile{} // a bad index is rebuilt
		}
	}
	c.update()
	return c, nil
}

// insideDir reports whether path is dir or under it.
func insideDir(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// IndexErr says why the index was last not saved to its file (nil when it
// was, or there is no file).
func (c *Corpus) IndexErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.indexErr
}

// Name returns "corpus".
func (c *Corpus) Name() string { return "corpus" }

// corpusKinds are the files indexed, by extension.
var corpusKinds = map[string]string{".html": "html", ".htm": "html", ".pdf": "pdf", ".md": "text", ".markdown": "text", ".txt": "text"}

// update walks the folder, re-indexes what changed, saves the index when
// anything did, and rebuilds the passages. The walk stays in the folder
// (os.Root): linked folders are not entered, and a linked file is read
// only if it is inside. A folder that cannot be read leaves the index as
// it is.
func (c *Corpus) update() {
	c.checked = time.Now()
	root, err := os.OpenRoot(c.dir)
	if err != nil {
		if c.docs == nil {
			c.rebuild()
		}
		return
	}
	defer root.Close()
	seen := map[string]bool{}
	changed := false
	fs.WalkDir(root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && rel != "." {
				return fs.SkipDir
			}
			return nil // an unreadable file or folder is left out
		}
		if d.IsDir() {
			if rel != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		kind, ok := corpusKinds[strings.ToLower(filepath.Ext(rel))]
		if !ok || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		if t := d.Type(); !t.IsRegular() && t&fs.ModeSymlink == 0 {
			return nil // a device, FIFO or socket is not even opened
		}
		abs := filepath.Join(c.dir, filepath.FromSlash(rel))
		f, err := c.indexOne(root, rel, abs, kind)
		if err != nil {
			return nil // unreadable, not a regular file, outside or too large: left out
		}
		seen[abs] = true
		if f != nil {
			c.park(f)
			c.files[abs], changed = f, true
		}
		return nil
	})
	for p := range c.files {
		if !seen[p] {
			delete(c.files, p)
			changed = true
		}
	}
	if changed || c.docs == nil || c.docsErr != nil {
		c.rebuild()
	}
	if changed && c.index != "" {
		c.indexErr = c.save()
	}
}

// indexOne opens the file at rel and extracts its text, or returns nil
// when the index has it unchanged.
func (c *Corpus) indexOne(root *os.Root, rel, abs, kind string) (*corpusFile, error) {
	fh, info, err := openRegularIn(root, rel)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if info.Size() > corpusMaxFile {
		return nil, errTooLarge
	}
	if f := c.files[abs]; f != nil && f.Size == info.Size() && f.ModTime.Equal(info.ModTime()) {
		return nil, nil
	}
	br := bufio.NewReader(fh)
	if bom, _ := br.Peek(2); kind == "text" && string(bom) != "\xfe\xff" && string(bom) != "\xff\xfe" {
		return indexTextFile(abs, br, info) // a UTF-16 text is decoded whole, below
	}
	body, err := readBounded(br, corpusMaxFile)
	if err != nil {
		return nil, err
	}
	return indexFile(abs, kind, body, info)
}

// load reads the index from its file as a stream, one file's entry at a
// time, at most corpusMaxIndex bytes.
func (c *Corpus) load() error {
	f, err := openOwnFile(c.index)
	if err != nil {
		return err
	}
	defer f.Close()
	lr := &io.LimitedReader{R: f, N: corpusMaxIndex + 1}
	dec := json.NewDecoder(bufio.NewReader(lr))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("corpus index %s: not a JSON object", c.index)
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		path, _ := t.(string)
		var cf corpusFile
		if err := dec.Decode(&cf); err != nil {
			return err
		}
		c.park(&cf)
		c.files[path] = &cf
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	if lr.N <= 0 {
		return fmt.Errorf("corpus index %s: %w", c.index, errTooLarge)
	}
	return nil
}

// save writes the index to its file, mode 0600, atomically and without
// following a link there, as a stream: one file's entry at a time (the
// same JSON object as json.Marshal of c.files).
func (c *Corpus) save() error {
	if err := os.MkdirAll(filepath.Dir(c.index), 0o700); err != nil {
		return fmt.Errorf("corpus index: %w", err)
	}
	paths := slices.Sorted(maps.Keys(c.files))
	err := writeFileAtomic(c.index, func(w io.Writer) error {
		var f corpusFile // one file's entry, its text read back
		enc := json.NewEncoder(w)
		sep := "{"
		for _, p := range paths {
			if _, err := io.WriteString(w, sep); err != nil {
				return err
			}
			if err := enc.Encode(p); err != nil {
				return err
			}
			if _, err := io.WriteString(w, ":"); err != nil {
				return err
			}
			text, err := c.files[p].text()
			if err != nil {
				return err
			}
			f = *c.files[p]
			f.Text = text
			if err := writeCorpusFile(w, &f); err != nil {
				return err
			}
			sep = ","
		}
		if sep == "{" {
			_, err := io.WriteString(w, "{}")
			return err
		}
		_, err := io.WriteString(w, "}")
		return err
	})
	if err != nil {
		return fmt.Errorf("corpus index: %w", err)
	}
	return nil
}

// writeCorpusFile writes f as JSON (as json.Marshal does) with its text
// escaped a piece at a time, so that no copy of the whole text is made.
func writeCorpusFile(w io.Writer, f *corpusFile) error {
	head := *f
	head.Text = ""
	b, err := json.Marshal(head)
	if err != nil {
		return err
	}
	// b ends with "text":""}: the text goes between the quotes.
	if _, err := w.Write(b[:len(b)-2]); err != nil {
		return err
	}
	for text := f.Text; text != ""; {
		n := min(len(text), 64<<10)
		for n < len(text) && !utf8.RuneStart(text[n]) {
			n++
		}
		q, err := json.Marshal(text[:n])
		if err != nil {
			return err
		}
		if _, err := w.Write(q[1 : len(q)-1]); err != nil {
			return err
		}
		text = text[n:]
	}
	_, err = io.WriteString(w, `"}`)
	return err
}

// indexFile extracts one file's text with the page reader's extractors.
func indexFile(path, kind string, body []byte, info fs.FileInfo) (*corpusFile, error) {
	ct := map[string]string{"html": "text/html", "text": "text/plain; charset=utf-8", "pdf": "application/pdf"}[kind]
	p, err := extract(body, kind, ct, fileURL(path))
	if err != nil {
		return nil, err
	}
	title := p.Title
	if title == "" {
		title = filepath.Base(path)
	}
	return &corpusFile{ModTime: info.ModTime(), Size: info.Size(), Title: title, Published: p.Published, Text: p.Text}, nil
}

// indexTextFile reads a text file (UTF-8) as a stream, a line at a time,
// into the text the page reader's extractor makes of it (tidyText, the
// title its first line): only the text is kept, not the file besides.
func indexTextFile(path string, r io.Reader, info fs.FileInfo) (*corpusFile, error) {
	var t tidier
	t.b.Grow(int(min(info.Size(), corpusMaxFile)))
	lr := &io.LimitedReader{R: r, N: corpusMaxFile + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 64<<10), corpusMaxFile+1)
	for sc.Scan() {
		t.line(sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("%w (over %d bytes)", errTooLarge, corpusMaxFile)
	}
	text := t.b.String()
	title := filepath.Base(path)
	if first, _, _ := strings.Cut(text, "\n"); first != "" {
		title = clip(first, 120)
	}
	return &corpusFile{ModTime: info.ModTime(), Size: info.Size(), Title: title, Text: text}, nil
}

func fileURL(path string) *url.URL { return &url.URL{Scheme: "file", Path: filepath.ToSlash(path)} }

// rebuild cuts every file into passages, indexed by a ranker whose file
// is made in c.tmp, and copies every file's text into a new file of texts
// there, beside it (which drops the texts of files changed or removed);
// the passages they replace are let go (closed once no search uses
// them). A document's text is read back from that file when a snippet or
// the page is asked for. A file that cannot be made, written or read is
// an error for the searches (docsErr) until a rebuild succeeds.
func (c *Corpus) rebuild() {
	d, where, err := c.passages()
	if err != nil {
		c.docsErr = fmt.Errorf("corpus: %w", err)
		return
	}
	for path, f := range c.files { // every file's text is now in d's file of texts
		f.src, f.at, f.n, f.Text = d.texts, where[path].at, where[path].n, ""
	}
	if c.incoming != nil {
		c.incoming.close()
		c.incoming = nil
	}
	if c.docs != nil {
		c.docs.done()
	}
	c.docs, c.docsErr = d, nil
}

// textAt is where a text is in a file of texts.
type textAt struct{ at, n int64 }

// passages indexes every file into new passages, its text copied into
// their file of texts, and says where each file's text is there, by path
// (rebuild).
func (c *Corpus) passages() (*claimDocs, map[string]textAt, error) {
	d, err := newClaimDocs(c.tmp)
	if err != nil {
		return nil, nil, err
	}
	if d.texts, err = newTextFile(c.tmp); err != nil {
		d.done()
		return nil, nil, err
	}
	where := make(map[string]textAt, len(c.files))
	for path, f := range c.files {
		text, err := f.text()
		if err == nil {
			where[path], err = d.addText(fileURL(path).String(), f.Title, text)
		}
		if err != nil {
			d.done()
			return nil, nil, err
		}
	}
	d.lines = func(i int) ([]string, error) {
		text, err := d.texts.read(d.docs[i].at, d.docs[i].n)
		return strings.Split(text, "\n"), err
	}
	return d, where, nil
}

// addText writes a document's text to c's file of texts and indexes it
// (add) with its title, and says where the text is.
func (c *claimDocs) addText(u, title, text string) (textAt, error) {
	at, err := c.texts.add(text)
	if err != nil {
		return textAt{}, err
	}
	where := textAt{at, int64(len(text))}
	added, err := c.add(u, strings.Split(text, "\n"))
	if added {
		d := &c.docs[len(c.docs)-1]
		d.title, d.at, d.n = title, where.at, where.n
	}
	return where, err
}

// current returns the passages for one search (the caller calls done
// after), checking the folder first when Refresh has passed.
func (c *Corpus) current() (*claimDocs, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	refresh := c.Refresh
	if refresh <= 0 {
		refresh = time.Minute
	}
	if time.Since(c.checked) >= refresh {
		c.update()
	}
	if c.docsErr != nil {
		return nil, c.docsErr
	}
	c.docs.use()
	return c.docs, nil
}

// Search implements Provider: the corpus's best passages for the query,
// one per document.
func (c *Corpus) Search(ctx context.Context, q Query) ([]Result, error) {
	d, err := c.current()
	if err != nil {
		return nil, err
	}
	defer d.done()
	res, best, err := d.rank(q.Text)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	res = res[:min(len(res), clampMax(q.Max, DefaultMaxResults, 50))]
	if err := d.withSnippets(res, best); err != nil {
		return nil, err
	}
	c.mu.Lock()
	for i := range res {
		if path, ok := corpusPath(res[i].URL); ok && c.files[path] != nil {
			f := c.files[path]
			res[i].Published = f.Published
			res[i].PublishedAt = parsePublished(f.Published)
		}
	}
	c.mu.Unlock()
	return res, nil
}

// CorpusReader reads the corpus's file:// URLs from its index and every
// other URL with Next.
type CorpusReader struct {
	Corpus *Corpus
	Next   interface {
		ReadPage(ctx context.Context, req PageRequest) (*Page, error)
	}
}

// Read reads the corpus's file:// URL, or another with Next.
func (r *CorpusReader) Read(ctx context.Context, rawURL string) (*Page, error) {
	return r.ReadPage(ctx, PageRequest{URL: rawURL})
}

// ReadPage implements the engine's Reader.
func (r *CorpusReader) ReadPage(ctx context.Context, req PageRequest) (*Page, error) {
	rawURL := req.URL
	path, ok := corpusPath(rawURL)
	if !ok {
		if r.Next == nil {
			return nil, errors.New("page reading is not configured")
		}
		return r.Next.ReadPage(ctx, req)
	}
	r.Corpus.mu.Lock()
	defer r.Corpus.mu.Unlock() // the text is read back before a rebuild can move it
	f := r.Corpus.files[path]
	if f == nil {
		return nil, fmt.Errorf("%s is not in the corpus", rawURL)
	}
	text, err := f.text()
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", rawURL, err)
	}
	return &Page{URL: rawURL, FinalURL: rawURL, Title: f.Title, Text: text, Published: f.Published,
		PublishedAt: parsePublished(f.Published), FetchedAt: f.ModTime, Bytes: len(text)}, nil
}

// corpusPath is the file a file:// URL names.
func corpusPath(rawURL string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	return filepath.FromSlash(u.Path), true
}
