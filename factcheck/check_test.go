package factcheck

import (
	"testing"
)

func TestOnlyURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/a?b=c":                   "https://example.com/a?b=c",
		" <https://example.com/a> ":                   "https://example.com/a",
		"<https://example.com/a|example.com/a>":       "https://example.com/a",
		"see https://example.com/a":                   "",
		"https://example.com/a https://example.org/b": "",
		"The Great Wall is visible from space":        "",
	} {
		if got := OnlyURL(in); got != want {
			t.Errorf("OnlyURL(%q) = %q, want %q", in, got, want)
		}
	}
}
