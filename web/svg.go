package web

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
)

// evidenceMap is the evidence map laid out for the SVG template: claims
// in the left column, the sources they cite in the right, one edge per
// piece of evidence. All text is escaped by the template.
type evidenceMap struct {
	Width, Height int
	Claims        []mapNode
	Sources       []mapNode
	Edges         []mapEdge
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

// drawMap lays out the evidence of the claims; pdf says which source URLs
// are PDFs. It returns nil when there is no evidence to draw.
func drawMap(claims []*factcheck.Verdict, pdf func(url string) bool) *evidenceMap {
	m := &evidenceMap{Width: mapWidth}
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
			Badge: bot.Emoji(v.Verdict) + " " + bot.LabelText(v.Verdict)}
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
				m.Sources = append(m.Sources, sourceNode(e, pdf(e.SourceURL)))
			} else if e.Publisher != "" && !strings.Contains(m.Sources[k].Class, "factcheck") {
				m.Sources[k] = sourceNode(e, pdf(e.SourceURL))
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
		stance := string(l.e.StanceOf())
		class := "edge " + stance
		if !l.e.QuoteFound {
			class += " unverified"
		}
		title := fmt.Sprintf("%s %s claim %d", orHost(l.e), stance, l.claim+1)
		if q := strings.TrimSpace(l.e.QuoteOrSummary); q != "" {
			title += ": “" + bot.Truncate(q, 200) + "” (" + quoteHow(l.e) + ")"
		}
		m.Edges = append(m.Edges, mapEdge{
			D:     fmt.Sprintf("M%d %d C%d %d %d %d %d %d", x1, y1, x1+60, y1, x2-60, y2, x2, y2),
			Class: class, Title: title,
		})
	}
}

func sourceNode(e factcheck.Evidence, isPDF bool) mapNode {
	title := strings.TrimSpace(e.SourceTitle)
	if title == "" {
		title = e.SourceURL
	}
	lines := wrap(title, sourceChars, 2)
	n := mapNode{X: srcX, W: colWidth, Class: "source", Title: e.SourceURL}
	var marks []string
	if e.Publisher != "" || e.Rating != "" {
		n.Class += " factcheck"
		m := "fact-check"
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
	for _, l := range lines {
		n.Lines = append(n.Lines, mapLine{Text: l, Class: "t"})
	}
	n.Lines = append(n.Lines, mapLine{Text: host(e.SourceURL), Class: "h"})
	n.H = 2*nodePad + 4 + lineHeight*len(n.Lines)
	if n.Badge != "" {
		n.H += lineHeight
	}
	return n
}

func orHost(e factcheck.Evidence) string {
	if h := host(e.SourceURL); h != "" {
		return h
	}
	return e.SourceURL
}

// wrap breaks s into at most maxLines lines of about width characters at
// spaces, ending with "…" when it is cut.
func wrap(s string, width, maxLines int) []string {
	words := strings.Fields(s)
	var lines []string
	var cur strings.Builder
	for i, w := range words {
		if utf8.RuneCountInString(w) > width {
			w = bot.Truncate(w, width)
		}
		if cur.Len() > 0 && utf8.RuneCountInString(cur.String())+1+utf8.RuneCountInString(w) > width {
			lines = append(lines, cur.String())
			cur.Reset()
			if len(lines) == maxLines {
				last := lines[maxLines-1]
				lines[maxLines-1] = bot.Truncate(last+" "+strings.Join(words[i:], " "), width)
				return lines
			}
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(w)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	if len(lines) == 0 {
		lines = []string{""}
	}
	return lines
}
