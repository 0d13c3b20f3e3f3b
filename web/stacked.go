package web

import (
	"fmt"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
)

// The stacked evidence map is the phones' layout: one column, each claim
// followed by the sources it cites, indented, one edge per piece of
// evidence down its left side. A source cited by several claims appears
// under each. Its width suits a 390 px screen at about one unit a pixel.
const (
	stackWidth       = 360
	stackClaimW      = stackWidth - 16
	stackSourceX     = 36
	stackSourceW     = stackWidth - stackSourceX - 8
	stackClaimChars  = 42
	stackClaimLines  = 4
	stackSourceChars = 38
	stackSpine       = 20 // the x of the edges' vertical run
)

// drawStackedMap lays the evidence of the claims out in one column, its
// words in l; nil when there is no evidence to draw.
func drawStackedMap(l words.Lang, claims []*factcheck.Verdict, pdf func(url string) bool) *evidenceMap {
	m := &evidenceMap{Width: stackWidth, Class: "stacked", lang: l}
	y, edges := 8, 0
	for i, v := range claims {
		if v == nil {
			continue
		}
		c := stackedClaim(l, i, v, y)
		m.Claims = append(m.Claims, c)
		y += c.H + nodeGap/2
		placed := map[string]int{} // URL → index in m.Sources
		for _, e := range v.Evidence {
			if _, ok := placed[e.SourceURL]; !ok {
				n := sourceNode(l, e, pdf(e.SourceURL))
				n.X, n.W = stackSourceX, stackSourceW
				n.Lines = sourceLines(e, stackSourceChars)
				placeNode(&n, y)
				placed[e.SourceURL] = len(m.Sources)
				m.Sources = append(m.Sources, n)
				y += n.H + nodeGap/2
			}
		}
		m.stackedEdges(c, v.Evidence, placed, i)
		edges += len(v.Evidence)
		y += nodeGap
	}
	if edges == 0 {
		return nil
	}
	m.Height = y
	return m
}

// stackedClaim is claim i's node at y, full width.
func stackedClaim(lang words.Lang, i int, v *factcheck.Verdict, y int) mapNode {
	lines := wrap(fmt.Sprintf("%d. %s", i+1, v.Claim), stackClaimChars, stackClaimLines)
	n := mapNode{X: 8, Y: y, W: stackClaimW, H: 2*nodePad + 18 + lineHeight*len(lines), Class: "claim v-" + string(v.Verdict), Title: v.Claim,
		Badge: bot.Emoji(v.Verdict) + " " + lang.Label(v.Verdict)}
	n.TX, n.TY = n.X+nodePad, n.Y+nodePad+12
	for j, l := range lines {
		n.Lines = append(n.Lines, mapLine{Text: l, Class: "t", X: n.TX, Y: n.TY + j*lineHeight})
	}
	n.BX, n.BY = n.X+nodePad, n.TY+len(lines)*lineHeight+4
	return n
}

// placeNode puts a source node's top at y, its lines and marks under it.
func placeNode(n *mapNode, y int) {
	n.Y = y
	n.TX, n.TY = n.X+nodePad, n.Y+nodePad+12
	for j := range n.Lines {
		n.Lines[j].X, n.Lines[j].Y = n.TX, n.TY+j*lineHeight
	}
	n.BX, n.BY = n.TX, n.TY+len(n.Lines)*lineHeight
	n.H = 2*nodePad + 4 + lineHeight*len(n.Lines)
	if n.Badge != "" {
		n.H += lineHeight
	}
}

// stackedEdges draws an edge per piece of claim c's evidence: down the
// spine from the claim, then right into its source, spread over the
// source's left side when a source is cited twice.
func (m *evidenceMap) stackedEdges(c mapNode, ev []factcheck.Evidence, placed map[string]int, claim int) {
	n, k := map[int]int{}, map[int]int{}
	for _, e := range ev {
		n[placed[e.SourceURL]]++
	}
	for _, e := range ev {
		si := placed[e.SourceURL]
		s := m.Sources[si]
		y2 := s.Y + s.H*(k[si]+1)/(n[si]+1)
		k[si]++
		edge := evidenceEdge(m.lang, e, claim)
		edge.D = fmt.Sprintf("M%d %d V%d Q%d %d %d %d H%d", stackSpine, c.Y+c.H, y2-8, stackSpine, y2, stackSpine+8, y2, s.X)
		m.Edges = append(m.Edges, edge)
	}
}
