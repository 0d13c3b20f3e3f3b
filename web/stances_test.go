package web

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/internal/goldentest"
	"github.com/factbot-dev/factbot/store"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestRenderStances: each stance (supports, refutes, context), each place
// a quote is found, a search summary and a record saved before stances,
// in the check page's evidence list and map (testdata/stances.golden).
func TestRenderStances(t *testing.T) {
	rep := bottest.StancesReport()
	p := &checkPage{Check: &store.Check{Report: rep}}
	read := &pagesRead{}
	p.Map = drawMap(words.English, rep.Claims, read.isPDF)
	p.fillClaims(rep, read)
	var b bytes.Buffer
	if err := pages().ExecuteTemplate(&b, "check.html", p); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	i, j := strings.Index(s, `<ul class="evidence">`), strings.Index(s, "</svg>")
	if i < 0 || j < 0 {
		t.Fatalf("no evidence list and map in %s", s)
	}
	goldentest.Golden(t, filepath.Join("testdata", "stances.golden"), []byte(s[i:j+len("</svg>")]), *update)
}
