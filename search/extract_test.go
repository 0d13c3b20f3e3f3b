package search

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// hostilePage is about 2 MiB of short paragraphs in divs nested depth
// deep, repeated.
func hostilePage(depth int) []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>Deep</title></head><body>")
	for b.Len() < 2<<20 {
		b.WriteString(strings.Repeat("<div>", depth))
		for range 20 {
			b.WriteString("<p>Short line.</p>")
		}
		b.WriteString(strings.Repeat("</div>", depth))
	}
	b.WriteString("</body></html>")
	return []byte(b.String())
}

func TestExtractRefusesComplexPages(t *testing.T) {
	u, _ := url.Parse("https://news.example/deep")
	tests := []struct {
		name string
		body []byte
		want string
	}{
		{"500 nested divs", hostilePage(500), "nest more than 250 deep"},
		{"2 MiB of short paragraphs", hostilePage(1), "more than 100000 elements"},
		{"one deep nest", []byte(strings.Repeat("<div>", 300) + "<p>Deep.</p>"), "nest more than 250 deep"},
	}
	// Tag soup that the parser flattens is read.
	soup := `<html><body><article><h1>Links</h1>` + strings.Repeat(`<p>A paragraph long enough to read, with <a href="/x">a link left open`, 300) + `</article></body></html>`
	if _, err := extract([]byte(soup), "html", "text/html; charset=utf-8", u); err != nil {
		t.Errorf("extract(300 unclosed links) = %v, want it read", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := extract(tt.body, "html", "text/html; charset=utf-8", u)
			took := time.Since(start)
			if !errors.Is(err, ErrTooComplex) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("extract err = %v, want ErrTooComplex saying %q", err, tt.want)
			}
			if took > 2*time.Second {
				t.Errorf("refusing took %s", took)
			}
		})
	}
}

func TestCheckTree(t *testing.T) {
	for _, tt := range []struct {
		body string
		want string
	}{
		{strings.Repeat("<div>", 240), ""},
		{strings.Repeat("<div>", 300), "nest more than 250 deep"},
		{strings.Repeat("<b>x</b>", 60000), "more than 100000 nodes"},
	} {
		doc, err := html.Parse(strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		err = checkTree(doc)
		if tt.want == "" {
			if err != nil {
				t.Errorf("checkTree(%.20q...) = %v, want nil", tt.body, err)
			}
			continue
		}
		if !errors.Is(err, ErrTooComplex) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("checkTree(%.20q...) = %v, want ErrTooComplex saying %q", tt.body, err, tt.want)
		}
	}
}

// TestReaderRefusesComplexPage serves the hostile page: the reader says
// it is too complex to read, quickly.
func TestReaderRefusesComplexPage(t *testing.T) {
	body := hostilePage(500)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(body)
	}))
	defer srv.Close()
	r := NewReader(ReaderOptions{Resolver: testResolver, Dial: dialTo(srv), MaxBytes: 4 << 20})
	start := time.Now()
	_, err := r.Read(context.Background(), "http://news.example/deep")
	if !errors.Is(err, ErrTooComplex) {
		t.Errorf("Read err = %v, want ErrTooComplex", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Read took %s", took)
	}
}

func TestRunBoundedTimesOut(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	start := time.Now()
	_, err := runBounded(context.Background(), 50*time.Millisecond, func() (*Page, error) {
		<-release // an extraction that does not finish in time
		return &Page{}, nil
	})
	if !errors.Is(err, ErrTooComplex) || !strings.Contains(err.Error(), "took longer than 50ms") {
		t.Errorf("runBounded err = %v, want ErrTooComplex for the time limit", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("runBounded returned after %s, want about 50ms", took)
	}
}

func TestRunBoundedCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := runBounded(ctx, time.Minute, func() (*Page, error) {
		time.Sleep(time.Second)
		return &Page{}, nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("runBounded err = %v, want context.Canceled", err)
	}
}

// TestRunBoundedSlots checks that extractions left running after their
// callers gave up hold their slots, so no more than cap(extractSlots)
// run at once.
func TestRunBoundedSlots(t *testing.T) {
	release := make(chan struct{})
	for range cap(extractSlots) {
		runBounded(context.Background(), time.Millisecond, func() (*Page, error) {
			<-release
			return &Page{}, nil
		})
	}
	ran := false
	_, err := runBounded(context.Background(), 50*time.Millisecond, func() (*Page, error) {
		ran = true
		return &Page{}, nil
	})
	if !errors.Is(err, ErrTooComplex) {
		t.Errorf("runBounded with every slot taken: err = %v, want ErrTooComplex", err)
	}
	close(release)
	p, err := runBounded(context.Background(), 5*time.Second, func() (*Page, error) {
		return &Page{Title: "ok"}, nil
	})
	if err != nil || p.Title != "ok" {
		t.Errorf("runBounded after the slots were freed = %v, %v", p, err)
	}
	if ran {
		t.Errorf("an extraction ran while every slot was taken")
	}
}

func TestReaderExtractTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(articleHTML))
	}))
	defer srv.Close()
	r := NewReader(ReaderOptions{Resolver: testResolver, Dial: dialTo(srv), ExtractTimeout: time.Nanosecond})
	_, err := r.Read(context.Background(), "http://news.example/story")
	if !errors.Is(err, ErrTooComplex) || !strings.Contains(err.Error(), "took longer than 1ns") {
		t.Errorf("Read err = %v, want ErrTooComplex for the time limit", err)
	}
}

// TestExtractRules reads small pages that each exercise one setting of
// the reader's go-trafilatura options, and checks what their text keeps
// and drops.
func TestExtractRules(t *testing.T) {
	tests := []struct {
		page       string
		keep, drop []string
	}{
		{ // EnableFallback: trafilatura's own extraction misses a story in divs of a box named like page furniture; readability or DOM Distiller finds it
			page: "fallback.html",
			keep: []string{"open on Sundays from April", "from 11:00 to 16:00", "18,000 euros a year"},
			drop: []string{"© Town Post", "Most read", "Bridge closed for repairs"},
		},
		{ // the library's default mode: a story that its precision mode misses is read
			page: "precision-misses.html",
			keep: []string{"leaves at 7:40 instead of 7:15", "from 18:30 to 19:05"},
			drop: []string{"© Harbour Notes", "Contact", "Most read", "Harbour crane sold"},
		},
	}
	u, _ := url.Parse("https://news.example/story")
	for _, tt := range tests {
		t.Run(tt.page, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join("testdata", "rules", tt.page))
			if err != nil {
				t.Fatal(err)
			}
			p, err := extract(body, "html", "text/html; charset=utf-8", u)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.keep {
				if !strings.Contains(p.Text, s) {
					t.Errorf("text lacks %q:\n%s", s, p.Text)
				}
			}
			for _, s := range tt.drop {
				if strings.Contains(p.Text, s) {
					t.Errorf("text keeps %q:\n%s", s, p.Text)
				}
			}
		})
	}
}
