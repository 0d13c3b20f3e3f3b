package search

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/factbot-dev/factbot/internal/textrank"
)

// KnowledgeStore serves AVeriTeC's released knowledge store instead of
// the web: a folder with one JSON Lines file per claim, <claim_id>.json,
// each line {"claim_id", "type", "query", "url", "url2text": [sentences]}.
// Search ranks the claim's documents by BM25 over passages of a few
// sentences; ReadPage returns a document's stored text. Which claim a call
// is for is the request's Claim (Query.Claim, PageRequest.Claim). A run
// holds each claim while it is checked (Hold) and releases it after, so
// that only the claims being checked are in memory. Only regular files
// inside dir are read, bounded in size. Nothing goes to the network. The
// organisers collected the documents before the claim was made, so
// results and pages carry the as-of date of the request's Restriction as
// their publication date: they pass a dated check.
type KnowledgeStore struct {
	dir string
	tmp string // where the rankers' files are made; "" for os.TempDir

	mu     sync.Mutex
	held   map[string]*heldClaim // claims being checked (Hold), by id
	lastID string                // the last claim loaded without Hold
	last   *claimDocs
}

// heldClaim is a claim's documents and how many holders it has.
type heldClaim struct {
	docs *claimDocs
	n    int
}

// kstoreMaxFile bounds a claim's file as read (the largest of the released
// stores is about 50 MB).
const kstoreMaxFile = 1 << 30

// NewKnowledgeStore serves the knowledge store in dir.
func NewKnowledgeStore(dir string) (*KnowledgeStore, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("knowledge store: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("knowledge store: %s is not a folder", dir)
	}
	return &KnowledgeStore{dir: dir, held: map[string]*heldClaim{}}, nil
}

// Hold loads the documents of the claim with this id for the searches
// and reads of its check, until release is called: a run holds each
// claim while it is checked, so that only the claims being checked are
// in memory, and their rankers' files on disk (closed when the last
// holder releases the claim and the last search of it is done). A
// missing, unreadable or malformed file is an error here, before the
// check starts. Holding a held claim again shares it.
func (k *KnowledgeStore) Hold(id string) (release func(), err error) {
	if err := checkClaimID(id); err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	h := k.held[id]
	if h == nil {
		d := k.last // its reference passes to the held claim
		if k.lastID != id || d == nil {
			k.dropLast()
			if d, err = k.load(id); err != nil {
				return nil, err
			}
		}
		k.lastID, k.last = "", nil
		h = &heldClaim{docs: d}
		k.held[id] = h
	}
	h.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			k.mu.Lock()
			defer k.mu.Unlock()
			if h.n--; h.n == 0 {
				delete(k.held, id)
				h.docs.done()
			}
		})
	}, nil
}

// dropLast lets go of the claim last loaded without Hold (k.mu held).
func (k *KnowledgeStore) dropLast() {
	if k.last != nil {
		k.last.done()
	}
	k.lastID, k.last = "", nil
}

// Name returns "knowledge-store".
func (k *KnowledgeStore) Name() string { return "knowledge-store" }

// claimDocs are one claim's documents, indexed by the module's one ranker
// (internal/textrank) over passages of a few sentences. Only what ranking
// needs is kept: each document's URL, title and where to read it again,
// each passage's document and first sentence, and the ranker's term
// counts. The texts are not: a snippet or a page is cut again from its
// document's lines, read back by lines (from the claim's file, for the
// knowledge store; from the index, for the corpus), so that a claim's
// file is read as a stream. The ranker's term counts, which grow with
// the file, are kept in a temporary file (textrank.FileRanker), so that
// the memory of a claim is a few numbers a passage and the vocabulary,
// plus a few times its largest document while that one is read.
//
// A claimDocs is counted: whoever keeps it (a held claim, the last claim
// loaded, the corpus) has one reference and each search under way one
// more (use, done); the last done closes the ranker's file.
type claimDocs struct {
	docs     []storeDoc     // in the order read
	byURL    map[string]int // index in docs
	passages []passage
	ranker   *textrank.FileRanker
	texts    *textFile // the corpus's documents' texts; nil for the knowledge store
	refs     atomic.Int32
	// lines returns document d's lines again.
	lines func(d int) ([]string, error)
}

// storeDoc is a document as kept: at and n are where its record is in
// the claim's file (the knowledge store's), or its text in the file of
// texts (the corpus's).
type storeDoc struct {
	url, title string
	at, n      int64
}

// passage is passageSentences sentences of a document, from its first:
// sentence first of the document's kept line line.
type passage struct {
	doc, line, first int32
}

// newClaimDocs makes an empty claimDocs with one reference, its ranker's
// file in dir ("" for os.TempDir).
func newClaimDocs(dir string) (*claimDocs, error) {
	fr, err := textrank.NewFileRanker(dir)
	if err != nil {
		return nil, err
	}
	c := &claimDocs{byURL: map[string]int{}, ranker: fr}
	c.refs.Store(1)
	return c, nil
}

// use takes one more reference to c.
func (c *claimDocs) use() { c.refs.Add(1) }

// done gives back a reference; the last closes the ranker's file and the
// file of texts.
func (c *claimDocs) done() {
	if c.refs.Add(-1) == 0 { // temporary files, already removed where the system allows it
		c.ranker.Close()
		if c.texts != nil {
			c.texts.close()
		}
	}
}

// passageSentences is how many sentences make one passage.
const passageSentences = 4

// checkClaimID refuses an id that is not a plain file name.
func checkClaimID(id string) error {
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return errors.New("knowledge store: no claim id for this search")
	}
	return nil
}

// docs returns the documents of the claim with this id, for one search
// or read (the caller calls done after): the held ones, or else loaded
// now and kept until another claim is loaded so.
func (k *KnowledgeStore) docs(id string) (*claimDocs, error) {
	if err := checkClaimID(id); err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if h := k.held[id]; h != nil {
		h.docs.use()
		return h.docs, nil
	}
	if k.lastID == id && k.last != nil {
		k.last.use()
		return k.last, nil
	}
	k.dropLast() // freed before the next is loaded
	c, err := k.load(id)
	if err != nil {
		return nil, err
	}
	k.lastID, k.last = id, c
	c.use()
	return c, nil
}

// load reads the claim's file: only a regular file inside the store's
// folder, bounded as read.
func (k *KnowledgeStore) load(id string) (*claimDocs, error) {
	f, err := k.open(id)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := readClaimDocs(f, filepath.Join(k.dir, id+".json"), kstoreMaxFile, k.tmp)
	if err != nil {
		return nil, err
	}
	c.lines = func(d int) ([]string, error) { return k.readDoc(id, c.docs[d]) }
	return c, nil
}

// open opens the claim's file: only a regular file inside the store's
// folder.
func (k *KnowledgeStore) open(id string) (*os.File, error) {
	root, err := os.OpenRoot(k.dir)
	if err != nil {
		return nil, fmt.Errorf("knowledge store: %w", err)
	}
	defer root.Close()
	f, _, err := openRegularIn(root, id+".json")
	if err != nil {
		return nil, fmt.Errorf("knowledge store: claim %s: %w", id, err)
	}
	return f, nil
}

// readDoc reads document d of the claim with this id back from its file,
// where it was found when the claim was loaded.
func (k *KnowledgeStore) readDoc(id string, d storeDoc) ([]string, error) {
	f, err := k.open(id)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, d.n)
	var rec storeRecord
	if _, err := f.ReadAt(buf, d.at); err != nil || json.Unmarshal(buf, &rec) != nil || rec.URL != d.url {
		return nil, fmt.Errorf("knowledge store: claim %s: its file changed since it was loaded (%s is no longer where it was)", id, d.url)
	}
	return rec.URL2Text, nil
}

// storeRecord is what is read of a line of a claim's file.
type storeRecord struct {
	URL      string   `json:"url"`
	URL2Text []string `json:"url2text"`
}

// readClaimDocs reads a claim's JSON Lines from r, at most max bytes, one
// line at a time: each document is cut into passages and indexed (the
// ranker's file in tmp), and only where its line is in the file is kept
// (storeDoc).
func readClaimDocs(r io.Reader, path string, max int64, tmp string) (*claimDocs, error) {
	c, err := newClaimDocs(tmp)
	if err != nil {
		return nil, fmt.Errorf("knowledge store: %s: %w", path, err)
	}
	if err := c.read(r, path, max); err != nil {
		c.done()
		return nil, err
	}
	return c, nil
}

// read reads a claim's JSON Lines into c (readClaimDocs).
func (c *claimDocs) read(r io.Reader, path string, max int64) error {
	lr := &io.LimitedReader{R: r, N: max + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	var at, lineAt int64 // where the scanner is in the file, and where the last line began
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		adv, line, err := bufio.ScanLines(data, atEOF)
		if line != nil {
			lineAt = at
		}
		at += int64(adv)
		return adv, line, err
	})
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if lr.N <= 0 {
			break
		}
		var line storeRecord
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return fmt.Errorf("knowledge store: %s line %d: %w", path, n, err)
		}
		if line.URL == "" || len(line.URL2Text) == 0 {
			continue
		}
		if _, dup := c.byURL[line.URL]; dup {
			continue
		}
		added, err := c.add(line.URL, line.URL2Text)
		if err != nil {
			return fmt.Errorf("knowledge store: %s: %w", path, err)
		}
		if added {
			c.docs[len(c.docs)-1].at, c.docs[len(c.docs)-1].n = lineAt, int64(len(sc.Bytes()))
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("knowledge store: %s: %w", path, err)
	}
	if lr.N <= 0 {
		return fmt.Errorf("knowledge store: %s: %w (over %d bytes)", path, errTooLarge, max)
	}
	return nil
}

// keptLines is a document's kept lines: trimmed, not empty.
func keptLines(lines []string) []string {
	var kept []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			kept = append(kept, l)
		}
	}
	return kept
}

// cutDoc is a document's kept lines (keptLines) and its sentences
// (textrank.Sentences: a line may hold several), with the kept line each
// is in.
func cutDoc(lines []string) (kept, sents []string, line []int32) {
	kept = keptLines(lines)
	for i, l := range kept {
		for _, s := range textrank.Sentences(l) {
			sents = append(sents, s)
			line = append(line, int32(i))
		}
	}
	return kept, sents, line
}

// add indexes one document, given as its lines, cut into passages of
// passageSentences sentences, and reports whether it had any text. An
// error is the ranker's file's.
func (c *claimDocs) add(u string, lines []string) (bool, error) {
	kept, sents, line := cutDoc(lines)
	if len(sents) == 0 {
		return false, nil
	}
	d := len(c.docs)
	c.docs = append(c.docs, storeDoc{url: strings.Clone(u), title: strings.Clone(truncateWords(kept[0], 20))})
	c.byURL[c.docs[d].url] = d
	for i := 0; i < len(sents); i += passageSentences {
		if err := c.ranker.Add(strings.Join(sents[i:min(i+passageSentences, len(sents))], " ")); err != nil {
			return false, err
		}
		first := i // its first sentence's number in its line
		for first > 0 && line[first-1] == line[i] {
			first--
		}
		c.passages = append(c.passages, passage{doc: int32(d), line: line[i], first: int32(i - first)})
	}
	return true, nil
}

// withSnippets sets each result's snippet: the text of its best passage
// (best, from rank), cut again from its document's lines: only the lines
// the passage is in are cut into sentences again.
func (c *claimDocs) withSnippets(res []Result, best map[string]int) error {
	for i := range res {
		p := c.passages[best[res[i].URL]]
		lines, err := c.lines(int(p.doc))
		if err != nil {
			return err
		}
		res[i].Snippet = passageText(keptLines(lines), p)
	}
	return nil
}

// passageText is passage p's text: passageSentences sentences from its
// first, cut again from its document's kept lines.
func passageText(kept []string, p passage) string {
	var sents []string
	for l := int(p.line); l < len(kept) && len(sents) < int(p.first)+passageSentences; l++ {
		sents = append(sents, textrank.Sentences(kept[l])...)
	}
	first := min(int(p.first), len(sents))
	return strings.Join(sents[first:min(first+passageSentences, len(sents))], " ")
}

// rank scores every passage for the query and keeps each document's
// best, by URL in best; the results have no snippet yet (withSnippets).
// An error is the ranker's file's.
func (c *claimDocs) rank(query string) (out []Result, best map[string]int, err error) {
	scores := make([]float64, len(c.passages))
	if err := c.ranker.Scores(textrank.NewQuery(query), scores); err != nil {
		return nil, nil, err
	}
	byDoc := map[int32]int{}
	for i, p := range c.passages {
		s := scores[i]
		if s <= 0 {
			continue
		}
		if j, ok := byDoc[p.doc]; !ok || s > scores[j] {
			byDoc[p.doc] = i
		}
	}
	best = make(map[string]int, len(byDoc))
	for d, i := range byDoc {
		doc := c.docs[d]
		best[doc.url] = i
		out = append(out, Result{Title: doc.title, URL: doc.url, Score: scores[i]})
	}
	slices.SortFunc(out, func(a, b Result) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.URL, b.URL)
	})
	return out, best, nil
}

// Search ranks the documents of the query's claim for the query.
func (k *KnowledgeStore) Search(ctx context.Context, q Query) (*Response, error) {
	query := strings.TrimSpace(q.Text)
	if query == "" {
		return nil, fmt.Errorf("empty search query")
	}
	c, err := k.docs(q.Claim)
	if err != nil {
		return nil, err
	}
	defer c.done()
	res, best, err := c.rank(query)
	if err != nil {
		return nil, fmt.Errorf("knowledge store: claim %s: %w", q.Claim, err)
	}
	rs, max := q.Restriction, q.Max
	for i := range res {
		res[i].Provider = k.Name()
		res[i].Published, res[i].PublishedAt = storeDate(rs)
	}
	res, _, excluded := Restriction{ExcludeSites: rs.ExcludeSites, FactCheckPaths: rs.FactCheckPaths, ExcludeURLs: rs.ExcludeURLs}.Filter(res)
	if max = clampMax(max, DefaultMaxResults, 50); len(res) > max {
		res = res[:max]
	}
	if err := c.withSnippets(res, best); err != nil {
		return nil, err
	}
	return &Response{Query: query, Results: res, Provider: k.Name(), Notes: restrictionNotes(k.Name(), 0, excluded)}, nil
}

// ReadPage returns a stored document's text; a URL the claim's store
// lacks is an error (there is no web to fall back on).
func (k *KnowledgeStore) ReadPage(ctx context.Context, req PageRequest) (*Page, error) {
	c, err := k.docs(req.Claim)
	if err != nil {
		return nil, err
	}
	defer c.done()
	u := req.URL
	i, ok := c.byURL[strings.TrimSpace(u)]
	if !ok {
		return nil, fmt.Errorf("%s is not in this claim's knowledge store", u)
	}
	lines, err := c.lines(i)
	if err != nil {
		return nil, err
	}
	kept := keptLines(lines)
	d, text := c.docs[i], strings.Join(kept, "\n")
	p := &Page{URL: d.url, FinalURL: d.url, Title: d.title, Text: text, Bytes: len(text)}
	p.Published, p.PublishedAt = storeDate(req.Restriction)
	return p, nil
}

// storeDate is the date a stored document counts as published: the
// claim's date, when the check has one.
func storeDate(rs Restriction) (string, time.Time) {
	if rs.Before.IsZero() {
		return "", time.Time{}
	}
	d := rs.Before.UTC()
	return d.Format(time.DateOnly), d
}

func truncateWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) <= n {
		return s
	}
	return strings.Join(f[:n], " ") + " …"
}
