package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/search/searchtest"
)

// TestMain runs a child's measured work instead of the tests when asked
// (BenchmarkKnowledgeStorePeak, BenchmarkCorpusPeak).
func TestMain(m *testing.M) {
	if dir := os.Getenv("SEARCH_TEST_KSTORE_LOAD"); dir != "" {
		os.Exit(reportPeak(childLoadClaim(dir)))
	}
	if dir := os.Getenv("SEARCH_TEST_CORPUS_INDEX"); dir != "" {
		os.Exit(reportPeak(childIndexCorpus(dir)))
	}
	os.Exit(m.Run())
}

// childLoadClaim holds claim "0" of the store in dir, searches it and
// reads its first result, as a check does: the work whose peak resident
// set the benchmark measures.
func childLoadClaim(dir string) int {
	k, err := NewKnowledgeStore(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if os.Getenv("SEARCH_TEST_KSTORE_IDLE") != "" {
		return 0 // the baseline: the test binary started
	}
	release, err := k.Hold("0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer release()
	ctx := context.Background()
	res, err := k.Search(ctx, Query{Text: searchtest.Word(40) + " " + searchtest.Word(400) + " " + searchtest.Word(4000), Max: 10, Claim: "0"})
	if err != nil || len(res.Results) == 0 {
		fmt.Fprintln(os.Stderr, "search:", res, err)
		return 1
	}
	if _, err := k.ReadPage(ctx, PageRequest{URL: res.Results[0].URL, Claim: "0"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// reportPeak writes the child's largest resident set so far (VmHWM of
// /proc/self/status, in kB) to standard output, for peakRSS, and returns
// code.
func reportPeak(code int) int {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for l := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			fmt.Print(strings.TrimSpace(v))
			return code
		}
	}
	fmt.Fprintln(os.Stderr, "no VmHWM in /proc/self/status")
	return 1
}

// peakRSS runs the test binary's child work with env and returns its
// largest resident set in bytes, as the child itself reads it (VmHWM,
// reportPeak). The kernel's rusage is not used: a child started by vfork,
// as Go starts every process, carries the benchmark's own peak (its
// generated files) into its figure.
func peakRSS(tb testing.TB, env ...string) int64 {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("child: %v", err)
	}
	kb, err := strconv.ParseInt(strings.TrimSuffix(string(out), " kB"), 10, 64)
	if err != nil {
		tb.Fatalf("child's peak %q: %v", out, err)
	}
	return kb << 10
}

// BenchmarkKnowledgeStorePeak measures what holding one claim of the
// knowledge store costs, as a check holds it (load, search, read a page):
// the largest resident set of a process that does only that, less that
// of the same process idle, beside the claim's file and its largest
// document; and, in this process, what the load allocates (-benchmem).
// The claim's file is 60 MB of documents of 512 KB, as the issue's, and
// twice that (what grows with the file).
func BenchmarkKnowledgeStorePeak(b *testing.B) {
	for _, fileMB := range []int{60, 120} {
		b.Run(fmt.Sprintf("file=%dMB", fileMB), func(b *testing.B) {
			const docKB = 512
			dir := b.TempDir()
			searchtest.WriteLargeClaim(b, dir, "0", fileMB, docKB)
			st, err := os.Stat(filepath.Join(dir, "0.json"))
			if err != nil {
				b.Fatal(err)
			}
			idle := peakRSS(b, "SEARCH_TEST_KSTORE_LOAD="+dir, "SEARCH_TEST_KSTORE_IDLE=1")
			peak := peakRSS(b, "SEARCH_TEST_KSTORE_LOAD="+dir)
			k, err := NewKnowledgeStore(dir)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				release, err := k.Hold("0")
				if err != nil {
					b.Fatal(err)
				}
				release()
			}
			b.ReportMetric(float64(st.Size())/(1<<20), "MB-file")
			b.ReportMetric(float64(docKB)/1024, "MB-largest-doc")
			b.ReportMetric(float64(peak-idle)/(1<<20), "MB-peak-RSS-over-idle")
		})
	}
}

// BenchmarkKnowledgeStoreSearch measures one search of a held claim of
// 60 MB (documents of 512 KB), as a check makes several: every passage
// scored, the ranker's term counts read back from its file (from the page
// cache), the snippets cut again from their documents.
func BenchmarkKnowledgeStoreSearch(b *testing.B) {
	dir := b.TempDir()
	searchtest.WriteLargeClaim(b, dir, "0", 60, 512)
	k, err := NewKnowledgeStore(dir)
	if err != nil {
		b.Fatal(err)
	}
	release, err := k.Hold("0")
	if err != nil {
		b.Fatal(err)
	}
	defer release()
	q := Query{Text: searchtest.Word(40) + " " + searchtest.Word(400) + " " + searchtest.Word(4000), Max: 10, Claim: "0"}
	for b.Loop() {
		if res, err := k.Search(context.Background(), q); err != nil || len(res.Results) == 0 {
			b.Fatal(res, err)
		}
	}
}

// childIndexCorpus indexes the corpus in dir/docs, with its index kept in
// dir/index.json, and searches it once: the work whose peak resident set
// BenchmarkCorpusPeak measures.
func childIndexCorpus(dir string) int {
	c, err := OpenCorpus(filepath.Join(dir, "docs"), CorpusOptions{Index: filepath.Join(dir, "index.json")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if os.Getenv("SEARCH_TEST_KSTORE_IDLE") != "" {
		return 0
	}
	if err := c.IndexErr(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	res, err := c.Search(context.Background(), Query{Text: searchtest.Word(40) + " " + searchtest.Word(400), Max: 10})
	if err != nil || len(res) == 0 {
		fmt.Fprintln(os.Stderr, "search:", res, err)
		return 1
	}
	return 0
}

// BenchmarkCorpusPeak measures what indexing a corpus of files of 31 MiB
// costs, as the (text files), one and four of them: the largest
// resident set of a process that opens the corpus (extracting the files'
// texts, cutting and indexing them, saving the index) and searches it
// once, less that of the same process with an empty folder.
func BenchmarkCorpusPeak(b *testing.B) {
	for _, run := range []struct {
		kind  string
		files int
	}{{"txt", 1}, {"txt", 4}} {
		kind := run.kind
		b.Run(fmt.Sprintf("%s/files=%d", kind, run.files), func(b *testing.B) {
			dir := b.TempDir()
			docs := filepath.Join(dir, "docs")
			if err := os.Mkdir(docs, 0o755); err != nil {
				b.Fatal(err)
			}
			idle := peakRSS(b, "SEARCH_TEST_CORPUS_INDEX="+dir, "SEARCH_TEST_KSTORE_IDLE=1")
			searchtest.WriteLargeClaim(b, dir, "claim", 31, 64)
			data, err := os.ReadFile(filepath.Join(dir, "claim.json"))
			if err != nil {
				b.Fatal(err)
			}
			var text strings.Builder
			if kind == "html" {
				text.WriteString("<!doctype html><html><head><title>Harbour report</title></head><body><article>\n")
			}
			for l := range strings.Lines(string(data)) {
				var rec struct {
					URL2Text []string `json:"url2text"`
				}
				if json.Unmarshal([]byte(l), &rec) != nil {
					b.Fatal("bad generated line")
				}
				for _, para := range rec.URL2Text {
					if kind == "html" {
						para = "<p>" + para + "</p>"
					}
					text.WriteString(para + "\n\n")
				}
			}
			if kind == "html" {
				text.WriteString("</article></body></html>\n")
			}
			body := text.String()
			if len(body) > corpusMaxFile {
				body = body[:corpusMaxFile-64<<10]
				if kind == "html" {
					body = body[:strings.LastIndex(body, "</p>")+4] + "\n</article></body></html>\n"
				}
			}
			for i := range run.files {
				if err := os.WriteFile(filepath.Join(docs, fmt.Sprintf("report%d.%s", i, kind)), []byte(body), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			var peak int64
			for b.Loop() {
				os.Remove(filepath.Join(dir, "index.json"))
				peak = max(peak, peakRSS(b, "SEARCH_TEST_CORPUS_INDEX="+dir))
			}
			b.ReportMetric(float64(len(body))/(1<<20), "MB-file")
			b.ReportMetric(float64(peak-idle)/(1<<20), "MB-peak-RSS-over-idle")
		})
	}
}

// writeCorpusFile writes exactly what json.Marshal writes, its text
// escaped a piece at a time: across the pieces' edges, multi-byte
// characters, HTML characters, U+2028 and bytes that are not UTF-8 come
// out the same.
func TestWriteCorpusFile(t *testing.T) {
	piece := strings.Repeat("a", 64<<10-1)
	for name, text := range map[string]string{
		"empty":            "",
		"short":            `He said "<b>&</b>"` + "\n\tand left\u2028.",
		"rune across edge": piece + "é" + piece + "€𝄞" + strings.Repeat("b", 64<<10) + "日本",
		"invalid across":   piece + "\xe2\x82" + piece + "\xff\xfe" + "tail",
	} {
		f := &corpusFile{Size: 42, Title: "T <1>", Published: "2026-12-01", Text: text}
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := writeCorpusFile(&b, f); err != nil {
			t.Fatal(err)
		}
		if b.String() != string(want) {
			t.Errorf("%s: writeCorpusFile differs from json.Marshal (%d and %d bytes)", name, b.Len(), len(want))
		}
	}
}

// A text file read as a stream (indexTextFile) gives the text and title
// the page reader's extractor gives of it whole (indexFile).
func TestIndexTextFileAsExtract(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"plain":       "Title line\nsecond line\n\n\n\nafter blanks  \n",
		"crlf":        "\r\n  Title\r\nbody\r\n\r\nmore\r\n",
		"no newline":  "one line only",
		"blank first": "\n\n   \n\tfirst real line\u00a0\nnext",
		"empty":       "",
		"utf-8 bom":   "\ufeffTitle\nbody",
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".txt")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := indexFile(path, "text", []byte(text), info)
		if err != nil {
			t.Fatal(err)
		}
		got, err := indexTextFile(path, strings.NewReader(text), info)
		if err != nil {
			t.Fatal(err)
		}
		if got.Text != want.Text || got.Title != want.Title || got.Published != want.Published {
			t.Errorf("%s: streamed %q (title %q), extracted %q (title %q)", name, got.Text, got.Title, want.Text, want.Title)
		}
	}
}
