package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Corpus is a folder of a team's own documents (HTML, PDF, Markdown and
// text files) searched like the web (FACTBOT_CORPUS, and "corpus" in
// FACTBOT_SEARCH). The text of each file is extracted once into a
// persistent index (IndexFile in the folder) and kept current: at most
// every Refresh the folder is walked again, and files added, changed
// (size or modification time) or removed are indexed or dropped. Search
// ranks passages as the knowledge store does (internal/textrank: Unicode
// sentences and tokens, BM25); a document's URL is its
// file:// URL, which the corpus reader (CorpusReader) serves.
type Corpus struct {
	dir string
	// Refresh is how often the folder is checked for changes (default
	// one minute).
	Refresh time.Duration

	mu      sync.Mutex
	files   map[string]*corpusFile // by absolute path
	docs    *claimDocs
	checked time.Time
}

// IndexFile is the name of the corpus's index in its folder.
const IndexFile = ".factbot-index.json"

// corpusMaxFile bounds a file that is indexed.
const corpusMaxFile = 32 << 20

// corpusFile is one indexed file, as kept in the index.
type corpusFile struct {
	ModTime   time.Time `json:"mod_time"`
	Size      int64     `json:"size"`
	Title     string    `json:"title"`
	Published string    `json:"published,omitempty"`
	Text      string    `json:"text"`
}

// NewCorpus opens the corpus in dir: its index is read and brought up to
// date.
func NewCorpus(dir string) (*Corpus, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("corpus: %s is not a folder", dir)
	}
	c := &Corpus{dir: abs, files: map[string]*corpusFile{}}
	if data, err := os.ReadFile(filepath.Join(abs, IndexFile)); err == nil {
		_ = json.Unmarshal(data, &c.files) // a bad index is rebuilt
	}
	if err := c.update(); err != nil {
		return nil, err
	}
	return c, nil
}

// Name returns "corpus".
func (c *Corpus) Name() string { return "corpus" }

// corpusKinds are the files indexed, by extension.
var corpusKinds = map[string]string{".html": "html", ".htm": "html", ".pdf": "pdf", ".md": "text", ".markdown": "text", ".txt": "text"}

// update walks the folder, re-indexes what changed, saves the index when
// anything did, and rebuilds the passages.
func (c *Corpus) update() error {
	seen := map[string]bool{}
	changed := false
	err := filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && path != c.dir && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		kind, ok := corpusKinds[strings.ToLower(filepath.Ext(path))]
		if d.IsDir() || !ok || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > corpusMaxFile {
			return nil
		}
		seen[path] = true
		if f := c.files[path]; f != nil && f.Size == info.Size() && f.ModTime.Equal(info.ModTime()) {
			return nil
		}
		f, err := indexFile(path, kind, info)
		if err != nil {
			return nil // unreadable: left out, tried again when it changes
		}
		c.files[path], changed = f, true
		return nil
	})
	if err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	for path := range c.files {
		if !seen[path] {
			delete(c.files, path)
			changed = true
		}
	}
	c.checked = time.Now()
	if changed || c.docs == nil {
		c.rebuild()
	}
	if !changed {
		return nil
	}
	data, err := json.Marshal(c.files)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(c.dir, IndexFile), data, 0o644)
}

// indexFile extracts one file's text with the page reader's extractors.
func indexFile(path, kind string, info fs.FileInfo) (*corpusFile, error) {
	body, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
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

func fileURL(path string) *url.URL { return &url.URL{Scheme: "file", Path: filepath.ToSlash(path)} }

// rebuild cuts every file into passages.
func (c *Corpus) rebuild() {
	d := &claimDocs{docs: map[string]storeDoc{}}
	for path, f := range c.files {
		d.add(fileURL(path).String(), strings.Split(f.Text, "\n"))
		if doc, ok := d.docs[fileURL(path).String()]; ok {
			doc.title = f.Title
			d.docs[doc.url] = doc
		}
	}
	d.finish()
	c.docs = d
}

// current returns the passages, checking the folder first when Refresh
// has passed.
func (c *Corpus) current() (*claimDocs, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	refresh := c.Refresh
	if refresh <= 0 {
		refresh = time.Minute
	}
	if time.Since(c.checked) >= refresh {
		if err := c.update(); err != nil {
			return nil, err
		}
	}
	return c.docs, nil
}

// Search implements Provider: the corpus's best passages for the query,
// one per document.
func (c *Corpus) Search(ctx context.Context, q Query) ([]Result, error) {
	d, err := c.current()
	if err != nil {
		return nil, err
	}
	res, max := d.rank(q.Text), q.Max
	c.mu.Lock()
	for i := range res {
		if path, ok := corpusPath(res[i].URL); ok && c.files[path] != nil {
			f := c.files[path]
			res[i].Published = f.Published
			res[i].PublishedAt = parsePublished(f.Published)
		}
	}
	c.mu.Unlock()
	return res[:min(len(res), clampMax(max, DefaultMaxResults, 50))], nil
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
	f := r.Corpus.files[path]
	r.Corpus.mu.Unlock()
	if f == nil {
		return nil, fmt.Errorf("%s is not in the corpus", rawURL)
	}
	return &Page{URL: rawURL, FinalURL: rawURL, Title: f.Title, Text: f.Text, Published: f.Published,
		PublishedAt: parsePublished(f.Published), FetchedAt: f.ModTime, Bytes: len(f.Text)}, nil
}

// corpusPath is the file a file:// URL names.
func corpusPath(rawURL string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	return filepath.FromSlash(u.Path), true
}
