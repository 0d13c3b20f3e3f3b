package eval

import (
	"math"
	"testing"
)

func TestPricesCostCountsCachedTokens(t *testing.T) {
	p := Prices{InputPerM: 0.30, OutputPerM: 2.50, CachedPerM: 0.03}
	for _, tc := range []struct {
		prompt, cached, output int
		want                   float64
	}{
		{1_000_000, 0, 0, 0.30},
		{1_000_000, 1_000_000, 0, 0.03},
		{10_000, 4_000, 500, (6_000*0.30 + 4_000*0.03 + 500*2.50) / 1e6},
		{100, 500, 0, 100 * 0.03 / 1e6}, // more cached than prompt: capped
	} {
		if got := p.Cost(tc.prompt, tc.cached, tc.output); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Cost(%d, %d, %d) = %g, want %g", tc.prompt, tc.cached, tc.output, got, tc.want)
		}
	}
}
