package factcheck

import (
	"testing"
)

func TestQuoteFound(t *testing.T) {
	page := []string{"The Great Wall of China — frequently billed as the “only man-made object visible from space” — generally isn't.\nMore text here."}
	for _, tc := range []struct {
		quote string
		want  bool
	}{
		{"frequently billed as the only man-made object visible from space", true},
		{"FREQUENTLY   billed as the \"only man-made object\"", true},
		{"The Great Wall of China … generally isn't", true},
		{"The Great Wall of China... more text here", true},
		{"visible from the Moon", false},
		{"", false},
	} {
		if got := quoteFound(tc.quote, page); got != tc.want {
			t.Errorf("quoteFound(%q) = %v, want %v", tc.quote, got, tc.want)
		}
	}
}
