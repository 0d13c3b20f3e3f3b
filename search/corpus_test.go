package search

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	trafilatura "github.com/markusmobius/go-trafilatura"
)

// corpusPage is one page of a scoring corpus: its file name, address and
// body, and either the hand-marked article text (truth) or snippets the
// text must keep (with) and must drop (without).
type corpusPage struct {
	key, file, url string
	body           []byte
	truth          string
	with, without  []string
}

// heldOut says whether a page is in a corpus's validation half, held out
// of tuning: the first byte of the SHA-256 of its file name (KEY.html.gz
// for a news benchmark, FILE for a snippet set) is odd. The split was
// fixed before any rule was measured; rules are tuned on the other half
// only, and kept only where they win on the validation halves.
func heldOut(file string) bool {
	sum := sha256.Sum256([]byte(file))
	return sum[0]%2 == 1
}

// loadCorpus reads a directory in one of two layouts: a news benchmark
// (ground-truth.json mapping KEY to {articleBody, url}, html/KEY.html.gz)
// or a snippet set (evaldata.json mapping a URL to {file, with, without},
// pages/FILE).
func loadCorpus(t *testing.T, dir string) (kind string, pages []corpusPage) {
	t.Helper()
	if raw, err := os.ReadFile(filepath.Join(dir, "ground-truth.json")); err == nil {
		var truth map[string]struct {
			Body string `json:"articleBody"`
			URL  string `json:"url"`
		}
		if err := json.Unmarshal(raw, &truth); err != nil {
			t.Fatal(err)
		}
		for key, v := range truth {
			file := key + ".html.gz"
			body, err := readGzip(filepath.Join(dir, "html", file))
			if err != nil {
				t.Fatal(err)
			}
			pages = append(pages, corpusPage{key: key, file: file, url: v.URL, body: body, truth: v.Body})
		}
		return "articles", sortPages(pages)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "evaldata.json"))
	if err != nil {
		t.Fatalf("%s has neither ground-truth.json nor evaldata.json: %v", dir, err)
	}
	var data map[string]struct {
		File    string   `json:"file"`
		With    []string `json:"with"`
		Without []string `json:"without"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	for key, v := range data {
		body, err := os.ReadFile(filepath.Join(dir, "pages", v.File))
		if err != nil {
			t.Fatal(err)
		}
		addr := key
		if !strings.HasPrefix(key, "http") {
			addr = "https://example.org/" + v.File
		}
		pages = append(pages, corpusPage{key: key, file: v.File, url: addr, body: body, with: v.With, without: v.Without})
	}
	return "snippets", sortPages(pages)
}

func sortPages(pages []corpusPage) []corpusPage {
	slices.SortFunc(pages, func(a, b corpusPage) int { return strings.Compare(a.key, b.key) })
	return pages
}

// corpusExtractor is one extractor that TestCorpusScore measures.
type corpusExtractor struct {
	name string
	run  func(body []byte, u *url.URL) (text string, dated bool, err error)
}

// corpusExtractors are what TestCorpusScore measures: the reader
// (readerSettings) and the reader without its additions (the library's
// default mode with its fall-backs, readerOptions); go-trafilatura called
// plainly (its own charset handling and parsing), in its default and
// favour-recall modes, with and without its fall-backs, as
// ../shared/tools/baseline-reader runs it; the reader without additions
// with the other three of those settings; each addition switched on alone;
// and the library options that were tried as additions.
func corpusExtractors() []corpusExtractor {
	recall := trafilatura.Options{Focus: trafilatura.FavorRecall}
	return []corpusExtractor{
		{"reader", readerExtractor(readerSettings)},
		// the reader without its additions: the library's default mode with
		// its fall-backs, laid out by nodeText
		{"reader-plain", readerExtractor(readerConfig{lib: readerOptions})},
		{"trafilatura", plainTrafilatura(trafilatura.Options{})},
		{"trafilatura-recall", plainTrafilatura(recall)},
		{"trafilatura-fallback", plainTrafilatura(trafilatura.Options{EnableFallback: true})},
		{"trafilatura-recall-fallback", plainTrafilatura(trafilatura.Options{Focus: trafilatura.FavorRecall, EnableFallback: true})},
		{"reader-nofallback", readerExtractor(readerConfig{lib: trafilatura.Options{}})},
		{"reader-recall", readerExtractor(readerConfig{lib: recall})},
		{"reader-recall-fallback", readerExtractor(readerConfig{lib: trafilatura.Options{Focus: trafilatura.FavorRecall, EnableFallback: true}})},
		// each of the reader's additions (readerConfig) on its own, on the
		// reader without additions and on favour recall
		{"reader-plain+boilerplate", readerExtractor(readerConfig{lib: readerOptions, boilerplate: true})},
		{"reader-recall+boilerplate", readerExtractor(readerConfig{lib: recall, boilerplate: true})},
		{"reader-plain+edges", readerExtractor(readerConfig{lib: readerOptions, edges: true})},
		{"reader-plain+lead", readerExtractor(readerConfig{lib: readerOptions, lead: true})},
		// the reader without the lead rule (before it was kept)
		{"reader-nolead", readerExtractor(readerConfig{lib: readerOptions, boilerplate: true, edges: true})},
		// the reader without the rescue of the library's baseline (before
		// it was kept), and the rescue alone
		{"reader-norescue", readerExtractor(readerConfig{lib: readerOptions, boilerplate: true, edges: true, lead: true})},
		{"reader-plain+rescue", readerExtractor(readerConfig{lib: readerOptions, rescue: true})},
		// the reader without its additions, with one more of the library's
		// own options
		{"reader-plain+dedup", readerExtractor(readerConfig{lib: withOpts(func(o *trafilatura.Options) { o.Deduplicate = true })})},
		{"reader-plain+images", readerExtractor(readerConfig{lib: withOpts(func(o *trafilatura.Options) { o.IncludeImages = true })})},
		{"reader-plain+links", readerExtractor(readerConfig{lib: withOpts(func(o *trafilatura.Options) { o.IncludeLinks = true })})},
		{"reader-plain+notables", readerExtractor(readerConfig{lib: withOpts(func(o *trafilatura.Options) { o.ExcludeTables = true })})},
	}
}

// withOpts is readerOptions changed by set.
func withOpts(set func(*trafilatura.Options)) trafilatura.Options {
	o := readerOptions
	set(&o)
	return o
}

func readerExtractor(cfg readerConfig) func([]byte, *url.URL) (string, bool, error) {
	return func(body []byte, u *url.URL) (string, bool, error) {
		p, err := extractWith(cfg, body, "html", "text/html", u)
		if err != nil {
			return "", false, err
		}
		return p.Text, !p.PublishedAt.IsZero(), nil
	}
}

func plainTrafilatura(opts trafilatura.Options) func([]byte, *url.URL) (string, bool, error) {
	return func(body []byte, u *url.URL) (string, bool, error) {
		opts.OriginalURL = u
		res, err := trafilatura.Extract(bytes.NewReader(body), opts)
		if err != nil {
			return "", false, err
		}
		return res.ContentText, !res.Metadata.Date.IsZero(), nil
	}
}

// TestCorpusScore measures main-text extraction on a scoring corpus
// (FACTBOT_READER_CORPUS, either layout of loadCorpus) and logs F1,
// precision and recall of each extractor of corpusExtractors (all, or
// those named in FACTBOT_EXTRACTORS, comma-separated) on the validation
// half (heldOut), the tuning half and all pages. A news benchmark is
// scored with its own rule (word 4-gram shingles, per-page precision and
// recall averaged); a snippet set by trafilatura's (a snippet counts when
// its white-space-normalised text is in the extracted text).
//
// FACTBOT_PREDICTIONS names a file for the reader's text, or an existing
// directory for every measured extractor's (NAME.json), written as
// {"KEY": {"articleBody": text}} for the corpus's own scorer.
// FACTBOT_SCORE names prediction files of that shape (comma-separated;
// ../shared/tools/baseline-reader writes them) to score on the same
// halves. Skipped when FACTBOT_READER_CORPUS is unset.
func TestCorpusScore(t *testing.T) {
	dir := os.Getenv("FACTBOT_READER_CORPUS")
	if dir == "" {
		t.Skip("FACTBOT_READER_CORPUS is not set")
	}
	kind, pages := loadCorpus(t, dir)
	for _, f := range strings.Split(os.Getenv("FACTBOT_SCORE"), ",") {
		if f == "" {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var pred map[string]struct {
			Body string `json:"articleBody"`
		}
		if err := json.Unmarshal(raw, &pred); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		texts := make([]string, len(pages))
		for i, pg := range pages {
			texts[i] = pred[pg.key].Body
		}
		logScores(t, filepath.Base(f), kind, pages, texts)
	}
	only := os.Getenv("FACTBOT_EXTRACTORS")
	for _, ex := range corpusExtractors() {
		if only != "" && !slices.Contains(strings.Split(only, ","), ex.name) {
			continue
		}
		texts := make([]string, len(pages))
		var spent time.Duration
		dated := 0
		for i, pg := range pages {
			u, err := url.Parse(pg.url)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			var hasDate bool
			texts[i], hasDate, err = ex.run(pg.body, u)
			spent += time.Since(start)
			if hasDate {
				dated++
			}
			if err != nil {
				t.Logf("%s %s: %v", ex.name, pg.key, err)
			}
		}
		logScores(t, ex.name, kind, pages, texts)
		t.Logf("%-28s %d pages in %s (%.0f pages/s), %d with a publication date", ex.name, len(pages), spent.Round(time.Millisecond), float64(len(pages))/spent.Seconds(), dated)
		writePredictions(t, ex.name, pages, texts)
	}
}

// logScores logs an extractor's scores on the validation half, the
// tuning half and all pages.
func logScores(t *testing.T, name, kind string, pages []corpusPage, texts []string) {
	for _, split := range []string{"validation", "tuning", "all"} {
		var s corpusScore
		n := 0
		for i, pg := range pages {
			if split == "all" || heldOut(pg.file) == (split == "validation") {
				s.add(kind, pg, texts[i])
				n++
			}
		}
		t.Logf("%-28s %-10s %3d pages: %s", name, split, n, s.String(kind))
	}
}

func writePredictions(t *testing.T, name string, pages []corpusPage, texts []string) {
	out := os.Getenv("FACTBOT_PREDICTIONS")
	if out == "" {
		return
	}
	if info, err := os.Stat(out); err == nil && info.IsDir() {
		out = filepath.Join(out, name+".json")
	} else if name != "reader" {
		return
	}
	pred := map[string]map[string]string{}
	for i, pg := range pages {
		pred[pg.key] = map[string]string{"articleBody": texts[i]}
	}
	b, err := json.Marshal(pred)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// corpusScore sums a corpus's scores over pages: per-page shingle
// precision and recall for a news benchmark, snippet counts for a
// snippet set.
type corpusScore struct {
	precisions, recalls []float64
	tp, fp, fn, tn      int
}

func (s *corpusScore) add(kind string, pg corpusPage, text string) {
	if kind == "articles" {
		tp, fp, fn := shingleMatch(pg.truth, text)
		if tp+fp > 0 {
			s.precisions = append(s.precisions, shingleRatio(tp, fp, fn))
		}
		if tp+fn > 0 {
			s.recalls = append(s.recalls, shingleRatio(tp, fn, fp))
		}
		return
	}
	text = normSpace(text)
	for _, w := range pg.with {
		if strings.Contains(text, normSpace(w)) {
			s.tp++
		} else {
			s.fn++
		}
	}
	for _, w := range pg.without {
		if strings.Contains(text, normSpace(w)) {
			s.fp++
		} else {
			s.tn++
		}
	}
}

func (s *corpusScore) String(kind string) string {
	var p, r float64
	if kind == "articles" {
		p, r = mean(s.precisions), mean(s.recalls)
	} else {
		p, r = float64(s.tp)/float64(max(s.tp+s.fp, 1)), float64(s.tp)/float64(max(s.tp+s.fn, 1))
	}
	f := 0.0
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	out := fmt.Sprintf("F1 %.3f  precision %.3f  recall %.3f", f, p, r)
	if kind != "articles" {
		out += fmt.Sprintf("  without kept %.3f  (with found %d, missed %d; without kept %d of %d)", float64(s.fp)/float64(max(s.fp+s.tn, 1)), s.tp, s.fn, s.fp, s.fp+s.tn)
	}
	return out
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// normSpace joins the words of s with single spaces; a space is any
// Unicode white space, as in the snippet set's scorer.
func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// wordToken is the benchmark scorer's token: a run of letters, digits and
// underscores.
var wordToken = regexp.MustCompile(`[\p{L}\p{N}_]+`)

// shingleMatch is the benchmark's string_shingle_matching: true and false
// positives and false negatives over word 4-grams, normalised to sum to 1.
func shingleMatch(truth, pred string) (tp, fp, fn float64) {
	ts, ps := shingles(truth), shingles(pred)
	for k, pc := range ps {
		tc := ts[k]
		tp += float64(min(tc, pc))
		fp += float64(max(0, pc-tc))
	}
	for k, tc := range ts {
		fn += float64(max(0, tc-ps[k]))
	}
	if s := tp + fp + fn; s > 0 {
		tp, fp, fn = tp/s, fp/s, fn/s
	}
	return tp, fp, fn
}

// shingleRatio is the benchmark's precision (hit, miss = tp, fp) or
// recall (tp, fn); other is the third count.
func shingleRatio(hit, miss, other float64) float64 {
	switch {
	case miss == 0 && other == 0:
		return 1
	case hit == 0 && miss == 0:
		return 0
	}
	return hit / (hit + miss)
}

func shingles(text string) map[string]int {
	toks := wordToken.FindAllString(text, -1)
	out := map[string]int{}
	for i := 0; i < max(1, len(toks)-3); i++ {
		end := min(i+4, len(toks))
		if end > i {
			out[strings.Join(toks[i:end], "\x00")]++
		}
	}
	return out
}

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}
