package web

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/web/webtest"
)

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		lines int
		want  []string
	}{
		{"The Eiffel Tower is tall", 10, 3, []string{"The Eiffel", "Tower is", "tall"}},
		{"a https://example.org/very/long/path b", 10, 4, []string{"a https://", "example.or", "g/very/lon", "g/path b"}},
		{"埃菲尔铁塔高三百三十米", 10, 3, []string{"埃菲尔铁塔", "高三百三十", "米"}}, // two columns each
		{"one two three four five six", 9, 2, []string{"one two", "three…"}},
		{"", 10, 2, []string{""}},
	} {
		got := wrap(tc.s, tc.width, tc.lines)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("wrap(%q, %d, %d) (-want +got):\n%s", tc.s, tc.width, tc.lines, diff)
		}
		for _, l := range got {
			if columns(l) > tc.width {
				t.Errorf("wrap(%q): line %q is %d columns, over %d", tc.s, l, columns(l), tc.width)
			}
		}
	}
}

// The stacked map draws every piece of evidence, each claim followed by
// its sources, within its width.
func TestStackedMap(t *testing.T) {
	c, _ := webtest.Sample("T1", "C1", "U1", t0)
	m := drawStackedMap(words.English, c.Report.Claims, func(string) bool { return false })
	evidence := 0
	for _, v := range c.Report.Claims {
		evidence += len(v.Evidence)
	}
	if len(m.Edges) != evidence || len(m.Claims) != len(c.Report.Claims) {
		t.Errorf("%d edges, %d claims; want %d, %d", len(m.Edges), len(m.Claims), evidence, len(c.Report.Claims))
	}
	for _, n := range append(m.Claims, m.Sources...) {
		if n.X < 0 || n.X+n.W > m.Width || n.Y+n.H > m.Height {
			t.Errorf("node %q at %d,%d size %dx%d is outside the %dx%d map", n.Title, n.X, n.Y, n.W, n.H, m.Width, m.Height)
		}
	}
	if !strings.Contains(renderMap(t, m), `class="evmap stacked"`) {
		t.Error("the stacked map is not drawn as the stacked SVG")
	}
	if drawStackedMap(words.English, []*factcheck.Verdict{{Claim: "a"}}, nil) != nil {
		t.Error("a map without evidence is drawn")
	}
}
