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
