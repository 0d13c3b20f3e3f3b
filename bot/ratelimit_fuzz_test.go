package bot

import "testing"

func FuzzParseLimit(f *testing.F) {
	for _, s := range []string{"10/10m", "100/1h", "0", "off", "5/m", " 3 / 30s ", "10", "-1/1m", "1/0s", "1/-1m", "9999999999999999999/1m", "1/1e3h", "x/y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLimit(s)
		if err != nil {
			if l != (Limit{}) {
				t.Errorf("ParseLimit(%q) = %v with error %v, want the zero Limit", s, l, err)
			}
			return
		}
		if l == (Limit{}) {
			return // off
		}
		if l.N < 0 || l.Window <= 0 {
			t.Fatalf("ParseLimit(%q) = %+v: a negative count or an empty window", s, l)
		}
		back, err := ParseLimit(l.String())
		if err != nil || back != l {
			t.Errorf("ParseLimit(%q) = %v, but its String %q reads back as %v, %v", s, l, l.String(), back, err)
		}
	})
}
