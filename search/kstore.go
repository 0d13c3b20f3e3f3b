package search

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
// is for is the request's Claim (Query.Claim, PageRequest.Claim). Nothing
// goes to the network. The organisers collected the documents before the
// claim was made, so results and pages carry the as-of date of the
// request's Restriction as their publication date: they pass a dated
// check.
type KnowledgeStore struct {
	dir string

	mu     sync.Mutex
	claims map[string]*claimDocs // loaded, by claim id
}

// NewKnowledgeStore serves the knowledge store in dir.
func NewKnowledgeStore(dir string) (*KnowledgeStore, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("knowledge store: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("knowledge store: %s is not a folder", dir)
	}
	return &KnowledgeStore{dir: dir, claims: map[string]*claimDocs{}}, nil
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

// docs loads the file of the claim with this id once.
func (k *KnowledgeStore) docs(id string) (*claimDocs, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return nil, errors.New("knowledge store: no claim id for this search")
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if c, ok := k.claims[id]; ok {
		return c, nil
	}
	c, err := loadClaimDocs(filepath.Join(k.dir, id+".json"))
	if err != nil {
		return nil, err
	}
	k.claims[id] = c
	return c, nil
}

func loadClaimDocs(path string) (*claimDocs, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("knowledge store: %w", err)
	}
	defer f.Close()
	c := &claimDocs{docs: map[string]storeDoc{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var line struct {
			URL      string   `json:"url"`
			URL2Text []string `json:"url2text"`
		}
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
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
	res, _, excluded := Restriction{ExcludeSites: rs.ExcludeSites, FactCheckPaths: rs.FactCheckPaths}.Filter(res)
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
