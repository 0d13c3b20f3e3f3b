package search

import (
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestCorpusTuningDiff prints, for the pages of the tuning half only
// (never the validation half, see heldOut), what one extractor
// (FACTBOT_EXTRACTORS, default "reader") gets wrong: the "with" snippets
// it misses and the "without" snippets it keeps on a snippet set, and the
// lines of the hand-marked text it misses and the lines it adds on a news
// benchmark. It is how rules are looked for; skipped when
// FACTBOT_READER_CORPUS is unset.
func TestCorpusTuningDiff(t *testing.T) {
	dir := os.Getenv("FACTBOT_READER_CORPUS")
	if dir == "" {
		t.Skip("FACTBOT_READER_CORPUS is not set")
	}
	name := os.Getenv("FACTBOT_EXTRACTORS")
	if name == "" {
		name = "reader"
	}
	i := slices.IndexFunc(corpusExtractors(), func(e corpusExtractor) bool { return e.name == name })
	if i < 0 {
		t.Fatalf("no extractor %q", name)
	}
	ex := corpusExtractors()[i]
	kind, pages := loadCorpus(t, dir)
	for _, pg := range pages {
		if heldOut(pg.file) {
			continue
		}
		u, err := url.Parse(pg.url)
		if err != nil {
			t.Fatal(err)
		}
		text, _, err := ex.run(pg.body, u)
		if err != nil {
			t.Logf("%s: %v", pg.file, err)
		}
		var b strings.Builder
		if os.Getenv("FACTBOT_DROPPED") != "" {
			// the lines the reader's rules (boilerplate, edges) drop from the library's text
			base, _, _ := readerExtractor(readerConfig{lib: readerOptions})(pg.body, u)
			kept := map[string]bool{}
			for _, l := range strings.Split(text, "\n") {
				kept[l] = true
			}
			for _, l := range strings.Split(base, "\n") {
				if t := strings.TrimSpace(l); t != "" && !kept[l] {
					b.WriteString("  x DROPPED " + clip(t, 160) + "\n")
				}
			}
		}
		if kind == "articles" {
			var s corpusScore
			s.add(kind, pg, text)
			got := normSpace(strings.ToLower(text))
			for _, line := range strings.Split(pg.truth, "\n") {
				if l := normSpace(strings.ToLower(line)); len(l) > 20 && !strings.Contains(got, l) {
					b.WriteString("  - MISSED " + clip(l, 300) + "\n")
				}
			}
			truth := normSpace(strings.ToLower(pg.truth))
			for _, line := range strings.Split(text, "\n") {
				if l := normSpace(strings.ToLower(line)); l != "" && !strings.Contains(truth, l) {
					b.WriteString("  + ADDED  " + clip(l, 300) + "\n")
				}
			}
			t.Logf("%s %s\n%s", pg.file, s.String(kind), b.String())
			continue
		}
		norm := normSpace(text)
		for _, w := range pg.with {
			if !strings.Contains(norm, normSpace(w)) {
				b.WriteString("  - MISSED " + w + "\n")
			}
		}
		for _, w := range pg.without {
			if strings.Contains(norm, normSpace(w)) {
				b.WriteString("  + KEPT   " + w + "\n")
				for _, line := range strings.Split(text, "\n") {
					if strings.Contains(normSpace(line), normSpace(w)) {
						b.WriteString("      in   " + clip(line, 200) + "\n")
					}
				}
			}
		}
		if b.Len() > 0 {
			t.Logf("%s (%d chars)\n%s", pg.file, len(text), b.String())
		}
	}
}
