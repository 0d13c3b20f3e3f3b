package web

import (
	"fmt"
	"strings"

	"golang.org/x/text/width"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
)

// evidenceMap is the evidence map laid out for the SVG template: claims
// in the left column, the sources they cite in the right, one edge per
// piece of evidence. All text is escaped by the template.
type evidenceMap struct {
	// Class is "wide" (two columns) or "stacked" (one column, for
	// phones): the page has both and its stylesheet shows one.
	Class         string
	Width, Height int
	Claims        []mapNode
	Sources       []mapNode
	Edges         []mapEdge
	lang          words.Lang // the language of its words
}

type mapNode struct {
	X, Y, W, H int
	// TX and TY place the first text line; Lines follow each 16 px down.
	TX, TY int
	Lines  []mapLine
	Class  string
	Title  string // the full text, shown on hover
	Badge  string // a claim's verdict; a source's marks
	BX     int    // the badge's x (right-aligned)
	BY     int
}

type mapLine struct {
	Text  string
	Class string // "t" for titles, "h" for a source's host
	X, Y  int
}

type mapEdge struct {
	D     string // the path
	Class string
	Title string
}

// Map geometry, in SVG user units.
const (
	mapWidth    = 760
	colWidth    = 300
	srcX        = mapWidth - colWidth - 8
	lineHeight  = 16
	nodePad     = 10
	nodeGap     = 14
	claimChars  = 40 // characters per line of a claim
	claimLines  = 3
	sourceChars = 38
)

// drawMap lays out the evidence of the claims, its words in l; pdf says which source URLs
// are PDFs. It returns nil when there is no evidence to draw.
func drawMap(l words.Lang, claims []*factcheck.Verdict, pdf func(url string) bool) *evidenceMap {
	m := &evidenceMap{Width: mapWidth, Class: "wide", lang: l}
	links, claimsHeight := m.placeClaims(claims, pdf)
	if len(links) == 0 {
		return nil
	}
	sourcesHeight := m.placeSources()
	m.centre(claimsHeight, sourcesHeight)
	m.drawEdges(links)
	return m
}

// link is one piece of evidence: from a claim (index in Claims) to a
// source (index in Sources).
type link struct {
	claim, src int
	e          factcheck.Evidence
}

// placeClaims lays out the claims' column top down, collects each source
// once (a published fact-check wins its node's style) and returns the
// links and the column's height.
func (m *evidenceMap) placeClaims(claims []*factcheck.Verdict, pdf func(url string) bool) ([]link, int) {
	srcIndex := map[string]int{}
	var links []link
	y := 8
	for i, v := range claims {
		if v == nil {
			continue
		}
		lines := wrap(fmt.Sprintf("%d. %s", i+1, v.Claim), claimChars, claimLines)
		n := mapNode{X: 8, Y: y, W: colWidth, H: 2*nodePad + 18 + lineHeight*len(lines), Class: "claim v-" + string(v.Verdict), Title: v.Claim,
			Badge: bot.Emoji(v.Verdict) + " " + m.lang.Label(v.Verdict)}
		n.TX, n.TY = n.X+nodePad, n.Y+nodePad+12
		for j, l := range lines {
			n.Lines = append(n.Lines, mapLine{Text: l, Class: "t", X: n.TX, Y: n.TY + j*lineHeight})
		}
		n.BX, n.BY = n.X+nodePad, n.TY+len(lines)*lineHeight+4
		m.Claims = append(m.Claims, n)
		y += n.H + nodeGap
		for _, e := range v.Evidence {
			k, ok := srcIndex[e.SourceURL]
			if !ok {
				k = len(m.Sources)
				srcIndex[e.SourceURL] = k
				m.Sources = append(m.Sources, sourceNode(m.lang, e, pdf(e.SourceURL)))
			} else if e.Publisher != "" && !strings.Contains(m.Sources[k].Class, "factcheck") {
				m.Sources[k] = sourceNode(m.lang, e, pdf(e.SourceURL))
			}
			links = append(links, link{claim: len(m.Claims) - 1, src: k, e: e})
		}
	}
	return links, y
}

// placeSources lays out the sources' column top down and returns its
// height.
func (m *evidenceMap) placeSources() int {
	sy := 8
	for k := range m.Sources {
		s := &m.Sources[k]
		s.Y = sy
		s.TX, s.TY = s.X+nodePad, s.Y+nodePad+12
		for j := range s.Lines {
			s.Lines[j].X, s.Lines[j].Y = s.TX, s.TY+j*lineHeight
		}
		s.BX, s.BY = s.TX, s.TY+len(s.Lines)*lineHeight
		sy += s.H + nodeGap
	}
	return sy
}

// centre moves the shorter column down to face the middle of the taller,
// and sets the map's height.
func (m *evidenceMap) centre(claimsHeight, sourcesHeight int) {
	h := max(claimsHeight, sourcesHeight)
	shift := func(ns []mapNode, used int) {
		d := (h - used) / 2
		for k := range ns {
			ns[k].Y += d
			ns[k].TY += d
			ns[k].BY += d
			for j := range ns[k].Lines {
				ns[k].Lines[j].Y += d
			}
		}
	}
	shift(m.Claims, claimsHeight)
	shift(m.Sources, sourcesHeight)
	m.Height = h
}

// drawEdges draws one edge per link. Edges leave a claim spread over its
// right side and reach a source spread over its left side, so parallel
// edges stay apart.
func (m *evidenceMap) drawEdges(links []link) {
	out, in, outN, inN := map[int]int{}, map[int]int{}, map[int]int{}, map[int]int{}
	for _, l := range links {
		outN[l.claim]++
		inN[l.src]++
	}
	for _, l := range links {
		c, s := m.Claims[l.claim], m.Sources[l.src]
		x1, y1 := c.X+c.W, c.Y+c.H*(out[l.claim]+1)/(outN[l.claim]+1)
		x2, y2 := s.X, s.Y+s.H*(in[l.src]+1)/(inN[l.src]+1)
		out[l.claim]++
		in[l.src]++
		edge := evidenceEdge(m.lang, l.e, l.claim)
		edge.D = fmt.Sprintf("M%d %d C%d %d %d %d %d %d", x1, y1, x1+60, y1, x2-60, y2, x2, y2)
		m.Edges = append(m.Edges, edge)
	}
}

// evidenceEdge is the edge of a piece of evidence of claim (from 0),
// without its path: its class (stance, quote not found) and its title.
func evidenceEdge(lang words.Lang, e factcheck.Evidence, claim int) mapEdge {
	class := "edge " + string(e.StanceOf())
	if !e.QuoteFound {
		class += " unverified"
	}
	title := lang.MustWord("WebEdge", "Title", orHost(e), "Why", stance(lang, e), "N", claim+1)
	if q := strings.TrimSpace(e.QuoteOrSummary); q != "" {
		title += ": “" + bot.Truncate(q, 200) + "” (" + quoteHow(lang, e) + ")"
	}
	return mapEdge{Class: class, Title: title}
}

func sourceNode(lang words.Lang, e factcheck.Evidence, isPDF bool) mapNode {
	n := mapNode{X: srcX, W: colWidth, Class: "source", Title: e.SourceURL, Lines: sourceLines(e, sourceChars)}
	var marks []string
	if e.Publisher != "" || e.Rating != "" {
		n.Class += " factcheck"
		m := lang.MustWord("WebFactCheck")
		if e.Rating != "" {
			m += ": " + bot.Truncate(e.Rating, 24)
		}
		marks = append(marks, m)
	}
	if isPDF {
		n.Class += " pdf"
		marks = append(marks, "PDF")
	}
	n.Badge = strings.Join(marks, " · ")
	n.H = 2*nodePad + 4 + lineHeight*len(n.Lines)
	if n.Badge != "" {
		n.H += lineHeight
	}
	return n
}

// sourceLines are a source node's lines: its title in two lines of chars
// columns, and its host.
func sourceLines(e factcheck.Evidence, chars int) []mapLine {
	title := strings.TrimSpace(e.SourceTitle)
	if title == "" {
		title = e.SourceURL
	}
	var lines []mapLine
	for _, l := range wrap(title, chars, 2) {
		lines = append(lines, mapLine{Text: l, Class: "t"})
	}
	return append(lines, mapLine{Text: bot.Truncate(host(e.SourceURL), chars), Class: "h"})
}

func orHost(e factcheck.Evidence) string {
	if h := host(e.SourceURL); h != "" {
		return h
	}
	return e.SourceURL
}

// wrap breaks s into at most maxLines lines of about width columns at
// spaces, ending with "…" when it is cut. A wide character (Chinese,
// Japanese, Korean) takes two columns, and a word longer than a line (a
// URL, a sentence without spaces) is broken where the line ends, so that
// no line is wider than its box.
func wrap(s string, width, maxLines int) []string {
	var lines []string
	var cur []rune
	curW := 0
	flush := func() bool {
		lines = append(lines, strings.TrimRight(string(cur), " "))
		cur, curW = cur[:0], 0
		return len(lines) == maxLines
	}
	words := strings.Fields(s)
	for i, w := range words {
		ww := columns(w)
		if curW > 0 && curW+1+ww > width && ww <= width {
			if flush() {
				return cutLast(lines, strings.Join(words[i:], " "), width)
			}
		}
		if curW > 0 {
			cur, curW = append(cur, ' '), curW+1
		}
		for _, r := range w {
			rw := columns(string(r))
			if curW+rw > width {
				if flush() {
					return cutLast(lines, "…", width)
				}
			}
			cur, curW = append(cur, r), curW+rw
		}
	}
	if curW > 0 || len(lines) == 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

// cutLast ends the last line with "…", within width columns, since rest
// did not fit.
func cutLast(lines []string, rest string, width int) []string {
	if rest == "" {
		return lines
	}
	last := []rune(lines[len(lines)-1])
	for len(last) > 0 && columns(string(last))+1 > width {
		last = last[:len(last)-1]
	}
	lines[len(lines)-1] = strings.TrimRight(string(last), " ") + "…"
	return lines
}

// columns is how many columns s takes: two for a wide character.
func columns(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}
