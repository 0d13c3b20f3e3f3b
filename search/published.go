package search

import (
	"strings"
	"time"

	"github.com/araddon/dateparse"
)

// parsePublished reads a publication date as search providers give it
// ("2024-02-12T10:00:00", "Mon, 12 Feb 2024 10:00:00 GMT", "March 3,
// 2023"); a date without a zone is taken as UTC. It returns the zero time
// for an empty or relative date ("2 days ago") or one it cannot read.
func parsePublished(s string) (t time.Time) {
	defer func() { // the parser is a dependency's: a panic on a provider's odd string is a date not read
		if recover() != nil {
			t = time.Time{}
		}
	}()
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(strings.ToLower(s), " ago") {
		return time.Time{}
	}
	t, err := dateparse.ParseIn(s, time.UTC)
	if err != nil || t.Year() < 1990 {
		return time.Time{}
	}
	return t.UTC()
}
