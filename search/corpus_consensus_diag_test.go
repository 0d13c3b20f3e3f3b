package search

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/go-shiori/dom"
	readability "github.com/go-shiori/go-readability"
	distiller "github.com/markusmobius/go-domdistiller"
	"golang.org/x/net/html"
)

// TestCorpusConsensusDiag is a tuning-half-only diagnostic: for each line
// of the reader's text it records where the line sits, how long it is,
// whether readability's and DOM Distiller's texts hold it, and whether it
// is article text or boilerplate by the corpus's marks.
func TestCorpusConsensusDiag(t *testing.T) {
	dir := os.Getenv("FACTBOT_READER_CORPUS")
	if dir == "" || os.Getenv("FACTBOT_DIAG") == "" {
		t.Skip("FACTBOT_READER_CORPUS or FACTBOT_DIAG is not set")
	}
	kind, pages := loadCorpus(t, dir)
	counts := map[string][2]int{}
	var examples []string
	for _, pg := range pages {
		if heldOut(pg.file) {
			continue
		}
		u, _ := url.Parse(pg.url)
		text, _, _ := readerExtractor(readerSettings)(pg.body, u)
		doc, err := html.Parse(bytes.NewReader(mustUTF8(pg.body)))
		if err != nil {
			continue
		}
		var rtext, dtext string
		if r, err := readability.FromDocument(doc, u); err == nil && r.Node != nil {
			rtext = noSpace(nodeText(r.Node))
		}
		if r, err := distiller.Apply(dom.Clone(doc, true), &distiller.Options{OriginalURL: u, SkipPagination: true}); err == nil && r != nil && r.Node != nil {
			dtext = noSpace(nodeText(r.Node))
		}
		if kind != "articles" {
			nt := noSpace(text)
			where := func(w string) string {
				w = noSpace(w)
				r, d := strings.Contains(rtext, w), strings.Contains(dtext, w)
				switch {
				case r && d:
					return "both"
				case r:
					return "read"
				case d:
					return "dist"
				}
				return "none"
			}
			for _, w := range pg.with {
				if !strings.Contains(nt, noSpace(w)) {
					k := "SNIP missed-with in " + where(w)
					c := counts[k]
					c[0]++
					counts[k] = c
					if os.Getenv("FACTBOT_DIAG") == "4" && where(w) != "none" {
						examples = append(examples, fmt.Sprintf("%s %s | %s", k, pg.file, clip(w, 140)))
					}
				}
			}
			for _, w := range pg.without {
				if strings.Contains(nt, noSpace(w)) {
					k := "SNIP kept-without in " + where(w)
					c := counts[k]
					c[0]++
					counts[k] = c
				}
			}
		}
		var lines []string
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		truth := normSpace(strings.ToLower(pg.truth))
		labelOf := func(nl string) string {
			if kind == "articles" {
				if strings.Contains(truth, strings.ToLower(nl)) {
					return "good"
				}
				return "bad"
			}
			for _, w := range pg.with {
				if strings.Contains(nl, normSpace(w)) {
					return "good"
				}
			}
			for _, w := range pg.without {
				if strings.Contains(nl, normSpace(w)) {
					return "bad"
				}
			}
			return "unk"
		}
		for _, variant := range []string{"either", "read"} {
			agreed := func(l string) bool {
				ns := noSpace(l)
				if variant == "read" {
					return len(rtext) < 250 || strings.Contains(rtext, ns)
				}
				return (len(rtext) < 250 && len(dtext) < 250) || strings.Contains(rtext, ns) || strings.Contains(dtext, ns)
			}
			mark := func(i int, end string) {
				nl := normSpace(lines[i])
				ln := "long"
				switch n := len([]rune(nl)); {
				case n <= 80:
					ln = "short"
				case n <= 200:
					ln = "medium"
				}
				lab := labelOf(nl)
				k := "EDGE " + variant + " " + end + " " + ln + " " + lab
				c := counts[k]
				c[0]++
				counts[k] = c
				if os.Getenv("FACTBOT_DIAG") == "3" && variant == "read" {
					examples = append(examples, fmt.Sprintf("%s %s | %s", k, pg.file, clip(nl, 140)))
				}
			}
			i := 0
			for ; i < len(lines) && !agreed(lines[i]); i++ {
				mark(i, "head")
			}
			for j := len(lines) - 1; j > i && !agreed(lines[j]); j-- {
				mark(j, "tail")
			}
		}
		for i, l := range lines {
			nl := normSpace(l)
			label := ""
			if kind == "articles" {
				if strings.Contains(truth, strings.ToLower(nl)) {
					label = "good"
				} else {
					label = "bad"
				}
			} else {
				for _, w := range pg.with {
					if strings.Contains(nl, normSpace(w)) {
						label = "good"
					}
				}
				for _, w := range pg.without {
					if label == "" && strings.Contains(nl, normSpace(w)) {
						label = "bad"
					}
				}
			}
			if label == "" {
				continue
			}
			pos := "mid"
			switch {
			case i < 2:
				pos = "head"
			case i >= len(lines)-3:
				pos = "tail"
			}
			ln := "long"
			switch n := len([]rune(nl)); {
			case n <= 80:
				ln = "short"
			case n <= 200:
				ln = "medium"
			}
			agree := "none"
			inR, inD := strings.Contains(rtext, noSpace(nl)), strings.Contains(dtext, noSpace(nl))
			switch {
			case len(rtext) < 250 && len(dtext) < 250:
				agree = "na"
			case inR && inD:
				agree = "both"
			case inR:
				agree = "read"
			case inD:
				agree = "dist"
			}
			k := fmt.Sprintf("%-5s %-6s %-4s", pos, ln, agree)
			c := counts[k]
			if label == "good" {
				c[0]++
			} else {
				c[1]++
			}
			counts[k] = c
			if agree == "none" {
				examples = append(examples, fmt.Sprintf("%s %s %s | %s", label, k, pg.file, clip(nl, 140)))
			}
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s good %4d bad %4d\n", k, counts[k][0], counts[k][1])
	}
	t.Logf("\n%s", b.String())
	if os.Getenv("FACTBOT_DIAG") >= "2" {
		sort.Strings(examples)
		t.Logf("\n%s", strings.Join(examples, "\n"))
	}
}

func mustUTF8(b []byte) []byte {
	u, err := toUTF8(b, "text/html")
	if err != nil {
		return b
	}
	return u
}

func noSpace(s string) string { return strings.Join(strings.Fields(s), "") }

// TestCorpusEdgesDropped lists, on the tuning half, the lines trimEdges
// drops from the reader's text, with their position from the edge.
func TestCorpusEdgesDropped(t *testing.T) {
	dir := os.Getenv("FACTBOT_READER_CORPUS")
	if dir == "" || os.Getenv("FACTBOT_DIAG") == "" {
		t.Skip("FACTBOT_READER_CORPUS or FACTBOT_DIAG is not set")
	}
	kind, pages := loadCorpus(t, dir)
	for _, pg := range pages {
		if heldOut(pg.file) {
			continue
		}
		u, _ := url.Parse(pg.url)
		a, _, _ := readerExtractor(readerSettings)(pg.body, u)
		b, _, _ := readerExtractor(readerConfig{lib: readerOptions, boilerplate: true, edges: true})(pg.body, u)
		if a == b {
			continue
		}
		kept := map[string]bool{}
		for _, l := range strings.Split(b, "\n") {
			kept[l] = true
		}
		var lines []string
		for _, l := range strings.Split(a, "\n") {
			if strings.TrimSpace(l) != "" {
				lines = append(lines, l)
			}
		}
		var out strings.Builder
		truth := normSpace(strings.ToLower(pg.truth))
		for i, l := range lines {
			if kept[l] {
				continue
			}
			lab := "?"
			nl := normSpace(l)
			if kind == "articles" {
				lab = "bad"
				if strings.Contains(truth, strings.ToLower(nl)) {
					lab = "GOOD"
				}
			} else {
				for _, w := range pg.with {
					if strings.Contains(nl, normSpace(w)) {
						lab = "GOOD"
					}
				}
				for _, w := range pg.without {
					if lab == "?" && strings.Contains(nl, normSpace(w)) {
						lab = "bad"
					}
				}
			}
			fmt.Fprintf(&out, "  %4s %3d/%3d %s\n", lab, i, len(lines), clip(nl, 120))
		}
		t.Logf("%s\n%s", pg.file, out.String())
	}
}
