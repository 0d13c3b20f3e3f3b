package evidence

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSplitSentences: the sentences are the text's own, in order, none
// empty nor longer than the bound, and together they hold every
// non-space character of the text.
func FuzzSplitSentences(f *testing.F) {
	f.Add("The ministry denies reports that the school closed in 2019. It reopened in May.")
	f.Add("长城从月球上看不见。宇航员说很难看到。")
	f.Add("กำแพงเมืองจีนมองไม่เห็นจากดวงจันทร์ นักบินอวกาศกล่าว")
	f.Add(strings.Repeat("word ", 200))
	f.Add("Dr. Smith said 3.5% rose... Really?! Yes.\n\nNext paragraph")
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		ss := splitSentences(text)
		pos := 0
		var all strings.Builder
		for _, s := range ss {
			if s == "" || s != strings.TrimSpace(s) || len(s) > maxSentenceBytes || !utf8.ValidString(s) {
				t.Fatalf("splitSentences(%q): bad sentence %q", text, s)
			}
			i := strings.Index(text[pos:], s)
			if i < 0 {
				t.Fatalf("splitSentences(%q): %q is not in the text after byte %d", text, s, pos)
			}
			pos += i + len(s)
			all.WriteString(s)
		}
		if got, want := strings.Join(strings.Fields(all.String()), ""), strings.Join(strings.Fields(text), ""); got != want {
			t.Fatalf("splitSentences(%q) lost text: %q", text, got)
		}
	})
}

// FuzzParsePassageRef: a citation either parses to a run of at most
// MaxCitedRun sentences of one source, in order, or is refused; an ID
// printed by ID reads back as itself.
func FuzzParsePassageRef(f *testing.F) {
	for _, s := range []string{"p2.14", "p2.14-p2.16", "p2.14-16", "[p1.3], [p1.4]", "p2.14–p3.1", "p0.1", "p2.9-p2.3", "p1.1-p1.9", "2.14", "p2", ""} {
		f.Add(s, 2, 14)
	}
	f.Fuzz(func(t *testing.T, s string, n, i int) {
		ref, err := ParseRef(s)
		if err == nil {
			if ref.Source < 1 || ref.First < 0 || ref.Last < ref.First || ref.Last-ref.First >= MaxCitedRun {
				t.Fatalf("ParseRef(%q) = %+v", s, ref)
			}
		}
		if n < 1 || i < 0 || n > 1e6 || i > 1e6 {
			return
		}
		id := ID(n, i)
		if ref, err := ParseRef(id); err != nil || ref != (Ref{n, i, i}) {
			t.Fatalf("ParseRef(%q) = %+v, %v; want source %d sentence %d", id, ref, err, n, i)
		}
	})
}
