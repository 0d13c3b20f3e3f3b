package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://example.com/a", "https://example.com/a"},
		{"HTTPS://Example.COM/a", "https://example.com/a"},
		{"https://example.com/a/", "https://example.com/a"},
		{"https://example.com/", "https://example.com"},
		{"https://example.com", "https://example.com"},
		{"https://www.example.com/a", "https://example.com/a"},
		{"https://example.com:443/a", "https://example.com/a"},
		{"http://example.com:80/a", "http://example.com/a"},
		{"http://example.com:8080/a", "http://example.com:8080/a"},
		{"https://example.com:80/a", "https://example.com:80/a"},
		{"https://example.com/a#section-2", "https://example.com/a"},
		{"https://example.com/a?utm_source=tw&utm_medium=social&utm_campaign=x", "https://example.com/a"},
		{"https://example.com/a?UTM_Source=tw", "https://example.com/a"},
		{"https://example.com/a?fbclid=IwAR0abc", "https://example.com/a"},
		{"https://example.com/a?gclid=xyz&id=7", "https://example.com/a?id=7"},
		{"https://example.com/a?ref=hn&b=2&a=1", "https://example.com/a?a=1&b=2"},
		{"https://example.com/a?id=7#top", "https://example.com/a?id=7"},
		{"https://user:pw@example.com/a", "https://example.com/a"},
		{"https://example.com./a", "https://example.com/a"},
		{"https://example.com../a", "https://example.com/a"},
		{"https://www.www.example.com/a", "https://example.com/a"},
		{"A://..", "a://"},
		{"https://example.com/A/B", "https://example.com/A/B"}, // path case matters
		{"https://example.com/caf%C3%A9/", "https://example.com/caf%C3%A9"},
		{"http://[2001:DB8::1]:80/x", "http://[2001:db8::1]/x"},
		{"  https://example.com/a  ", "https://example.com/a"},
		{"not a url", "not a url"},
		{"/relative/path", "/relative/path"},
	}
	for _, tc := range tests {
		if got := Canonical(tc.in); got != tc.want {
			t.Errorf("Canonical(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDedupe(t *testing.T) {
	in := []Result{
		{URL: "https://example.com/story?utm_source=a", Title: "Scientists confirm the ocean is getting warmer every year - Example News"},
		{URL: "https://www.example.com/story/", Title: "Same URL, other title"},
		{URL: "https://mirror.example.net/copy", Title: "Scientists confirm the ocean is getting warmer every year | Mirror"},
		{URL: "https://other.example.org/home", Title: "Home"},
		{URL: "https://third.example.org/home", Title: "Home"}, // short titles never merge
		{URL: "https://other.example.org/b", Title: "A different article about the warmer ocean"},
	}
	want := []Result{in[0], in[3], in[4], in[5]}
	if d := cmp.Diff(want, Dedupe(in)); d != "" {
		t.Errorf("Dedupe (-want +got):\n%s", d)
	}
}
