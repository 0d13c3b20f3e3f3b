package search

import (
	"bufio"
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
// in memory. A missing, unreadable or malformed file is an error here,
// before the check starts. Holding a held claim again shares it.
func (k *KnowledgeStore) Hold(id string) (release func(), err error) {
	if err := checkClaimID(id); err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	h := k.held[id]
	if h == nil {
		d := k.last
		if k.lastID != id || d == nil {
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
			}
		})
	}, nil
}

// Name returns "knowledge-store".
func (k *KnowledgeStore) Name() string { return "knowledge-store" }

// claimDocs are one claim's documents and their passages, ranked by the
// module's one ranker (internal/textrank).
type claimDocs struct {
	docs     map[string]storeDoc // by URL
	passages []passage
	ranker   *textrank.Ranker
}

type storeDoc struct {
	url, title, text string
}

type passage struct {
	url, text string
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

// docs returns the documents of the claim with this id: the held ones,
// or else loaded now and kept until another claim is loaded so.
func (k *KnowledgeStore) docs(id string) (*claimDocs, error) {
	if err := checkClaimID(id); err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if h := k.held[id]; h != nil {
		return h.docs, nil
	}
	if k.lastID == id && k.last != nil {
		return k.last, nil
	}
	k.lastID, k.last = "", nil // freed before the next is loaded
	c, err := k.load(id)
	if err != nil {
		return nil, err
	}
	k.lastID, k.last = id, c
	return c, nil
}

// load reads the claim's file: only a regular file inside the store's
// folder, bounded as read.
func (k *KnowledgeStore) load(id string) (*claimDocs, error) {
	root, err := os.OpenRoot(k.dir)
	if err != nil {
		return nil, fmt.Errorf("knowledge store: %w", err)
	}
	defer root.Close()
	f, _, err := openRegularIn(root, id+".json")
	if err != nil {
		return nil, fmt.Errorf("knowledge store: claim %s: %w", id, err)
	}
	defer f.Close()
	return readClaimDocs(f, filepath.Join(k.dir, id+".json"), kstoreMaxFile)
}

// readClaimDocs reads a claim's JSON Lines from r, at most max bytes.
func readClaimDocs(r io.Reader, path string, max int64) (*claimDocs, error) {
	lr := &io.LimitedReader{R: r, N: max + 1}
	c := &claimDocs{docs: map[string]storeDoc{}}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var line struct {
			URL      string   `json:"url"`
			URL2Text []string `json:"url2text"`
		}
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		if lr.N <= 0 {
			break
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, fmt.Errorf("knowledge store: %s line %d: %w", path, n, err)
		}
		if line.URL == "" || len(line.URL2Text) == 0 {
			continue
		}
		if _, dup := c.docs[line.URL]; dup {
			continue
		}
		c.add(line.URL, line.URL2Text)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("knowledge store: %s: %w", path, err)
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("knowledge store: %s: %w (over %d bytes)", path, errTooLarge, max)
	}
	c.finish()
	return c, nil
}

// finish indexes the passages once every document is added.
func (c *claimDocs) finish() {
	texts := make([]string, len(c.passages))
	for i, p := range c.passages {
		texts[i] = p.text
	}
	c.ranker = textrank.NewRanker(texts)
}

// add keeps one document, given as its lines, and cuts it into passages
// of passageSentences sentences (textrank.Sentences: a line may hold
// several).
func (c *claimDocs) add(u string, lines []string) {
	var kept, sents []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			kept = append(kept, l)
			sents = append(sents, textrank.Sentences(l)...)
		}
	}
	if len(sents) == 0 {
		return
	}
	c.docs[u] = storeDoc{url: u, title: truncateWords(kept[0], 20), text: strings.Join(kept, "\n")}
	for i := 0; i < len(sents); i += passageSentences {
		c.passages = append(c.passages, passage{url: u, text: strings.Join(sents[i:min(i+passageSentences, len(sents))], " ")})
	}
}

// rank scores every passage for the query and keeps each document's best.
func (c *claimDocs) rank(query string) []Result {
	q := textrank.NewQuery(query)
	best := map[string]int{}
	scores := make([]float64, len(c.passages))
	for i, p := range c.passages {
		s := c.ranker.Score(q, i)
		scores[i] = s
		if s <= 0 {
			continue
		}
		if j, ok := best[p.url]; !ok || s > scores[j] {
			best[p.url] = i
		}
	}
	var out []Result
	for u, i := range best {
		out = append(out, Result{Title: c.docs[u].title, URL: u, Snippet: c.passages[i].text, Score: scores[i]})
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
	return out
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
	res := c.rank(query)
	rs, max := q.Restriction, q.Max
	for i := range res {
		res[i].Provider = k.Name()
		res[i].Published, res[i].PublishedAt = storeDate(rs)
	}
	res, _, excluded := Restriction{ExcludeSites: rs.ExcludeSites, FactCheckPaths: rs.FactCheckPaths, ExcludeURLs: rs.ExcludeURLs}.Filter(res)
	if max = clampMax(max, DefaultMaxResults, 50); len(res) > max {
		res = res[:max]
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
	u := req.URL
	d, ok := c.docs[strings.TrimSpace(u)]
	if !ok {
		return nil, fmt.Errorf("%s is not in this claim's knowledge store", u)
	}
	p := &Page{URL: d.url, FinalURL: d.url, Title: d.title, Text: d.text, Bytes: len(d.text)}
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
