package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/internal/textrank"
)

// The knowledge store read as a stream finds what it found with every
// text kept: the same results, scores, snippets and pages as a reference
// that keeps every passage's text and ranks them with textrank.NewRanker,
// on a file with Windows line ends, blank lines, a repeated URL, a
// document without text, and passages that begin in the middle of a
// line.
func TestKnowledgeStoreStreamSameResults(t *testing.T) {
	dir := t.TempDir()
	type doc struct {
		url   string
		lines []string
	}
	var docs []doc
	for d := range 12 {
		var lines []string
		for l := range 3 + d%4 {
			line := fmt.Sprintf("  Harbour %d of town %d shipped %d tonnes of grain. Fishing boats left at dawn, said report %d.  ", l, d, 100*l+d, d*7+l)
			if l%2 == 1 { // three sentences: passages start mid-line
				line += fmt.Sprintf("Nets were mended at noon in town %d. ", d)
			}
			lines = append(lines, line)
		}
		docs = append(docs, doc{fmt.Sprintf("https://site%d.example/%d", d%3, d), lines})
	}
	var file strings.Builder
	for i, d := range docs {
		q, _ := jsonMarshal(map[string]any{"url": d.url, "url2text": d.lines})
		file.WriteString(q + "\r\n")
		if i == 3 {
			file.WriteString("\r\n   \r\n")
			dup, _ := jsonMarshal(map[string]any{"url": d.url, "url2text": []string{"a repeated URL is kept once"}})
			file.WriteString(dup + "\r\n")
			empty, _ := jsonMarshal(map[string]any{"url": "https://empty.example/", "url2text": []string{"  ", ""}})
			file.WriteString(empty + "\r\n")
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "7.json"), []byte(file.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	k, err := NewKnowledgeStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The reference: every passage's text kept.
	var texts, urls []string
	for _, d := range docs {
		_, sents, _ := cutDoc(d.lines)
		for i := 0; i < len(sents); i += passageSentences {
			texts = append(texts, strings.Join(sents[i:min(i+passageSentences, len(sents))], " "))
			urls = append(urls, d.url)
		}
	}
	rk := textrank.NewRanker(texts)
	ctx := context.Background()
	for _, query := range []string{"grain tonnes harbour", "fishing boats dawn report 21", "town 11"} {
		best := map[string]int{}
		scores := make([]float64, len(texts))
		for i := range texts {
			scores[i] = rk.Score(textrank.NewQuery(query), i)
			if j, ok := best[urls[i]]; scores[i] > 0 && (!ok || scores[i] > scores[j]) {
				best[urls[i]] = i
			}
		}
		var want []Result
		for u, i := range best {
			want = append(want, Result{URL: u, Snippet: texts[i], Score: scores[i]})
		}
		slices.SortFunc(want, func(a, b Result) int {
			if a.Score != b.Score {
				if a.Score > b.Score {
					return -1
				}
				return 1
			}
			return strings.Compare(a.URL, b.URL)
		})
		want = want[:min(len(want), 50)]
		resp, err := k.Search(ctx, Query{Text: query, Max: 50, Claim: "7"})
		if err != nil {
			t.Fatal(err)
		}
		var got []Result
		for _, r := range resp.Results {
			got = append(got, Result{URL: r.URL, Snippet: r.Snippet, Score: r.Score})
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Search(%q) (-reference +streamed):\n%s", query, diff)
		}
	}
	for _, d := range docs {
		p, err := k.ReadPage(ctx, PageRequest{URL: d.url, Claim: "7"})
		kept := keptLines(d.lines)
		if err != nil || p.Text != strings.Join(kept, "\n") || p.Title != truncateWords(kept[0], 20) {
			t.Errorf("ReadPage(%s) = %+v, %v; want its kept lines", d.url, p, err)
		}
	}
	if _, err := k.ReadPage(ctx, PageRequest{URL: "https://empty.example/", Claim: "7"}); err == nil {
		t.Error("a document without text was read")
	}
	// A file changed since the claim was loaded is an error, not another text.
	if err := os.WriteFile(filepath.Join(dir, "7.json"), []byte("\n"+file.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := k.ReadPage(ctx, PageRequest{URL: docs[2].url, Claim: "7"}); err == nil || !strings.Contains(err.Error(), "changed since it was loaded") {
		t.Errorf("ReadPage after the file changed: %v; want an error saying so", err)
	}
}

func jsonMarshal(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
