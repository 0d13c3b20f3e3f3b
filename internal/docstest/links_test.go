// Package docstest tests the repository's Markdown documentation: every
// relative link in README.md, ARCHITECTURE.md and docs/*.md resolves to a
// file of the repository and, when it names one, to an anchor that GitHub
// gives a heading of that file; and the README's first screen keeps the
// commands to run factbot and to test it.
package docstest

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// root is the repository, seen from this package's directory.
const root = "../.."

// docs lists the Markdown files whose links are checked, relative to root.
func docs(t *testing.T) []string {
	t.Helper()
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md", "ARCHITECTURE.md"}
	for _, m := range more {
		rel, err := filepath.Rel(root, m)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	fenceRE   = regexp.MustCompile("^ {0,3}(```+|~~~+)")
	headingRE = regexp.MustCompile(`^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)
	// An inline link or image, [text](target) or [text](target "title"),
	// and a link reference definition, [label]: target.
	inlineRE = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refDefRE = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
	htmlIDRE = regexp.MustCompile(`<a\s+(?:name|id)="([^"]+)"`)
	schemeRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	lineRE   = regexp.MustCompile(`^L[0-9]+(-L[0-9]+)?$`)
	mdLinkRE = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// prose returns a Markdown text without its fenced code blocks and, when
// spans is true, without its inline code spans (each replaced by a space),
// and the lines of its ATX headings.
func prose(text string, spans bool) (string, []string) {
	var out []string
	var headings []string
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		if m := fenceRE.FindStringSubmatch(line); m != nil {
			switch {
			case fence == "":
				fence = m[1]
				continue
			case m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.TrimSpace(line) == m[1]:
				fence = ""
				continue
			}
		}
		if fence != "" {
			continue
		}
		if m := headingRE.FindStringSubmatch(line); m != nil {
			headings = append(headings, m[2])
		}
		out = append(out, line)
	}
	s := strings.Join(out, "\n")
	if spans {
		s = withoutCodeSpans(s)
	}
	return s, headings
}

// withoutCodeSpans replaces each inline code span (a run of n backticks up
// to the next run of exactly n) with a space.
func withoutCodeSpans(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' {
			b.WriteByte(s[i])
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		end := -1
		for j := i + n; j < len(s); {
			if s[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(s) && s[j+m] == '`' {
				m++
			}
			if m == n {
				end = j + m
				break
			}
			j += m
		}
		if end < 0 { // no closing run: the backticks are literal
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteByte(' ')
		i = end
	}
	return b.String()
}

// slug is GitHub's anchor of a heading's text: its links reduced to their
// text, lower-cased, every character but letters, digits, '-' and '_'
// dropped, and each space made a '-'.
func slug(heading string) string {
	heading = mdLinkRE.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.M, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors lists a Markdown text's anchors as GitHub makes them: a heading's
// slug, and slug-1, slug-2, … for its repetitions; and explicit <a name|id>.
func anchors(text string) map[string]bool {
	_, headings := prose(text, false)
	set := map[string]bool{}
	seen := map[string]int{}
	for _, h := range headings {
		s := slug(h)
		a := s
		if n := seen[s]; n > 0 {
			a = fmt.Sprintf("%s-%d", s, n)
		}
		seen[s]++
		set[a] = true
	}
	for _, m := range htmlIDRE.FindAllStringSubmatch(text, -1) {
		set[strings.ToLower(m[1])] = true
	}
	return set
}

// links lists the targets of a Markdown text's links and images, outside
// code.
func links(text string) []string {
	s, _ := prose(text, true)
	var targets []string
	for _, m := range inlineRE.FindAllStringSubmatch(s, -1) {
		targets = append(targets, m[1])
	}
	for _, m := range refDefRE.FindAllStringSubmatch(s, -1) {
		targets = append(targets, m[1])
	}
	return targets
}

func TestDocsSlug(t *testing.T) {
	for _, tc := range []struct{ heading, want string }{
		{"What it does", "what-it-does"},
		{`Many workspaces ("Add to Slack")`, "many-workspaces-add-to-slack"},
		{"1. Create the application and the bot", "1-create-the-application-and-the-bot"},
		{"Main text: how it is measured, and what each rule of the reader earns", "main-text-how-it-is-measured-and-what-each-rule-of-the-reader-earns"},
		{"OpenAI-compatible models (local or hosted)", "openai-compatible-models-local-or-hosted"},
		{"`factbot eval` and [AVeriTeC](https://fever.ai)", "factbot-eval-and-averitec"},
		{"Threads, reactions and pictures", "threads-reactions-and-pictures"},
		{"Zürich — 東京 snake_case", "zürich--東京-snake_case"},
	} {
		if got := slug(tc.heading); got != tc.want {
			t.Errorf("slug(%q) = %q, want %q", tc.heading, got, tc.want)
		}
	}
}

func TestDocsAnchors(t *testing.T) {
	text := "# Title\n\n## Usage\n\n```sh\n# not a heading\n```\n\n### Usage\n\n## Usage ##\n\n<a name=\"Old-Name\"></a>\n"
	got := anchors(text)
	want := map[string]bool{"title": true, "usage": true, "usage-1": true, "usage-2": true, "old-name": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("anchors (-want +got):\n%s", diff)
	}
}

func TestDocsLinkTargets(t *testing.T) {
	text := "See [a](docs/a.md#x), ![pic](p.png \"title\") and <https://example.org>.\n" +
		"`[not](a-link.md)` and ``[nor `this`](one.md)``\n\n```\n[no](fenced.md)\n```\n\n[ref]: ../ref.md\n"
	want := []string{"docs/a.md#x", "p.png", "../ref.md"}
	if diff := cmp.Diff(want, links(text)); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
}

// Every relative link of the README, ARCHITECTURE.md and docs/ names a file
// of the repository and, with a #fragment, one of that file's anchors.
func TestDocsLinksResolve(t *testing.T) {
	anchorsOf := map[string]map[string]bool{}
	checked := 0
	for _, name := range docs(t) {
		for _, target := range links(read(t, name)) {
			if schemeRE.MatchString(target) || strings.HasPrefix(target, "//") {
				continue // outside the repository: not fetched by tests
			}
			checked++
			file, frag, _ := strings.Cut(target, "#")
			dest := name
			if file != "" {
				dest = path.Clean(path.Join(path.Dir(name), file))
				if dest == ".." || strings.HasPrefix(dest, "../") {
					t.Errorf("%s: link %q leaves the repository", name, target)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dest))); err != nil {
					t.Errorf("%s: link %q: no file %s", name, target, dest)
					continue
				}
			}
			if frag == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				if !lineRE.MatchString(frag) {
					t.Errorf("%s: link %q: %s is not Markdown, so #%s is no anchor of it", name, target, dest, frag)
				}
				continue
			}
			if anchorsOf[dest] == nil {
				anchorsOf[dest] = anchors(read(t, dest))
			}
			if !anchorsOf[dest][frag] {
				t.Errorf("%s: link %q: %s has no anchor #%s", name, target, dest, frag)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found: the link finder is broken")
	}
	t.Logf("%d relative links checked in %d files", checked, len(docs(t)))
}

// The README's first screen shows how to run factbot and how to test it.
func TestDocsReadmeFirstScreen(t *testing.T) {
	lines := strings.Split(read(t, "README.md"), "\n")
	first := strings.Join(lines[:min(len(lines), 25)], "\n")
	for _, want := range []string{
		`go run ./cmd/factbot check "The Great Wall of China is visible from space with the naked eye"`,
		"go test ./...",
	} {
		if !strings.Contains(first, want) {
			t.Errorf("README's first 25 lines lack %q", want)
		}
	}
}
