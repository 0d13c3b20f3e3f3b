package search

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParsePublished(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2024-02-12T10:00:00", time.Date(2024, 2, 12, 10, 0, 0, 0, time.UTC)},
		{"2024-02-12T10:00:00+02:00", time.Date(2024, 2, 12, 8, 0, 0, 0, time.UTC)},
		{"2024-02-12 10:00:00", time.Date(2024, 2, 12, 10, 0, 0, 0, time.UTC)},
		{"2024-02-12", time.Date(2024, 2, 12, 0, 0, 0, 0, time.UTC)},
		{"Mon, 12 Feb 2024 10:00:00 GMT", time.Date(2024, 2, 12, 10, 0, 0, 0, time.UTC)},
		{"March 3, 2023", time.Date(2023, 3, 3, 0, 0, 0, 0, time.UTC)},
		{"2 days ago", time.Time{}},
		{"", time.Time{}},
		{"soon", time.Time{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(parsePublished(tt.in), tt.want); diff != "" {
			t.Errorf("parsePublished(%q) (-got +want):\n%s", tt.in, diff)
		}
	}
}

// FuzzParsePublished: a date string from a search provider never panics
// the reader, whatever it holds; a date read is after 1990 and in UTC.
func FuzzParsePublished(f *testing.F) {
	for _, s := range []string{"2024-02-12T10:00:00", "Mon, 12 Feb 2024 10:00:00 GMT", "March 3, 2023", "12/31/2023",
		"2023年3月3日", "3 de marzo de 2023", "1.2.3.4", "2 days ago", "1-1-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := parsePublished(s); !d.IsZero() && (d.Year() < 1990 || d.Location() != time.UTC) {
			t.Errorf("parsePublished(%q) = %v", s, d)
		}
	})
}
