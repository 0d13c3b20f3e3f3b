package search

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	trafilatura "github.com/markusmobius/go-trafilatura"
)

func savedPages(tb testing.TB) map[string][]byte {
	tb.Helper()
	files, err := filepath.Glob("testdata/pages/*.html")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no saved pages: %v", err)
	}
	pages := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		pages[filepath.Base(f)] = b
	}
	return pages
}

// TestExtractSavedPages checks that extraction keeps the article and
// drops the page furniture on realistic pages.
func TestExtractSavedPages(t *testing.T) {
	u, _ := url.Parse("https://www.dailyexample.com/news/story")
	for name, body := range savedPages(t) {
		p, err := extract(body, "html", "text/html; charset=utf-8", u)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Site != "The Daily Example" || p.Published == "" || p.Byline == "" || p.Title == "" {
			t.Errorf("%s: metadata title %q site %q byline %q published %q", name, p.Title, p.Site, p.Byline, p.Published)
		}
		if len(p.Text) < 2000 {
			t.Errorf("%s: only %d bytes of text", name, len(p.Text))
		}
		for _, junk := range []string{"Limited time offer", "All rights reserved", "Footer link", "We use cookies", "sendBeacon", "Related stories", "Reply"} {
			if strings.Contains(p.Text, junk) {
				t.Errorf("%s: text keeps %q", name, junk)
			}
		}
	}
}

// BenchmarkReadSavedPage measures extraction throughput on the saved news
// pages, in pages per second on one core.
func BenchmarkReadSavedPage(b *testing.B) {
	u, _ := url.Parse("https://www.dailyexample.com/news/story")
	for name, body := range savedPages(b) {
		b.Run(strings.TrimSuffix(name, ".html"), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := extract(body, "html", "text/html; charset=utf-8", u); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// BenchmarkLibrarySavedPage measures go-trafilatura on the same pages,
// called as ../shared/tools/baseline-reader -fallback calls it (its own
// charset handling and parsing; the reader's options: the default mode
// with the fall-backs), so that the reader's time per page can be
// compared with the library's in one run:
// -bench 'ReadSavedPage|LibrarySavedPage'.
func BenchmarkLibrarySavedPage(b *testing.B) {
	u, _ := url.Parse("https://www.dailyexample.com/news/story")
	for name, body := range savedPages(b) {
		b.Run(strings.TrimSuffix(name, ".html"), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := trafilatura.Extract(bytes.NewReader(body), trafilatura.Options{OriginalURL: u, EnableFallback: true}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// TestExtractConcurrently reads the saved pages from several goroutines
// at once, as the bot does; run with -race.
func TestExtractConcurrently(t *testing.T) {
	u, _ := url.Parse("https://www.dailyexample.com/news/story")
	pages := savedPages(t)
	var wg sync.WaitGroup
	for range 4 {
		for name, body := range pages {
			wg.Go(func() {
				if p, err := extract(body, "html", "text/html; charset=utf-8", u); err != nil || len(p.Text) < 2000 {
					t.Errorf("%s: %v", name, err)
				}
			})
		}
	}
	wg.Wait()
}
