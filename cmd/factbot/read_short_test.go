package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/internal/goldentest"
)

// TestReadShortPages reads short pages with factbot read and compares its
// output with golden files (-update rewrites them): the page of issue 44,
// which go-trafilatura reads as its paragraphs and then the whole page
// glued ("ShortShort pageFirst sentence here.Second sentence here."), and
// a page it reads as its paragraph and then the whole body again. Each is
// read once, with its blocks apart.
func TestReadShortPages(t *testing.T) {
	for _, name := range []string{"glued", "repeated"} {
		t.Run(name, func(t *testing.T) {
			page, err := os.ReadFile(filepath.Join("testdata", "read", name+".html"))
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write(page)
			}))
			defer srv.Close()
			code, out, errs := readRun(t, map[string]string{"FACTBOT_ALLOW_PRIVATE_FETCH": "1"}, "read", srv.URL+"/"+name)
			if code != exitOK {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			out = strings.ReplaceAll(out, srv.URL, "http://127.0.0.1:PORT")
			out = fetchedAt.ReplaceAllString(out, "Fetched:   (time)")
			goldentest.Golden(t, filepath.Join("testdata", "read", name+".golden"), []byte(out), *update)
		})
	}
}

// fetchedAt is the time in factbot read's Fetched line, which changes
// from run to run.
var fetchedAt = regexp.MustCompile(`Fetched:\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+`)
