package search

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCorpusScore reads a directory of benchmark pages with ground truth
// (FACTBOT_CORPUS: html/KEY.html.gz and ground-truth.json mapping KEY to
// its url) and writes what the reader extracts as {"KEY": {"articleBody":
// text}} to FACTBOT_PREDICTIONS, for the benchmark's scorer. It is
// skipped when FACTBOT_CORPUS is unset.
func TestCorpusScore(t *testing.T) {
	dir := os.Getenv("FACTBOT_CORPUS")
	if dir == "" {
		t.Skip("FACTBOT_CORPUS is not set")
	}
	out := os.Getenv("FACTBOT_PREDICTIONS")
	if out == "" {
		out = filepath.Join(t.TempDir(), "predictions.json")
	}
	raw, err := os.ReadFile(filepath.Join(dir, "ground-truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var truth map[string]struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(raw, &truth); err != nil {
		t.Fatal(err)
	}
	pred := map[string]map[string]string{}
	var spent time.Duration
	dated := 0
	for key, v := range truth {
		body, err := readGzip(filepath.Join(dir, "html", key+".html.gz"))
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(v.URL)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		p, err := extract(body, "html", "text/html", u)
		spent += time.Since(start)
		text := ""
		if err != nil {
			t.Logf("%s: %v", key, err)
		} else {
			text = p.Text
			if !p.PublishedAt.IsZero() {
				dated++
			}
		}
		pred[key] = map[string]string{"articleBody": text}
	}
	b, err := json.Marshal(pred)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d pages in %s (%.0f pages/s), %d with a publication date; predictions in %s", len(truth), spent.Round(time.Millisecond), float64(len(truth))/spent.Seconds(), dated, out)
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
