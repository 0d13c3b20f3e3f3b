package search

import (
	"github.com/ledongthuc/pdf"
)

// The PDF library's Page.Content resolves a font's widths afresh for
// every glyph, which decompresses the object stream that holds them each
// time: a 17-page manual took 8 seconds. pageGlyphs interprets a page's
// text operators the same way, on the library's own tokenizer and
// decoders, with each font read once.

// glyph is one character drawn on a page: where it starts, how wide it
// is and how large its font is, in points.
type glyph struct {
	x, y, w, size float64
	s             string
}

type matrix [3][3]float64

var identity = matrix{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

func (x matrix) mul(y matrix) matrix {
	var z matrix
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				z[i][j] += x[i][k] * y[k][j]
			}
		}
	}
	return z
}

// pdfFont is what text layout needs of a font, read once.
type pdfFont struct {
	enc         pdf.TextEncoding
	first, last int
	widths      []float64
	// Composite (Type0) fonts: two-byte codes, widths by CID.
	composite bool
	cidWidths map[int]float64
	dw        float64
}

func loadFont(v pdf.Value) *pdfFont {
	f := pdf.Font{V: v}
	pf := &pdfFont{enc: f.Encoder(), first: int(v.Key("FirstChar").Int64()), last: int(v.Key("LastChar").Int64())}
	if pf.enc == nil {
		pf.enc = rawEncoding{}
	}
	ws := v.Key("Widths")
	for i := range ws.Len() {
		pf.widths = append(pf.widths, ws.Index(i).Float64())
	}
	if v.Key("Subtype").Name() == "Type0" {
		pf.composite = true
		d := v.Key("DescendantFonts").Index(0)
		pf.dw = 1000
		if dw := d.Key("DW"); dw.Kind() == pdf.Integer || dw.Kind() == pdf.Real {
			pf.dw = dw.Float64()
		}
		pf.cidWidths = map[int]float64{}
		w := d.Key("W")
		for i := 0; i+1 < w.Len(); {
			c := int(w.Index(i).Int64())
			if next := w.Index(i + 1); next.Kind() == pdf.Array {
				for j := range next.Len() {
					pf.cidWidths[c+j] = next.Index(j).Float64()
				}
				i += 2
			} else if i+2 < w.Len() {
				c2 := int(next.Int64())
				for c := c; c <= c2 && c-int(w.Index(i).Int64()) < 65536; c++ {
					pf.cidWidths[c] = w.Index(i + 2).Float64()
				}
				i += 3
			} else {
				break
			}
		}
	}
	return pf
}

// codes splits a shown string into character codes.
func (f *pdfFont) codes(raw string) []int {
	var out []int
	if f.composite {
		for i := 0; i+1 < len(raw); i += 2 {
			out = append(out, int(raw[i])<<8|int(raw[i+1]))
		}
		return out
	}
	for i := 0; i < len(raw); i++ {
		out = append(out, int(raw[i]))
	}
	return out
}

func (f *pdfFont) width(code int) float64 {
	if f.composite {
		if w, ok := f.cidWidths[code]; ok {
			return w
		}
		return f.dw
	}
	if code < f.first || code > f.last || code-f.first >= len(f.widths) {
		return 0
	}
	return f.widths[code-f.first]
}

type rawEncoding struct{}

func (rawEncoding) Decode(raw string) string { return raw }

type textState struct {
	tc, tw, th, tl, tfs, trise float64
	font                       *pdfFont
	tm, tlm, ctm               matrix
}

// pageGlyphs returns the glyphs a page draws, in drawing order.
func pageGlyphs(pg pdf.Page) []glyph {
	contents := pg.V.Key("Contents")
	if contents.Kind() == pdf.Null {
		return nil
	}
	in := &glyphInterpreter{
		fontDict: pg.Resources().Key("Font"),
		fonts:    map[string]*pdfFont{},
		g:        textState{th: 1, ctm: identity, tm: identity, tlm: identity},
	}
	pdf.Interpret(contents, func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		in.do(op, args)
	})
	return in.out
}

// glyphInterpreter follows a page's content stream: the graphics and text
// state, and the glyphs shown so far.
type glyphInterpreter struct {
	fontDict pdf.Value
	fonts    map[string]*pdfFont
	g        textState
	stack    []textState
	out      []glyph
}

// show places the glyphs of a string shown with the current font.
func (in *glyphInterpreter) show(raw string) {
	g := &in.g
	f := g.font
	if f == nil {
		return
	}
	codes := f.codes(raw)
	n := 0
	for _, ch := range f.enc.Decode(raw) {
		var w0 float64
		if n < len(codes) {
			w0 = f.width(codes[n])
		}
		n++
		trm := matrix{{g.tfs * g.th, 0, 0}, {0, g.tfs, 0}, {0, g.trise, 1}}.mul(g.tm).mul(g.ctm)
		in.out = append(in.out, glyph{x: trm[2][0], y: trm[2][1], w: w0 / 1000 * trm[0][0], size: trm[0][0], s: string(ch)})
		tx := w0/1000*g.tfs + g.tc
		if ch == ' ' {
			tx += g.tw
		}
		g.tm = matrix{{1, 0, 0}, {0, 1, 0}, {tx * g.th, 0, 1}}.mul(g.tm)
	}
}

func (in *glyphInterpreter) nextLine() {
	in.g.tlm = matrix{{1, 0, 0}, {0, 1, 0}, {0, -in.g.tl, 1}}.mul(in.g.tlm)
	in.g.tm = in.g.tlm
}

// showArray is TJ: strings shown, numbers moving the text position back.
func (in *glyphInterpreter) showArray(v pdf.Value) {
	for i := range v.Len() {
		x := v.Index(i)
		if x.Kind() == pdf.String {
			in.show(x.RawString())
			continue
		}
		tx := -x.Float64() / 1000 * in.g.tfs * in.g.th
		in.g.tm = matrix{{1, 0, 0}, {0, 1, 0}, {tx, 0, 1}}.mul(in.g.tm)
	}
}

func (in *glyphInterpreter) setFont(name string, size float64) {
	f, ok := in.fonts[name]
	if !ok {
		f = loadFont(in.fontDict.Key(name))
		in.fonts[name] = f
	}
	in.g.font, in.g.tfs = f, size
}

// do runs one operator of the content stream; the ones that neither move
// text nor show it are ignored. One flat switch.
func (in *glyphInterpreter) do(op string, args []pdf.Value) {
	g := &in.g
	num := func(i int) float64 { return args[i].Float64() }
	mat := func() matrix {
		var m matrix
		for i := range 6 {
			m[i/2][i%2] = num(i)
		}
		m[2][2] = 1
		return m
	}
	switch {
	case op == "cm" && len(args) == 6:
		g.ctm = mat().mul(g.ctm)
	case op == "q":
		in.stack = append(in.stack, *g)
	case op == "Q" && len(in.stack) > 0:
		*g = in.stack[len(in.stack)-1]
		in.stack = in.stack[:len(in.stack)-1]
	case op == "BT":
		g.tm, g.tlm = identity, identity
	case op == "T*":
		in.nextLine()
	case op == "Tc" && len(args) == 1:
		g.tc = num(0)
	case op == "Tw" && len(args) == 1:
		g.tw = num(0)
	case op == "Tz" && len(args) == 1:
		g.th = num(0) / 100
	case op == "TL" && len(args) == 1:
		g.tl = num(0)
	case op == "Ts" && len(args) == 1:
		g.trise = num(0)
	case (op == "Td" || op == "TD") && len(args) == 2:
		if op == "TD" {
			g.tl = -num(1)
		}
		g.tlm = matrix{{1, 0, 0}, {0, 1, 0}, {num(0), num(1), 1}}.mul(g.tlm)
		g.tm = g.tlm
	case op == "Tm" && len(args) == 6:
		g.tm = mat()
		g.tlm = g.tm
	case op == "Tf" && len(args) == 2:
		in.setFont(args[0].Name(), num(1))
	case op == "Tj" && len(args) == 1:
		in.show(args[0].RawString())
	case op == "'" && len(args) == 1:
		in.nextLine()
		in.show(args[0].RawString())
	case op == "\"" && len(args) == 3:
		g.tw, g.tc = num(0), num(1)
		in.nextLine()
		in.show(args[2].RawString())
	case op == "TJ" && len(args) == 1:
		in.showArray(args[0])
	}
}
