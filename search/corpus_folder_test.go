package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A corpus folder is indexed into a persistent index, searched, read by
// its file:// URLs, and re-indexed after a change.
func TestCorpusFolder(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("policy.md", "# Travel policy\n\nStaff may book economy class for flights under six hours.\n")
	write("minutes.html", `<html><head><title>Board minutes</title></head><body><article><p>The board approved the new budget of 4.2 million euros on 3 May 2024.</p><p>The vote was unanimous.</p></article></body></html>`)
	write("notes.txt", "Unrelated notes about the garden.\n")
	write("image.png", "not indexed")
	index := filepath.Join(t.TempDir(), "corpus.json")
	c, err := OpenCorpus(dir, CorpusOptions{Index: index})
	if err != nil {
		t.Fatal(err)
	}
	c.Refresh = time.Nanosecond
	res, err := c.Search(context.Background(), Query{Text: "budget approved by the board", Max: 5})
	if err != nil || len(res) == 0 || !strings.HasSuffix(res[0].URL, "/minutes.html") || !strings.Contains(res[0].Snippet, "4.2 million euros") {
		t.Fatalf("Search = %+v, %v; want the minutes first", res, err)
	}
	r := &CorpusReader{Corpus: c}
	p, err := r.Read(context.Background(), res[0].URL)
	if err != nil || !strings.Contains(p.Text, "unanimous") || p.Title != "Board minutes" {
		t.Errorf("Read = %+v, %v", p, err)
	}
	if _, err := r.Read(context.Background(), "https://example.com/"); err == nil {
		t.Error("a web URL was read with no Next reader")
	}
	if _, err := os.Stat(index); err != nil {
		t.Fatalf("no persistent index: %v", err)
	}

	// A change is picked up: the policy now allows business class.
	write("policy.md", "# Travel policy\n\nStaff may book business class for flights over six hours.\n")
	future := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "policy.md"), future, future)
	os.Remove(filepath.Join(dir, "notes.txt"))
	res, err = c.Search(context.Background(), Query{Text: "business class flights", Max: 5})
	if err != nil || len(res) == 0 || !strings.HasSuffix(res[0].URL, "/policy.md") || !strings.Contains(res[0].Snippet, "business class") {
		t.Fatalf("after the change: %+v, %v", res, err)
	}
	if res, _ := c.Search(context.Background(), Query{Text: "garden notes", Max: 5}); len(res) != 0 {
		t.Errorf("a removed file is still found: %+v", res)
	}

	// Reopened, the corpus reads its index: a file whose text changed
	// without a new size or time is not re-extracted.
	info, _ := os.Stat(filepath.Join(dir, "minutes.html"))
	write("minutes.html", strings.Repeat("x", int(info.Size())))
	os.Chtimes(filepath.Join(dir, "minutes.html"), info.ModTime(), info.ModTime())
	c2, err := OpenCorpus(dir, CorpusOptions{Index: index})
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := c2.Search(context.Background(), Query{Text: "budget approved", Max: 5}); len(res) == 0 || !strings.Contains(res[0].Snippet, "4.2 million") {
		t.Errorf("the reopened corpus did not use its index: %+v", res)
	}
	// The texts read from the index are kept in the file of texts, not in
	// memory, and read back from there.
	for path, f := range c2.files {
		if f.Text != "" || f.src != c2.docs.texts {
			t.Errorf("%s: its text kept in memory (%d bytes) or not in the file of texts", path, len(f.Text))
		}
	}
	if p, err := (&CorpusReader{Corpus: c2}).Read(context.Background(), fileURL(filepath.Join(dir, "minutes.html")).String()); err != nil || !strings.Contains(p.Text, "unanimous") {
		t.Errorf("Read from the reopened corpus = %+v, %v", p, err)
	}
}

// A corpus in scripts written without spaces is ranked as the web's pages
// are (internal/textrank: character bigrams, sentences by UAX #29): a
// question in Chinese or Thai finds its file, the best passage first,
// where words split on spaces and ". " found nothing.
func TestCorpusUnspacedScripts(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"wall.txt":   "长城是中国古代的军事防御工程。宇航员说，在近地轨道上肉眼几乎看不见长城。长城全长两万多公里。",
		"tea.txt":    "中国的茶文化历史悠久。绿茶和红茶都很受欢迎。",
		"river.txt":  "แม่น้ำเจ้าพระยาไหลผ่านกรุงเทพมหานคร แม่น้ำสายนี้มีความยาวประมาณสามร้อยกิโลเมตร",
		"temple.txt": "วัดพระแก้วตั้งอยู่ในพระบรมมหาราชวัง นักท่องเที่ยวจำนวนมากมาเยี่ยมชมทุกปี",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := OpenCorpus(dir, CorpusOptions{Index: filepath.Join(t.TempDir(), "index.json")})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query, file, snippet string
	}{
		{"宇航员在太空能看见长城吗", "/wall.txt", "肉眼几乎看不见长城"},
		{"绿茶", "/tea.txt", "绿茶和红茶"},
		{"แม่น้ำเจ้าพระยายาวเท่าไร", "/river.txt", "แม่น้ำเจ้าพระยา"},
		{"นักท่องเที่ยววัดพระแก้ว", "/temple.txt", "วัดพระแก้ว"},
	} {
		res, err := c.Search(context.Background(), Query{Text: tc.query, Max: 5})
		if err != nil || len(res) == 0 || !strings.HasSuffix(res[0].URL, tc.file) || !strings.Contains(res[0].Snippet, tc.snippet) {
			t.Errorf("Search(%q) = %+v, %v; want %s first, its passage holding %q", tc.query, res, err, tc.file, tc.snippet)
		}
	}
}
